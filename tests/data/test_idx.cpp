// The IDX reader on small files written here: good files read back exactly,
// each kind of corruption gets a clear error.
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "check.h"
#include "data/image_batches.h"

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
    fs::path dir = fs::temp_directory_path() / fmt::format("lectern-idx-{}", ::getpid());
    Files() { fs::create_directories(dir); }
    ~Files() { fs::remove_all(dir); }
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
        auto write = [&](const std::string& n, const std::string& b) { return zipped ? f.gz(n + ".gz", b) : f.plain(n, b); };
        data::ImageSet s = data::read_image_set(write("im", images_bytes()), write("lb", labels_bytes()));
        CHECK(s.images.shape() == Shape{3, 1, 2, 2});
        require_values(s.images, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        require_values(s.labels, {7, 0, 9});
    }
}

TEST_CASE("each kind of corrupt IDX file gets a clear error", "[io][errors]") {
    Files f;
    std::string lb = f.plain("lb", labels_bytes());
    auto fails = [&](const std::string& images, const std::string& what) {
        CHECK_THROWS_WITH(data::read_image_set(f.plain("bad", images), lb), Catch::Contains(what));
    };
    fails(std::string{1, 0, 8, 3} + images_bytes().substr(4), "bad magic");
    fails(header(0x0D, {3, 2, 2}) + std::string(48, 0), "element type 0x0d");
    fails(images_bytes().substr(0, images_bytes().size() - 1), "should hold 12 bytes of data");
    fails(images_bytes() + "x", "should hold 12 bytes of data");
    fails(images_bytes().substr(0, 9), "truncated inside its header");
    fails(header(0x08, {2, 2, 2}) + std::string(8, 0), "holds 2 images but");
    fails(header(0x08, {12}) + std::string(12, 0), "expected [N, rows, cols]");
    CHECK_THROWS_WITH(data::read_idx((f.dir / "missing").string()), Catch::Contains("cannot open"));
    CHECK_THROWS_WITH(data::load_fashion_mnist(data::Split::test, (f.dir / "nowhere").string()),
                      Catch::Contains("apt-get install dataset-fashion-mnist"));
}

TEST_CASE("image batches are normalised and reshuffled by a seeded generator", "[data]") {
    Files f;
    data::ImageSet s = data::read_image_set(f.plain("im", images_bytes()), f.plain("lb", labels_bytes()));
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
