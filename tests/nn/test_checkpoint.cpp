// Checkpoints: bit-exact round trips; every kind of bad file gets its error and
// leaves the module unchanged.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "check.h"
#include "temp_files.h"
#include "lectern/nn/batch_norm.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/checkpoint_checksum.h"
#include "lectern/nn/checkpoint_format.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/output_file.h"

using namespace autograd;
namespace fs = std::filesystem;

namespace {

struct TempDir : testing::TempDir {
    TempDir() : testing::TempDir("ckpt") {}
};
using testing::read_all;
using testing::write_all;

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
    CHECK_FALSE(fs::exists(fmt::format("{}.tmp.{}", path, ::getpid())));
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
    version[8] = 7;
    write_all(bad, version);
    require_rejected(bad, target, "format version 7; this build reads versions 1 to 6");

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

// ---- malformed files and hostile folders

namespace {

// A checkpoint written byte by byte and sealed with the checksum the writer
// computes (zlib's CRC-32 of everything between the magic and the checksum), so
// that the loader must catch the fault in the records themselves.
struct Crafted {
    std::string bytes{"LECTERN\0", 8};
    explicit Crafted(std::uint32_t records, std::uint32_t version = 1, std::uint32_t flags = 0, std::int64_t step = 0) {
        put<std::uint32_t>(version);
        put<std::uint32_t>(flags);  // bit 0: optimizer state
        put<std::int64_t>(step);
        put<std::uint32_t>(records);
    }
    template <class T>
    Crafted& put(T v) {
        bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
        return *this;
    }
    Crafted& put_bytes(const std::string& b) {
        bytes += b;
        return *this;
    }
    // A parameter record's header; `dtype` 1 is float64. Its data is appended by the caller.
    Crafted& record(const std::string& name, std::uint8_t dtype, const std::vector<std::int64_t>& dims,
                    std::uint8_t kind = 0) {  // kind 1: optimizer state
        put<std::uint8_t>(kind);
        put<std::uint32_t>(static_cast<std::uint32_t>(name.size()));
        bytes += name;
        put<std::uint8_t>(dtype);
        put<std::uint32_t>(static_cast<std::uint32_t>(dims.size()));
        for (auto d : dims) put<std::int64_t>(d);
        return *this;
    }
    std::string sealed() const {
        const std::uint32_t crc = nn::checkpoint_format::crc_of(bytes, 8, bytes.size());
        return bytes + std::string(reinterpret_cast<const char*>(&crc), sizeof crc);
    }
};

std::string load_error(const std::string& path, nn::Module& m) {
    auto before = snapshot(m);
    std::string what = "(loaded without error)";
    try {
        nn::load_checkpoint(path, m);
    } catch (const nn::CheckpointError& e) {
        what = e.what();
    }
    CHECK(snapshot(m) == before);
    return what;
}

std::vector<std::string> listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("record sizes from a file are checked for overflow before any allocation", "[io][errors]") {
    TempDir dir;
    nn::Linear m(2, 2);
    std::string path = dir.file("crafted.lckpt");

    // The fuzzer's 138-byte file: 2^61 - 2 float64s, whose byte count wraps to
    // 2^64 - 16, and a valid checksum. It crashed in malloc.
    write_all(
        path,
        Crafted(1).record("src_embed.weight", 1, {2186255, 1054699936290}).put_bytes(std::string(64, '\0')).sealed());
    REQUIRE(fs::file_size(path) == 138);
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is truncated: 'src_embed.weight' of shape [2186255, 1054699936290] needs "
                      "2305843009213693950 float64 elements at offset 70, 64 bytes remain",
                      path));

    // Sizes whose product overflows int64 (numel), with and without elements.
    write_all(path, Crafted(1).record("w", 0, {std::int64_t{1} << 32, std::int64_t{1} << 32}).sealed());
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is corrupted: 'w' has shape [4294967296, 4294967296], too large to index",
                      path));
    write_all(path, Crafted(1).record("w", 0, {0, std::int64_t{1} << 40, std::int64_t{1} << 40}).sealed());
    CHECK(load_error(path, m) ==
          fmt::format(
              "load_checkpoint: {} is corrupted: 'w' has shape [0, 1099511627776, 1099511627776], too large to index",
              path));
    write_all(path, Crafted(1).record("w", 0, {2, -2}).sealed());
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is corrupted: 'w' has shape [2, -2] with a negative size", path));

    // A record count that cannot fit is refused before reserving for it.
    write_all(path, Crafted(0xffffffffu).sealed());
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is corrupted: 4294967295 records cannot fit in the 0 bytes that remain",
                      path));

    // A name length past the end.
    write_all(path, Crafted(1).put<std::uint8_t>(0).put<std::uint32_t>(0xfffffff0u).put_bytes("short name").sealed());
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is truncated: a name needs 4294967280 bytes at offset 33, 10 remain", path));
}

TEST_CASE("names from a corrupt file are printed escaped and truncated", "[io][errors]") {
    TempDir dir;
    nn::Linear m(2, 2);
    std::string path = dir.file("names.lckpt");
    // A NUL cut the message off mid-quote; an escape sequence reached the terminal.
    write_all(path, Crafted(1).record(std::string("src_embed\0.weight\x1b[2J\\", 22), 9, {}).sealed());
    CHECK(load_error(path, m) ==
          fmt::format("load_checkpoint: {} is corrupted: 'src_embed\\x00.weight\\x1b[2J\\x5c' has dtype code 9", path));
    write_all(path, Crafted(1).record(std::string(300, 'n'), 9, {}).sealed());
    CHECK(load_error(path, m) == fmt::format("load_checkpoint: {} is corrupted: '{}... (300 bytes)' has dtype code 9",
                                             path, std::string(64, 'n')));
    // Past the checksum too: an unexpected parameter's name.
    struct Bell : nn::Linear {
        Bell() : nn::Linear(2, 2) { register_parameter("bell\a", ones({1})); }
    } bell;
    nn::save_checkpoint(path, bell);
    CHECK(load_error(path, m) == fmt::format("load_checkpoint: {} has unexpected parameter 'bell\\x07'", path));
}

TEST_CASE("saving never follows or overwrites a file planted at the temporary name", "[io][errors]") {
    TempDir dir;
    nn::FeedForward a(2, 3), b(2, 3);
    std::string path = dir.file("m.lckpt"), victim = dir.file("victim");
    const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    write_all(victim, "precious");
    // A link to another file at the temporary name: neither followed nor removed.
    fs::create_symlink(victim, tmp);
    nn::save_checkpoint(path, a);
    CHECK(read_all(victim) == "precious");
    CHECK(fs::is_symlink(tmp));  // left as it was, not ours to remove
    nn::FeedForward c(2, 3);
    nn::load_checkpoint(path, c);
    CHECK(snapshot(c) == snapshot(a));
    // A hard link is an ordinary file: O_EXCL keeps it from being truncated, and
    // only its name is removed as a stale temporary file.
    fs::remove(tmp);
    fs::create_hard_link(victim, tmp);
    nn::save_checkpoint(path, b);
    CHECK(read_all(victim) == "precious");
    nn::load_checkpoint(path, c);
    CHECK(snapshot(c) == snapshot(b));
    CHECK(listing(dir.path) == std::vector<std::string>{"m.lckpt", "victim"});
}

TEST_CASE("a save removes the temporary files of earlier saves that were killed", "[io]") {
    TempDir dir;
    nn::FeedForward a(2, 3);
    std::string path = dir.file("m.lckpt");
    // pid 2^22 + 1 is above Linux's largest pid: no process has it.
    for (const std::string& stale : {path + ".tmp.4194305", path + ".tmp.4194305.0badcafe"}) write_all(stale, "half");
    write_all(fmt::format("{}.tmp.{}", path, ::getppid()), "a save in progress");  // a live process's
    write_all(path + ".tmp.12x", "not a temporary name of ours");
    CHECK(nn::stale_temporaries(path).size() == 2);
    nn::save_checkpoint(path, a);
    std::vector<std::string> left{"m.lckpt", fmt::format("m.lckpt.tmp.{}", ::getppid()), "m.lckpt.tmp.12x"};
    std::sort(left.begin(), left.end());
    CHECK(listing(dir.path) == left);
}

TEST_CASE("a device or a FIFO at the path is never replaced by a checkpoint", "[io][errors]") {
    TempDir dir;
    nn::FeedForward a(2, 3);
    std::string fifo = dir.file("fifo");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(nn::save_checkpoint(fifo, a), Catch::Contains(fifo + " exists and is not a regular file"));
    CHECK(fs::is_fifo(fifo));
    // A character device of our own, as /dev/null is (the real one is never put at risk by a test).
    std::string device = dir.file("null");
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        CHECK_THROWS_WITH(nn::save_checkpoint(device, a),
                          Catch::Contains(device + " exists and is not a regular file"));
        CHECK(fs::is_character_file(device));
    }
    std::vector<std::string> left = listing(dir.path);
    CHECK(std::count_if(left.begin(), left.end(),
                        [](const std::string& n) { return n.find(".tmp.") != std::string::npos; }) == 0);
}

TEST_CASE("a failed save leaves the previous checkpoint intact and no temporary file", "[io][errors]") {
    TempDir dir;
    nn::FeedForward small(2, 3), large(64, 256);
    std::string path = dir.file("m.lckpt");
    nn::save_checkpoint(path, small);
    const std::string before = read_all(path);

    // The disk "fills" after 4 KiB: write() fails with EFBIG mid-file.
    std::string what;
    testing::with_file_limit(4096, [&] {
        try {
            nn::save_checkpoint(path, large);
        } catch (const nn::CheckpointError& e) {
            what = e.what();
        }
    });
    CHECK(what == fmt::format("save_checkpoint: writing {}.tmp.{} failed: {}", path, ::getpid(), std::strerror(EFBIG)));
    CHECK(read_all(path) == before);
    CHECK(listing(dir.path) == std::vector<std::string>{"m.lckpt"});

    // A folder holds the name: nothing replaces it, and the temporary file is removed.
    std::string folder = dir.file("taken");
    fs::create_directories(folder + "/inside");
    CHECK_THROWS_WITH(nn::save_checkpoint(folder, small),
                      Catch::Contains(folder + " exists and is not a regular file"));
    CHECK(listing(dir.path) == std::vector<std::string>{"m.lckpt", "taken"});
}

// ---- per-parameter step counts (format version 2)

TEST_CASE("a version 1 checkpoint loads, every parameter with state taking the file's step count", "[io]") {
    TempDir dir;
    nn::Linear lin(1, 1, false);  // one parameter, "weight" [1, 1]
    auto f32 = [](float v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); };
    Crafted v1(3, /*version=*/1, /*flags=*/1, /*step=*/5);
    v1.record("weight", 0, {1, 1}).put_bytes(f32(0.5f));
    v1.record("exp_avg.0", 0, {1, 1}, 1).put_bytes(f32(0.1f));
    v1.record("exp_avg_sq.0", 0, {1, 1}, 1).put_bytes(f32(0.01f));
    write_all(dir.file("v1.lckpt"), v1.sealed());
    nn::optim::Adam opt(lin.parameters());
    nn::load_checkpoint(dir.file("v1.lckpt"), lin, &opt);
    CHECK(opt.step_count() == 5);
    CHECK(opt.param_step_count(0) == 5);
    CHECK(lin.weight.item() == 0.5);
}

TEST_CASE("per-parameter step counts survive a checkpoint: resumed training equals uninterrupted training", "[io]") {
    TempDir dir;
    // Two runs of Adam over a Linear whose bias only gets gradients from step 3.
    auto step = [](nn::Linear& lin, nn::optim::Adam& opt, int s) {
        opt.zero_grad();
        sum(lin(ones({2, 3}))).backward();
        if (s < 3) lin.bias.zero_grad();  // before step 3 the bias has no gradient
        opt.step();
    };
    nn::Linear a(3, 2), b(3, 2);
    nn::optim::Adam opt_a(a.parameters(), {.lr = 0.1}), opt_b(b.parameters(), {.lr = 0.1});
    for (int s = 1; s <= 4; ++s) step(a, opt_a, s);
    nn::save_checkpoint(dir.file("mid.lckpt"), a, &opt_a);
    nn::load_checkpoint(dir.file("mid.lckpt"), b, &opt_b);
    CHECK(opt_b.param_step_count(0) == 4);  // weight
    CHECK(opt_b.param_step_count(1) == 2);  // bias: steps 3 and 4
    for (int s = 5; s <= 6; ++s) {
        step(a, opt_a, s);
        step(b, opt_b, s);
    }
    CHECK(snapshot(b) == snapshot(a));
}

// ---- the position table's new name (format version 3)

TEST_CASE("a version 2 checkpoint's 'position' table loads as 'position.weight'; a version 3 one must use the new name",
          "[io]") {
    // PatchEmbedding's E_pos was a parameter "position" before version 3; it is
    // now a LearnedPositionalEmbedding registered as "position".
    struct Holder : nn::Module {
        std::shared_ptr<nn::LearnedPositionalEmbedding> position;
        Holder() { position = register_module("position", std::make_shared<nn::LearnedPositionalEmbedding>(2, 1)); }
    };
    TempDir dir;
    auto f32 = [](float v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); };
    for (std::uint32_t version : {2u, 3u}) {
        Crafted file(1, version);
        file.record("position", 0, {2, 1}).put_bytes(f32(0.25f) + f32(-1.5f));
        const std::string path = dir.file(fmt::format("v{}.lckpt", version));
        write_all(path, file.sealed());
        Holder h;
        if (version == 2) {
            nn::load_checkpoint(path, h);
            CHECK(h.position->weight.to_vector() == std::vector<double>{0.25, -1.5});
        } else {
            CHECK_THROWS_WITH(nn::load_checkpoint(path, h), Catch::Contains("has no parameter 'position.weight'"));
        }
    }
}

// ---- run records (format version 4)

TEST_CASE("a run record round-trips: text (an alphabet) and tensors (a generator's state)", "[io]") {
    TempDir dir;
    nn::FeedForward a(2, 3), b(2, 3);
    std::string path = dir.file("m.lckpt");
    nn::RunRecord run;
    run.text["flag.--heads"] = "4";
    run.text["alphabet"] = std::string("\n ab\xc3\xa9\0z", 8);  // any bytes, a NUL included
    run.tensors["generator"] = autograd::tensor({1, -2, 3, 4, 0, 7}, {6}, Dtype::int64);
    run.tensors["curve"] = autograd::tensor({1, 0.5, 2, 0.25}, {2, 2}, Dtype::float64);
    nn::save_checkpoint(path, a, nullptr, &run);
    nn::RunRecord back;
    nn::load_checkpoint(path, b, nullptr, &back);
    CHECK(snapshot(b) == snapshot(a));
    CHECK(back.text == run.text);
    REQUIRE(back.tensors.size() == 2);
    CHECK(back.tensors.at("generator").to_vector() == run.tensors.at("generator").to_vector());
    CHECK(back.tensors.at("curve").shape() == Shape{2, 2});
    CHECK(nn::read_run_record(path).text == run.text);
    // Without a record: an empty one.
    nn::save_checkpoint(path, a);
    CHECK(nn::read_run_record(path).empty());
}

TEST_CASE("a run record says whether its file is of the current format version", "[io]") {
    TempDir dir;
    nn::Linear lin(1, 1, false);
    const std::string path = dir.file("m.lckpt");
    nn::save_checkpoint(path, lin);
    CHECK(nn::read_run_record(path).current_format);
    Crafted v3(1, 3);
    v3.record("weight", 0, {1, 1}).put<float>(0.5f);
    write_all(path, v3.sealed());
    CHECK_FALSE(nn::read_run_record(path).current_format);
    Crafted v4(2, 4);  // the bytes of version 5, written before some flags were recorded
    v4.record("weight", 0, {1, 1}).put<float>(0.5f);
    v4.record("flag.--heads", 3, {1}, 2).put_bytes("4");
    write_all(path, v4.sealed());
    const nn::RunRecord r4 = nn::read_run_record(path);
    CHECK(r4.text.at("flag.--heads") == "4");
    CHECK_FALSE(r4.current_format);
    Crafted v5(1, 5);  // version 6 added saved buffers, not flags: a version 5 record is complete
    v5.record("weight", 0, {1, 1}).put<float>(0.5f);
    write_all(path, v5.sealed());
    CHECK(nn::read_run_record(path).current_format);
    write_all(path, v3.sealed());
    nn::RunRecord run;
    nn::load_checkpoint(path, lin, nullptr, &run);
    CHECK_FALSE(run.current_format);
}

TEST_CASE("a checkpoint saves BatchNorm1d's running statistics as buffers and loads them back", "[io]") {
    TempDir dir;
    const std::string path = dir.file("bn.lckpt");
    nn::BatchNorm1d bn(3);
    autograd::Generator gen(2);
    bn(autograd::randn({8, 3}, gen));
    nn::save_checkpoint(path, bn);
    nn::BatchNorm1d fresh(3);
    nn::load_checkpoint(path, fresh);
    CHECK(fresh.running_mean.to_vector() == bn.running_mean.to_vector());
    CHECK(fresh.running_var.to_vector() == bn.running_var.to_vector());
    // A file without the buffers (a LayerNorm's: the same gamma and beta) is refused, naming one.
    nn::save_checkpoint(path, nn::LayerNorm(3));
    CHECK_THAT(load_error(path, fresh), Catch::Contains("has no buffer 'running_mean'"));
}

TEST_CASE("a saved buffer (kind 3) before version 6 is refused as a corrupted record", "[io][errors]") {
    TempDir dir;
    nn::Linear lin(1, 1, false);
    const std::string path = dir.file("m.lckpt");
    Crafted c(2, 5);
    c.record("weight", 0, {1, 1}).put<float>(0.5f);
    c.record("running_mean", 0, {1}, 3).put<float>(0.5f);
    write_all(path, c.sealed());
    CHECK_THAT(load_error(path, lin), Catch::Contains("record 1 has kind 3"));
}

TEST_CASE("a run record's faults are refused: text that is not rank 1, a name twice, a kind 2 record before version 4",
          "[io][errors]") {
    TempDir dir;
    nn::Linear lin(1, 1, false);
    std::string path = dir.file("m.lckpt");
    auto param = [](Crafted& c) { c.record("weight", 0, {1, 1}).put<float>(0.5f); };
    {
        Crafted c(2, 4);
        param(c);
        c.record("alphabet", 3, {2, 2}, 2).put_bytes("abcd");
        write_all(path, c.sealed());
        CHECK_THAT(load_error(path, lin), Catch::Contains("'alphabet' has 2 dims"));
    }
    {
        Crafted c(3, 4);
        param(c);
        c.record("alphabet", 3, {2}, 2).put_bytes("ab");
        c.record("alphabet", 3, {1}, 2).put_bytes("c");
        write_all(path, c.sealed());
        CHECK_THAT(load_error(path, lin), Catch::Contains("record 'alphabet' appears twice"));
    }
    {
        Crafted c(2, 3);
        param(c);
        c.record("alphabet", 3, {2}, 2).put_bytes("ab");
        write_all(path, c.sealed());
        CHECK_THAT(load_error(path, lin), Catch::Contains("record 1 has kind 2"));
    }
    {
        Crafted c(2, 4);
        param(c);
        c.record("weight2", 3, {2}, 0).put_bytes("ab");  // text is for run records only
        write_all(path, c.sealed());
        CHECK_THAT(load_error(path, lin), Catch::Contains("has dtype code 3"));
    }
    {
        Crafted c(2, 4);
        param(c);
        c.record("alphabet", 3, {1000}, 2).put_bytes("ab");
        write_all(path, c.sealed());
        CHECK_THAT(load_error(path, lin), Catch::Contains("truncated"));
    }
}
