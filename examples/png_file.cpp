#include "examples/png_file.h"

#include <stb_image_write.h>

#include <stdexcept>

#include <fmt/format.h>

#include "examples/output_files.h"

namespace examples {

void write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgb) {
    std::string bytes;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, w, h, 3, rgb.data(), w * 3))
        throw std::runtime_error(fmt::format("cannot encode {} as PNG ({}x{} pixels)", path, w, h));
    write_output(path, bytes);
}

}  // namespace examples
