#include "data/idx.h"

#include <zlib.h>

#include <filesystem>

#include <fmt/format.h>

namespace data {

using namespace autograd;

const char* const kFashionMnistClasses[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                              "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

namespace {

// The whole (decompressed) file.
std::vector<std::uint8_t> read_all(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw DatasetError(fmt::format("read_idx: cannot open {}", path));
    std::vector<std::uint8_t> bytes;
    std::uint8_t buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    int err = 0;
    const char* msg = gzerror(f, &err);
    gzclose(f);
    if (n < 0 || (err != Z_OK && err != Z_BUF_ERROR))
        throw DatasetError(fmt::format("read_idx: {} is corrupt: {}", path, msg ? msg : "gzip error"));
    return bytes;
}

}  // namespace

IdxArray read_idx(const std::string& path) {
    std::vector<std::uint8_t> b = read_all(path);
    if (b.size() < 4 || b[0] != 0 || b[1] != 0)
        throw DatasetError(fmt::format("read_idx: {} is not an IDX file (bad magic number)", path));
    if (b[2] != 0x08)
        throw DatasetError(fmt::format("read_idx: {} holds element type 0x{:02x}; only unsigned bytes (0x08) are supported",
                                       path, b[2]));
    const std::size_t ndims = b[3];
    if (ndims == 0 || ndims > 4) throw DatasetError(fmt::format("read_idx: {} has {} dimensions", path, ndims));
    if (b.size() < 4 + 4 * ndims)
        throw DatasetError(fmt::format("read_idx: {} is truncated inside its header", path));
    IdxArray a;
    std::size_t count = 1;
    for (std::size_t i = 0; i < ndims; ++i) {
        const std::uint8_t* p = b.data() + 4 + 4 * i;
        std::int64_t d = (std::int64_t{p[0]} << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
        a.dims.push_back(d);
        count *= static_cast<std::size_t>(d);
    }
    const std::size_t header = 4 + 4 * ndims;
    if (b.size() != header + count)
        throw DatasetError(fmt::format("read_idx: {} should hold {} bytes of data for dims {}, but holds {}", path, count,
                                       shape_str(a.dims), b.size() - header));
    a.values.assign(b.begin() + static_cast<std::ptrdiff_t>(header), b.end());
    return a;
}

ImageSet read_image_set(const std::string& images_path, const std::string& labels_path) {
    IdxArray im = read_idx(images_path), lb = read_idx(labels_path);
    if (im.dims.size() != 3)
        throw DatasetError(fmt::format("read_image_set: {} has dims {}, expected [N, rows, cols]", images_path,
                                       shape_str(im.dims)));
    if (lb.dims.size() != 1)
        throw DatasetError(fmt::format("read_image_set: {} has dims {}, expected [N]", labels_path, shape_str(lb.dims)));
    if (im.dims[0] != lb.dims[0])
        throw DatasetError(fmt::format("read_image_set: {} holds {} images but {} holds {} labels", images_path, im.dims[0],
                                       labels_path, lb.dims[0]));
    ImageSet s;
    s.images = Tensor::empty({im.dims[0], 1, im.dims[1], im.dims[2]}, Dtype::float32);
    float* px = s.images.data<float>();
    for (std::size_t i = 0; i < im.values.size(); ++i) px[i] = im.values[i];
    s.labels = Tensor::empty({lb.dims[0]}, Dtype::int64);
    std::int64_t* pl = s.labels.data<std::int64_t>();
    for (std::size_t i = 0; i < lb.values.size(); ++i) pl[i] = lb.values[i];
    return s;
}

ImageSet load_fashion_mnist(Split split, const std::string& dir) {
    std::string prefix = split == Split::train ? "train" : "t10k";
    std::string images = fmt::format("{}/{}-images-idx3-ubyte.gz", dir, prefix);
    std::string labels = fmt::format("{}/{}-labels-idx1-ubyte.gz", dir, prefix);
    for (const std::string& p : {images, labels})
        if (!std::filesystem::exists(p))
            throw DatasetError(fmt::format("Fashion-MNIST: {} not found; install it with `apt-get install "
                                           "dataset-fashion-mnist` (or pass the folder that holds it)",
                                           p));
    return read_image_set(images, labels);
}

}  // namespace data
