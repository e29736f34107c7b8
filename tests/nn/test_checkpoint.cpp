// Checkpoints: bit-exact round trips; every kind of bad file gets its error and
// leaves the module unchanged.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "nn_check.h"
#include "nn/checkpoint.h"
#include "nn/feed_forward.h"
#include "nn/optim/adam.h"

using namespace autograd;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / fmt::format("lectern-ckpt-{}", ::getpid());
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string read_all(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_all(const std::string& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
std::vector<std::vector<double>> snapshot(const nn::Module& m) {
    std::vector<std::vector<double>> out;
    for (const auto& [name, p] : m.named_parameters()) out.push_back(p.to_vector());
    return out;
}
// The load fails with a message containing `what`, and the module is unchanged.
void require_rejected(const std::string& path, nn::Module& m, const std::string& what) {
    auto before = snapshot(m);
    CHECK_THROWS_WITH(nn::load_checkpoint(path, m), Catch::Contains(what));
    CHECK(snapshot(m) == before);
}

}  // namespace

TEST_CASE("a checkpoint round trip is bit-exact, with optimizer state and step", "[io]") {
    TempDir dir;
    for (Dtype dtype : {Dtype::float32, Dtype::float64}) {
        nn::FeedForward a(4, 8), b(4, 8);
        a.to(dtype);
        b.to(dtype);
        nn::optim::Adam opt_a(a.parameters()), opt_b(b.parameters());
        sum(a(ones({2, 4}, dtype))).backward();
        opt_a.step();
        nn::save_checkpoint(dir.file("ff.lckpt"), a, &opt_a);
        nn::load_checkpoint(dir.file("ff.lckpt"), b, &opt_b);
        CHECK(snapshot(b) == snapshot(a));
        CHECK(opt_b.step_count() == 1);
        auto sa = opt_a.named_state(), sb = opt_b.named_state();
        REQUIRE(sa.size() == sb.size());
        for (std::size_t i = 0; i < sa.size(); ++i) {
            CHECK(sa[i].first == sb[i].first);
            CHECK(sa[i].second.to_vector() == sb[i].second.to_vector());
        }
    }
}

TEST_CASE("saving replaces the previous checkpoint and leaves no temporary file", "[io]") {
    TempDir dir;
    nn::FeedForward a(2, 3), b(2, 3);
    std::string path = dir.file("m.lckpt");
    nn::save_checkpoint(path, a);
    nn::save_checkpoint(path, b);
    CHECK_FALSE(fs::exists(path + ".tmp"));
    nn::FeedForward c(2, 3);
    nn::load_checkpoint(path, c);
    CHECK(snapshot(c) == snapshot(b));
    CHECK_THROWS_AS(nn::save_checkpoint(dir.file("no/such/dir/m.lckpt"), a), nn::CheckpointError);
}

TEST_CASE("each kind of bad checkpoint gets its error and leaves the module unchanged", "[io][errors]") {
    TempDir dir;
    nn::FeedForward source(4, 8), target(4, 8);
    std::string good = dir.file("good.lckpt"), bad = dir.file("bad.lckpt");
    nn::save_checkpoint(good, source);
    std::string bytes = read_all(good);

    require_rejected(dir.file("missing.lckpt"), target, "cannot open");

    for (std::size_t cut : {std::size_t{3}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
        write_all(bad, bytes.substr(0, cut));
        require_rejected(bad, target, cut < 8 ? "wrong magic" : "truncated");
    }

    std::string flipped = bytes;
    flipped[bytes.size() - 40] ^= 0x10;  // inside the last tensor's data
    write_all(bad, flipped);
    require_rejected(bad, target, "checksum mismatch");

    std::string magic = bytes;
    magic[0] = 'X';
    write_all(bad, magic);
    require_rejected(bad, target, "wrong magic");

    std::string version = bytes;
    version[8] = 2;
    write_all(bad, version);
    require_rejected(bad, target, "format version 2");

    nn::FeedForward wider(4, 9);
    nn::save_checkpoint(bad, wider);
    require_rejected(bad, target, "parameter 'w_1.weight' is [9, 4]");

    nn::Linear only_linear(4, 8);
    nn::save_checkpoint(bad, only_linear);
    require_rejected(bad, target, "has no parameter 'w_1.weight'");

    struct Plus : nn::FeedForward {
        Plus() : nn::FeedForward(4, 8) { register_parameter("extra", ones({1})); }
    } plus;
    nn::save_checkpoint(bad, plus);
    require_rejected(bad, target, "unexpected parameter 'extra'");

    nn::FeedForward as64(4, 8);
    as64.to(Dtype::float64);
    nn::save_checkpoint(bad, as64);
    require_rejected(bad, target, "is float64");

    nn::optim::Adam opt(target.parameters());
    CHECK_THROWS_WITH(nn::load_checkpoint(good, target, &opt), Catch::Contains("holds no optimizer state"));
}
