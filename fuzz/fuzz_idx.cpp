// libFuzzer target: any bytes as an IDX file (gzipped or plain). The first
// byte chooses the role: a lone IDX array, or the images or the labels of a
// data set whose other file is valid. Findings as in fuzz_checkpoint.cpp.
#include "lectern/data/idx.h"
#include "fuzz/fuzz_file.h"

namespace {

// Two 2x2 images and their labels, the valid partners of a fuzzed file.
const std::uint8_t kImages[] = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8};
const std::uint8_t kLabels[] = {0, 0, 8, 1, 0, 0, 0, 2, 3, 9};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const std::string images = fuzz::write_scratch(kImages, sizeof kImages, 1);
    static const std::string labels = fuzz::write_scratch(kLabels, sizeof kLabels, 2);
    const std::string path = fuzz::write_scratch(data + 1, size - 1);
    fuzz::require_clean_rejection(path, [&] {
        switch (data[0] % 3) {
            case 0:
                data::read_idx(path);
                break;
            case 1:
                data::read_image_set(path, labels, 10);
                break;
            default:
                data::read_image_set(images, path, 10);
                break;
        }
    });
    return 0;
}
