#pragma once
// A PNG written as every output is (output_files.h): encoded in memory by
// stb_image_write, then written atomically, every failure an error naming the file.
#include <string>
#include <vector>

namespace examples {

// `rgb`: h rows of w pixels, 3 bytes each.
void write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgb);

}  // namespace examples
