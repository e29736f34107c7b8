// The IDX reader on small files written here: good files read back exactly,
// each kind of corruption gets a clear error.
#include <sys/resource.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "check.h"
#include "lectern/data/image_batches.h"
#include "temp_files.h"

using namespace autograd;
namespace fs = std::filesystem;

namespace {

std::string header(std::uint8_t type, std::vector<std::uint32_t> dims) {
    std::string h = {0, 0, static_cast<char>(type), static_cast<char>(dims.size())};
    for (auto d : dims)
        for (int s = 24; s >= 0; s -= 8) h += static_cast<char>((d >> s) & 0xff);
    return h;
}

struct Files {
    testing::TempDir tmp{"idx"};
    fs::path dir = tmp.path;
    std::string plain(const std::string& name, const std::string& bytes) const {
        std::string p = (dir / name).string();
        std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return p;
    }
    std::string gz(const std::string& name, const std::string& bytes) const {
        std::string p = (dir / name).string();
        gzFile f = gzopen(p.c_str(), "wb");
        gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
        gzclose(f);
        return p;
    }
};

// 3 images of 2x2 and their labels.
std::string images_bytes() { return header(0x08, {3, 2, 2}) + std::string{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; }
std::string labels_bytes() { return header(0x08, {3}) + std::string{7, 0, 9}; }

}  // namespace

TEST_CASE("IDX files read back exactly, gzipped or plain", "[io]") {
    Files f;
    for (bool zipped : {true, false}) {
        auto write = [&](const std::string& n, const std::string& b) {
            return zipped ? f.gz(n + ".gz", b) : f.plain(n, b);
        };
        data::ImageSet s = data::read_image_set(write("im", images_bytes()), write("lb", labels_bytes()), 10);
        CHECK(s.images.shape() == Shape{3, 1, 2, 2});
        require_values(s.images, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        require_values(s.labels, {7, 0, 9});
    }
}

TEST_CASE("each kind of corrupt IDX file gets a clear error", "[io][errors]") {
    Files f;
    std::string lb = f.plain("lb", labels_bytes());
    auto fails = [&](const std::string& images, const std::string& what) {
        CHECK_THROWS_WITH(data::read_image_set(f.plain("bad", images), lb, 10), Catch::Contains(what));
    };
    fails(std::string{1, 0, 8, 3} + images_bytes().substr(4), "bad magic");
    fails(header(0x0D, {3, 2, 2}) + std::string(48, 0), "element type 0x0d");
    fails(images_bytes().substr(0, images_bytes().size() - 1),
          "is truncated: its dims [3, 2, 2] promise 12 bytes of data, it holds 11");
    fails(images_bytes() + "x", "has trailing data: more than the 12 bytes of data its dims [3, 2, 2] promise");
    fails(images_bytes().substr(0, 9), "truncated inside its header");
    fails(header(0x08, {2, 2, 2}) + std::string(8, 0), "holds 2 images but");
    fails(header(0x08, {12}) + std::string(12, 0), "expected [N, rows, cols]");
    CHECK_THROWS_WITH(data::read_idx((f.dir / "missing").string()), Catch::Contains("cannot open"));
    CHECK_THROWS_WITH(data::load_fashion_mnist(data::Split::test, (f.dir / "nowhere").string()),
                      Catch::Contains("apt-get install dataset-fashion-mnist"));
}

TEST_CASE("Fashion-MNIST's files are refused when their images are not 28 x 28", "[io][errors]") {
    Files f;
    f.gz("t10k-images-idx3-ubyte.gz", header(0x08, {1, 14, 14}) + std::string(14 * 14, 0));
    f.gz("t10k-labels-idx1-ubyte.gz", header(0x08, {1}) + std::string{3});
    CHECK_THROWS_WITH(data::load_fashion_mnist(data::Split::test, f.dir.string()),
                      Catch::Contains(
                          "t10k-images-idx3-ubyte.gz holds images of 14 x 14 pixels; Fashion-MNIST's are 28 x 28"));
    f.gz("t10k-images-idx3-ubyte.gz", header(0x08, {1, 28, 28}) + std::string(28 * 28, 0));
    CHECK(data::load_fashion_mnist(data::Split::test, f.dir.string()).images.shape() == Shape{1, 1, 28, 28});
}

TEST_CASE("image batches are normalised and reshuffled by a seeded generator", "[data]") {
    Files f;
    data::ImageSet s = data::read_image_set(f.plain("im", images_bytes()), f.plain("lb", labels_bytes()), 10);
    auto [mean, std] = data::pixel_statistics(s);
    CHECK(mean == Approx(6.5));
    data::ImageBatches batches(s, 2, mean, std, true, 3);
    CHECK(batches.batches_per_epoch() == 2);
    data::ImageBatch b;
    std::vector<double> labels;
    double total = 0;
    while (batches.next(b)) {
        for (double v : b.labels.to_vector()) labels.push_back(v);
        total += sum(b.images).item();
    }
    CHECK(total == Approx(0).margin(1e-5));  // normalised over the whole set
    std::sort(labels.begin(), labels.end());
    CHECK(labels == std::vector<double>{0, 7, 9});  // every image once per epoch
    data::ImageBatches again(s, 2, mean, std, true, 3);
    again.next(b);
    data::ImageBatches first(s, 2, mean, std, true, 3);
    data::ImageBatch c;
    first.next(c);
    CHECK(b.labels.to_vector() == c.labels.to_vector());  // same seed, same order
}

// ---- malformed files: each rejected with one line naming the file and the fault

namespace {

std::string idx_error(const std::string& path) {
    try {
        data::read_idx(path);
    } catch (const data::DatasetError& e) {
        return e.what();
    }
    return "(read without error)";
}

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

long peak_rss_kib() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

}  // namespace

TEST_CASE("IDX dims whose product overflows or exceeds the file are rejected before allocating", "[io][errors]") {
    Files f;
    // [2^22, 2^21, 2^21] = 2^64 elements: wrapped to 0 in size_t, then bad_alloc.
    std::string wrap = f.plain("wrap", header(0x08, {1u << 22, 1u << 21, 1u << 21}));
    CHECK(idx_error(wrap) ==
          fmt::format("read_idx: {} is corrupt: dims [4194304, 2097152, 2097152] multiply past int64", wrap));
    // No elements, but strides of 2^64: not a tensor that can be indexed.
    std::string empty_wide = f.plain("empty", header(0x08, {0, 0xffffffffu, 0xffffffffu}));
    CHECK(idx_error(empty_wide) ==
          fmt::format("read_idx: {} is corrupt: dims [0, 4294967295, 4294967295] multiply past int64", empty_wide));
    // 2^60 bytes promised: refused from the header, before any data is read.
    std::string huge = f.plain("huge", header(0x08, {1u << 20, 1u << 20, 1u << 20}));
    CHECK(idx_error(huge) == fmt::format("read_idx: {}'s dims [1048576, 1048576, 1048576] promise "
                                         "1152921504606846976 bytes of data, more than the 4294967296 it may hold",
                                         huge));
    // 1 MiB promised, none there: reported from what was read, nothing reserved up front.
    std::string empty = f.plain("empty-data", header(0x08, {1, 1024, 1024}));
    CHECK(idx_error(empty) == fmt::format("read_idx: {} is truncated: its dims [1, 1024, 1024] promise 1048576 bytes "
                                          "of data, it holds 0",
                                          empty));
}

TEST_CASE("a corrupt gzip stream is reported with zlib's message intact", "[io][errors]") {
    Files f;
    const std::string gz = bytes_of(f.gz("good.gz", images_bytes()));
    std::string crc = gz;
    crc[crc.size() - 8] ^= 0x01;  // the trailer's CRC-32 of the data
    std::string bad_crc = f.plain("crc.gz", crc);
    CHECK(idx_error(bad_crc) == fmt::format("read_idx: {} is corrupt: incorrect data check", bad_crc));
    std::string cut = f.plain("cut.gz", gz.substr(0, gz.size() - 6));
    CHECK(idx_error(cut) == fmt::format("read_idx: {} is corrupt: unexpected end of file", cut));
    std::string block = gz.substr(0, 10) + std::string(16, '\xff');  // a gzip header, then block type 3
    std::string bad_block = f.plain("block.gz", block);
    CHECK(idx_error(bad_block) == fmt::format("read_idx: {} is corrupt: invalid block type", bad_block));
}

TEST_CASE("IDX reading stops one byte past the data the header promises: gzip bombs, /dev/zero", "[io][errors]") {
    Files f;
    // A valid 1x2x2 file, then 4 GiB of zeros in 4096 gzip members of 1 MiB
    // (4 MiB on disk). The promised 4 bytes and one more are read; then
    // "trailing data". Inflating it all would raise the peak RSS by 4 GiB.
    std::string bomb = bytes_of(f.gz("head.gz", header(0x08, {1, 2, 2}) + std::string{1, 2, 3, 4}));
    const std::string zeros = bytes_of(f.gz("zeros.gz", std::string(std::size_t{1} << 20, '\0')));
    bomb.reserve(bomb.size() + 4096 * zeros.size());
    for (int i = 0; i < 4096; ++i) bomb += zeros;
    std::string path = f.plain("bomb.gz", bomb);
    const long before = peak_rss_kib();
    CHECK(
        idx_error(path) ==
        fmt::format("read_idx: {} has trailing data: more than the 4 bytes of data its dims [1, 2, 2] promise", path));
    CHECK(peak_rss_kib() - before < 64 * 1024);

    // A header promising 4 bytes, gzipped, with 3: truncated.
    std::string short_gz = f.gz("short.gz", header(0x08, {1, 2, 2}) + std::string{1, 2, 3});
    CHECK(idx_error(short_gz) ==
          fmt::format("read_idx: {} is truncated: its dims [1, 2, 2] promise 4 bytes of data, it holds 3", short_gz));

    // An endless stream of zeros is no file of a data set.
    if (fs::exists("/dev/zero")) CHECK(idx_error("/dev/zero") == "read_idx: cannot open /dev/zero: not a regular file");
}

TEST_CASE("an IDX path that is a FIFO or a folder is refused before it is opened", "[io][errors]") {
    // Opening a FIFO that no process writes would wait for a writer for ever.
    Files f;
    const std::string fifo = (f.dir / "train-images-idx3-ubyte.gz").string();
    CHECK(testing::from_a_fifo(fifo, idx_error) == fmt::format("read_idx: cannot open {}: not a regular file", fifo));
    CHECK(idx_error(f.dir.string()) == fmt::format("read_idx: cannot open {}: not a regular file", f.dir.string()));
}

TEST_CASE("a label outside the classes is rejected when its file is read, naming the file and the index",
          "[io][errors]") {
    Files f;
    std::string im = f.plain("im", images_bytes());
    std::string lb = f.plain("lb", header(0x08, {3}) + std::string{7, 10, 9});
    CHECK_THROWS_WITH(data::read_image_set(im, lb, 10),
                      fmt::format("read_image_set: {} is corrupt: label 1 is 10, outside the 10 classes [0, 9]", lb));
    std::string good = f.plain("good", labels_bytes());  // 7, 0, 9
    CHECK_THROWS_WITH(data::read_image_set(im, good, 8),
                      fmt::format("read_image_set: {} is corrupt: label 2 is 9, outside the 8 classes [0, 7]", good));
    CHECK_THROWS_AS(data::read_image_set(im, good, 0), ValueError);
    // Fashion-MNIST has 10 classes: a test label of 10 never reaches a
    // training step or the ViT example's 10x10 confusion matrix.
    f.gz("t10k-images-idx3-ubyte.gz", images_bytes());
    std::string fashion =
        f.gz("t10k-labels-idx1-ubyte.gz", header(0x08, {3}) + std::string{0, 9, static_cast<char>(200)});
    CHECK_THROWS_WITH(data::load_fashion_mnist(data::Split::test, f.dir.string()),
                      fmt::format("read_image_set: {} is corrupt: label 2 is 200, outside the 10 classes [0, 9]",
                                  fashion));
}

TEST_CASE("an image set whose headers disagree is refused before its data is decompressed", "[io][errors]") {
    Files f;
    // 4 GiB of zero images promised (and there, 4 MiB gzipped), beside 5 labels.
    std::string images = bytes_of(f.gz("im-head.gz", header(0x08, {16384, 512, 512})));
    const std::string zeros = bytes_of(f.gz("zeros.gz", std::string(std::size_t{1} << 20, '\0')));
    for (int i = 0; i < 4096; ++i) images += zeros;
    std::string im = f.plain("im.gz", images), lb = f.plain("lb", header(0x08, {5}) + std::string(5, '\1'));
    const long before = peak_rss_kib();
    CHECK_THROWS_WITH(data::read_image_set(im, lb, 10),
                      fmt::format("read_image_set: {} holds 16384 images but {} holds 5 labels", im, lb));
    CHECK(peak_rss_kib() - before < 64 * 1024);
    std::string none = f.plain("none", header(0x08, {0, 28, 28})), no_labels = f.plain("no-labels", header(0x08, {0}));
    CHECK_THROWS_WITH(data::read_image_set(none, no_labels, 10),
                      fmt::format("read_image_set: {} holds no images", none));
}
