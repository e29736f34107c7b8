#pragma once
// The IDX file format of MNIST and Fashion-MNIST (gzipped or plain):
//   magic: 0x00 0x00 <type> <ndims>   type 0x08 = unsigned byte
//   ndims sizes, each a big-endian u32
//   the data, row-major, one byte per element
// Every read is checked: magic, element type, dims, the file's length, that
// images and labels agree in count and that every label names a class; a
// failure says what and where. The header is read and checked first, then
// exactly the bytes it promises: a file that holds fewer is truncated, one that
// holds more (a gzip bomb) has trailing data, and neither is read further than
// one byte past the promise. A path that is not a regular file (a FIFO, a
// device, a folder) is refused before it is opened.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace data {

struct DatasetError : autograd::Error {
    using autograd::Error::Error;
};

struct IdxArray {
    std::vector<std::int64_t> dims;
    std::vector<std::uint8_t> values;
};

// The most data bytes an IDX file may promise: Fashion-MNIST's training
// images are 47 MB; a header promising more than this is refused before its
// data is decompressed.
inline constexpr std::size_t kMaxIdxBytes = std::size_t{1} << 32;

// Reads an IDX file of unsigned bytes; `path` may be gzipped (zlib reads both).
IdxArray read_idx(const std::string& path, std::size_t max_bytes = kMaxIdxBytes);

struct ImageSet {
    autograd::Tensor images;  // uint8 values as float32 [N, 1, rows, cols], in [0, 255]
    autograd::Tensor labels;  // int64 [N]
};

// images: 3-D IDX [N, rows, cols]; labels: 1-D IDX [N], each in [0, num_classes).
ImageSet read_image_set(const std::string& images_path, const std::string& labels_path, std::int64_t num_classes);

enum class Split { train, test };
// Fashion-MNIST from `dir` (default: where Debian's dataset-fashion-mnist
// installs it). A missing file names the path and the package to install; images
// of another size than Fashion-MNIST's 28 x 28 are refused, naming the file.
ImageSet load_fashion_mnist(Split split, const std::string& dir = "/usr/share/datasets/fashion-mnist");

extern const char* const kFashionMnistClasses[10];

}  // namespace data
