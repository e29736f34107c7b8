#include "lectern/data/idx.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>

#include <fmt/format.h>

#include "lectern/autograd/regular_file.h"

namespace data {

using namespace autograd;

const char* const kFashionMnistClasses[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                              "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

namespace {

// A gzipped or plain file read a piece at a time, so that no more is
// decompressed than asked for: a gzip bomb or /dev/zero costs no more than the
// bytes the header promised. zlib errors become DatasetError naming the file.
class GzReader {
public:
    explicit GzReader(const std::string& path) : path_(path), f_(open(path)) {
        if (!f_) throw DatasetError(fmt::format("read_idx: cannot open {}: {}", path, std::strerror(errno)));
    }
    ~GzReader() { gzclose(f_); }
    GzReader(const GzReader&) = delete;
    GzReader& operator=(const GzReader&) = delete;

    // Appends up to n bytes to `out`; returns how many, fewer only at the end of the file.
    std::size_t read(std::vector<std::uint8_t>& out, std::size_t n) {
        std::size_t got = 0;
        while (got < n) {
            const auto chunk = static_cast<unsigned>(std::min<std::size_t>(n - got, std::size_t{1} << 20));
            const std::size_t old = out.size();
            out.resize(old + chunk);  // grows with the data actually read, never to n at once
            int k = gzread(f_, out.data() + old, chunk);
            out.resize(old + static_cast<std::size_t>(std::max(k, 0)));
            if (k <= 0) break;
            got += static_cast<std::size_t>(k);
        }
        int err = Z_OK;
        gzerror(f_, &err);
        if (err != Z_OK) fail(err);  // includes a gzip stream cut short (Z_BUF_ERROR)
        return got;
    }

private:
    // Refused before it is opened: opening a FIFO waits for a writer, perhaps forever.
    static gzFile open(const std::string& path) {
        autograd::require_regular_file<DatasetError>(path, "read_idx");
        return gzopen(path.c_str(), "rb");
    }

    [[noreturn]] void fail(int err) {
        std::string msg = gzerror(f_, &err);  // copied: the stream owns the text and gzclose frees it
        // zlib prefixes its messages with "<path>: ", which ours names already.
        if (msg.starts_with(path_ + ": ")) msg.erase(0, path_.size() + 2);
        if (err == Z_ERRNO) throw DatasetError(fmt::format("read_idx: cannot read {}: {}", path_, msg));
        throw DatasetError(fmt::format("read_idx: {} is corrupt: {}", path_, msg));
    }

    std::string path_;
    gzFile f_;
};

}  // namespace

namespace {

// The header of an open IDX file: its magic, element type and dims, checked;
// `count` is the number of data bytes the dims promise.
struct IdxHeader {
    std::vector<std::int64_t> dims;
    std::size_t count = 1;
};

IdxHeader read_header(GzReader& in, const std::string& path) {
    std::vector<std::uint8_t> h;
    if (in.read(h, 4) < 4 || h[0] != 0 || h[1] != 0)
        throw DatasetError(fmt::format("read_idx: {} is not an IDX file (bad magic number)", path));
    if (h[2] != 0x08)
        throw DatasetError(
            fmt::format("read_idx: {} holds element type 0x{:02x}; only unsigned bytes (0x08) are supported", path,
                        h[2]));
    const std::size_t ndims = h[3];
    if (ndims == 0 || ndims > 4) throw DatasetError(fmt::format("read_idx: {} has {} dimensions", path, ndims));
    if (in.read(h, 4 * ndims) < 4 * ndims)
        throw DatasetError(fmt::format("read_idx: {} is truncated inside its header", path));
    IdxHeader header;
    // Four sizes below 2^32 can multiply to 2^128: check every product. The
    // product with 0 read as 1 bounds the tensor's strides too (autograd::numel).
    std::int64_t extent = 1;
    for (std::size_t i = 0; i < ndims; ++i) {
        const std::uint8_t* p = h.data() + 4 + 4 * i;
        const std::int64_t d = (std::int64_t{p[0]} << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
        header.dims.push_back(d);
        if (__builtin_mul_overflow(extent, std::max<std::int64_t>(d, 1), &extent))
            throw DatasetError(
                fmt::format("read_idx: {} is corrupt: dims {} multiply past int64", path, shape_str(header.dims)));
        header.count *= static_cast<std::size_t>(d);  // <= extent, cannot wrap
    }
    return header;
}

// Exactly the promised bytes, then one more to tell the end of the file from
// trailing data: a longer file is rejected, not silently cut.
IdxArray read_data(GzReader& in, const std::string& path, const IdxHeader& header, std::size_t max_bytes) {
    if (header.count > max_bytes)
        throw DatasetError(fmt::format("read_idx: {}'s dims {} promise {} bytes of data, more than the {} it may hold",
                                       path, shape_str(header.dims), header.count, max_bytes));
    IdxArray a{header.dims, {}};
    const std::size_t got = in.read(a.values, header.count);
    if (got < header.count)
        throw DatasetError(fmt::format("read_idx: {} is truncated: its dims {} promise {} bytes of data, it holds {}",
                                       path, shape_str(a.dims), header.count, got));
    std::vector<std::uint8_t> extra;
    if (in.read(extra, 1) > 0)
        throw DatasetError(
            fmt::format("read_idx: {} has trailing data: more than the {} bytes of data its dims {} promise", path,
                        header.count, shape_str(a.dims)));
    return a;
}

}  // namespace

IdxArray read_idx(const std::string& path, std::size_t max_bytes) {
    GzReader in(path);
    return read_data(in, path, read_header(in, path), max_bytes);
}

ImageSet read_image_set(const std::string& images_path, const std::string& labels_path, std::int64_t num_classes) {
    if (num_classes < 1) throw ValueError(fmt::format("read_image_set: num_classes is {}, must be >= 1", num_classes));
    // Both headers first: files that cannot make an image set are refused
    // before any of their data is decompressed.
    GzReader im_in(images_path), lb_in(labels_path);
    const IdxHeader im_header = read_header(im_in, images_path), lb_header = read_header(lb_in, labels_path);
    if (im_header.dims.size() != 3)
        throw DatasetError(fmt::format("read_image_set: {} has dims {}, expected [N, rows, cols]", images_path,
                                       shape_str(im_header.dims)));
    if (lb_header.dims.size() != 1)
        throw DatasetError(
            fmt::format("read_image_set: {} has dims {}, expected [N]", labels_path, shape_str(lb_header.dims)));
    if (im_header.dims[0] != lb_header.dims[0])
        throw DatasetError(fmt::format("read_image_set: {} holds {} images but {} holds {} labels", images_path,
                                       im_header.dims[0], labels_path, lb_header.dims[0]));
    if (im_header.dims[0] == 0) throw DatasetError(fmt::format("read_image_set: {} holds no images", images_path));
    IdxArray im = read_data(im_in, images_path, im_header, kMaxIdxBytes);
    IdxArray lb = read_data(lb_in, labels_path, lb_header, kMaxIdxBytes);
    // Checked here, once, so that no later loss or confusion matrix indexes
    // with a bad label.
    for (std::size_t i = 0; i < lb.values.size(); ++i)
        if (lb.values[i] >= num_classes)
            throw DatasetError(
                fmt::format("read_image_set: {} is corrupt: label {} is {}, outside the {} classes [0, {}]",
                            labels_path, i, lb.values[i], num_classes, num_classes - 1));
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
            throw DatasetError(
                fmt::format("Fashion-MNIST: {} not found; install it with `apt-get install "
                            "dataset-fashion-mnist` (or pass the folder that holds it)",
                            p));
    ImageSet s = read_image_set(images, labels, std::size(kFashionMnistClasses));
    if (s.images.size(2) != 28 || s.images.size(3) != 28)
        throw DatasetError(fmt::format("Fashion-MNIST: {} holds images of {} x {} pixels; Fashion-MNIST's are 28 x 28",
                                       images, s.images.size(2), s.images.size(3)));
    return s;
}

}  // namespace data
