// safetensors: what Lectern writes it reads back, and every malformed field is
// a one-line SafetensorsError naming the tensor, never a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <vector>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "lectern/nn/linear.h"
#include "lectern/nn/safetensors.h"
#include "temp_files.h"

using namespace autograd;

namespace {

// A file in this process's own folder, removed with it at exit.
std::string scratch(const std::string& name) {
    static const testing::TempDir dir("safetensors");
    return dir.file(name);
}

// A file of `header` (JSON) and `data` bytes, the length field as the format says.
std::string file_of(const std::string& name, const std::string& header, const std::string& data,
                    std::uint64_t length_field = UINT64_MAX) {
    std::uint64_t n = length_field == UINT64_MAX ? header.size() : length_field;
    std::string bytes(8, '\0');
    std::memcpy(bytes.data(), &n, 8);
    std::ofstream(scratch(name), std::ios::binary) << bytes << header << data;
    return scratch(name);
}

std::string message_of(const std::string& path) {
    try {
        nn::read_safetensors(path);
    } catch (const nn::SafetensorsError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("safetensors written by Lectern read back bit for bit, header aligned to 8 bytes", "[io]") {
    Generator gen(3);
    std::map<std::string, Tensor> tensors = {{"b.weight", uniform({3, 4}, -1, 1, gen)},
                                             {"a", uniform({5}, -1, 1, gen, Dtype::float64)},
                                             {"empty", zeros({0, 3})}};
    const std::string path = scratch("roundtrip");
    nn::write_safetensors(path, tensors);
    std::ifstream in(path, std::ios::binary);
    std::uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), 8);
    CHECK(n % 8 == 0);
    CHECK(nn::SafetensorsFile(path).entries().at("b.weight").dtype == "F32");
    CHECK(nn::SafetensorsFile(path).entries().at("a").dtype == "F64");
    auto back = nn::read_safetensors(path, Dtype::float64);
    REQUIRE(back.size() == 3);
    CHECK(back.at("empty").shape() == Shape{0, 3});
    for (int i = 0; i < 12; ++i)
        CHECK(back.at("b.weight").data<double>()[i] == tensors.at("b.weight").data<float>()[i]);
    for (int i = 0; i < 5; ++i) CHECK(back.at("a").data<double>()[i] == tensors.at("a").data<double>()[i]);
    std::filesystem::remove(path);
}

namespace {

// The file's bytes: path's whole contents.
std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("write_safetensors lays out the bytes as the format says, checked against a file built by hand", "[io]") {
    // b: float32 [2] = {1, -2}, a: float64 [] = 0.5. The format asks for no order; Lectern's
    // is the names' (a before b). The header is 107 bytes of JSON, padded with 5 spaces to 112,
    // a multiple of 8, so the data that follows starts 8-byte aligned.
    const std::string path = scratch("layout");
    nn::write_safetensors(path, {{"b", tensor({1, -2})}, {"a", full({}, 0.5, Dtype::float64)}});
    const std::string header =
        R"({"a":{"dtype":"F64","shape":[],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})";
    REQUIRE(header.size() == 107);
    const std::string expected = std::string("\x70\0\0\0\0\0\0\0", 8)      // 112, u64 little-endian
                                 + header + "     "                        // padded to 112
                                 + std::string("\0\0\0\0\0\0\xe0\x3f", 8)  // 0.5 as f64: 0x3fe0000000000000
                                 + std::string("\0\0\x80\x3f", 4)          // 1.0f: 0x3f800000
                                 + std::string("\0\0\0\xc0", 4);           // -2.0f: 0xc0000000
    CHECK(bytes_of(path) == expected);
}

namespace {

// The data bytes of a file of one tensor whose header (unpadded) is `header`, as u16 words.
std::vector<std::uint16_t> half_words(const std::string& path, const std::string& header) {
    const std::string bytes = bytes_of(path);
    const std::size_t padded = (header.size() + 7) / 8 * 8;
    REQUIRE(bytes.substr(8, header.size()) == header);
    std::vector<std::uint16_t> words((bytes.size() - 8 - padded) / 2);
    std::memcpy(words.data(), bytes.data() + 8 + padded, words.size() * 2);
    return words;
}

}  // namespace

TEST_CASE("write_safetensors stores F16 and BF16 rounded to nearest even, and reads them back", "[io]") {
    // Each half worked by hand (IEEE half: 5 exponent bits, bias 15, 10 fraction bits):
    //   1 = 0x3c00, -2 = 0xc000, 65504 (the largest) = 0x7bff, 65520 (halfway to 65536) ties to
    //   even: infinity 0x7c00; 1 + 2^-11 is half an ulp above 1: even, 0x3c00; 1 + 3 2^-11 is
    //   1.5 ulps: even, 0x3c02; 2^-24 the smallest subnormal 0x0001, 1.5 2^-24 ties to 0x0002;
    //   1/3 = 0x3555; -1e-9 underflows to -0, 0x8000; 70000 past the largest: 0x7c00.
    const std::vector<double> v = {1,       -2,          65504,   65520, 1 + 0x1p-11, 1 + 3 * 0x1p-11,
                                   0x1p-24, 3 * 0x1p-25, 1.0 / 3, -1e-9, 70000};
    const std::string f16 = scratch("f16");
    nn::write_safetensors(f16, {{"h", tensor(v)}}, nn::SafetensorsStore::f16);
    CHECK(half_words(f16, R"({"h":{"dtype":"F16","shape":[11],"data_offsets":[0,22]}})") ==
          std::vector<std::uint16_t>{0x3c00, 0xc000, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001, 0x0002, 0x3555, 0x8000,
                                     0x7c00});
    const std::vector<double> back = nn::read_safetensors(f16).at("h").to_vector();
    CHECK(back[2] == 65504);
    CHECK(back[5] == 1 + 0x1p-9);
    CHECK(back[8] == 0x1.554p-2);  // 1/3 to 11 significant bits
    CHECK(std::isinf(back[3]));

    // bfloat16, float32's upper half rounded: 1 = 0x3f80, -2 = 0xc000, 1 + 2^-8 ties to even
    // 0x3f80, 1 + 3 2^-8 to 0x3f82; 1/3 = 0x3eaaaaab drops 0xaaab, above half: 0x3eab; 3e38 =
    // 0x7f61b1e6 to 0x7f62; 1e-40 (a float32 subnormal, 0x000116c2) to 0x0001. From float64
    // too: the tensor is rounded to float32 first.
    const std::vector<double> w = {1, -2, 1 + 0x1p-8, 1 + 3 * 0x1p-8, 1.0 / 3, 3e38, 1e-40};
    const std::string bf16 = scratch("bf16");
    nn::write_safetensors(bf16, {{"w", tensor(w, Dtype::float64)}}, nn::SafetensorsStore::bf16);
    CHECK(half_words(bf16, R"({"w":{"dtype":"BF16","shape":[7],"data_offsets":[0,14]}})") ==
          std::vector<std::uint16_t>{0x3f80, 0xc000, 0x3f80, 0x3f82, 0x3eab, 0x7f62, 0x0001});
    CHECK(nn::read_safetensors(bf16).at("w").to_vector()[3] == 1.015625);
}

TEST_CASE("a model's state_dict saved as BF16 loads back into the model, each weight to 8 bits", "[io]") {
    // docs/library.md's "Saving tensors": torch.save of a dict, in half precision
    nn::Linear model(4, 3);
    const std::string path = scratch("state_bf16");
    nn::write_safetensors(path, model.state_dict(), nn::SafetensorsStore::bf16);
    nn::Linear other(4, 3);
    other.load_state_dict(nn::read_safetensors(path));
    const std::vector<double> w = model.weight.to_vector(), back = other.weight.to_vector();
    for (std::size_t i = 0; i < w.size(); ++i) CHECK(std::abs(back[i] - w[i]) <= std::abs(w[i]) * 0x1p-8);
}

TEST_CASE("a malformed safetensors file gets one line naming the tensor", "[io][errors]") {
    const std::string ok = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    const std::string eight(8, '\0');
    CHECK_NOTHROW(nn::read_safetensors(file_of("ok", ok, eight)));
    CHECK_THAT(message_of(file_of("empty_header", "", "", 0)), Catch::Contains("not JSON"));
    {
        std::ofstream(scratch("tiny"), std::ios::binary) << "abc";
        CHECK_THAT(message_of(scratch("tiny")), Catch::Contains("truncated: 3 bytes"));
    }
    CHECK_THAT(message_of(file_of("huge_header", ok, eight, 1ull << 40)), Catch::Contains("the header is too large"));
    CHECK_THAT(message_of(file_of("long_header", ok, eight, ok.size() + 9)),
               Catch::Contains("is truncated: the header needs"));
    CHECK_THAT(message_of(file_of("json", "{\"w\":", eight)), Catch::Contains("not JSON"));
    // Found by fuzz_safetensors: the JSON parser's message quotes the bytes it read, control bytes included.
    const std::string control = message_of(file_of("control", "{\"w\":[2,\x7f]}", eight));
    CHECK_THAT(control, Catch::Contains("not JSON") && Catch::Contains("\\x7f"));
    CHECK(std::none_of(control.begin(), control.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }));
    CHECK_THAT(message_of(file_of("dtype", R"({"w":{"dtype":"I8","shape":[8],"data_offsets":[0,8]}})", eight)),
               Catch::Contains("tensor 'w': dtype \"I8\" is not one of"));
    CHECK_THAT(message_of(file_of("shape", R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", eight)),
               Catch::Contains("tensor 'w': F32 [3] needs 12 bytes"));
    CHECK_THAT(message_of(file_of("negative", R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", eight)),
               Catch::Contains("tensor 'w': shape [-2] holds a size"));
    CHECK_THAT(message_of(file_of("overflow",
                                  R"({"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
                                  eight)),
               Catch::Contains("tensor 'w': shape [4294967296,4294967296] overflows"));
    CHECK_THAT(message_of(file_of("past_end", R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", eight)),
               Catch::Contains("tensor 'w': data_offsets [0, 16] fall outside the 8 bytes"));
    CHECK_THAT(message_of(file_of("overlap",
                                  R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                  R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                  eight)),
               Catch::Contains("tensor 'b': data_offsets start at 4") && Catch::Contains("overlap"));
    CHECK_THAT(message_of(file_of("gap", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", eight)),
               Catch::Contains("tensor 'w'") && Catch::Contains("a gap"));
    CHECK_THAT(message_of(file_of("oversized", ok, eight + "junk")),
               Catch::Contains("4 bytes of data follow the last tensor"));
    CHECK_THAT(message_of(file_of("offsets", R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0]}})", eight)),
               Catch::Contains("tensor 'w': data_offsets must be [begin, end]"));
    CHECK_THAT(message_of(scratch("missing_file")), Catch::Contains("cannot open"));
}

TEST_CASE("a safetensors path that is a FIFO, a folder or a device is refused before it is opened", "[io][errors]") {
    // Opening a FIFO that no process writes would wait for a writer for ever.
    const std::string fifo = scratch("fifo.safetensors");
    if (testing::kFifosExist)
        CHECK(testing::from_a_fifo(fifo, message_of) == "safetensors: cannot open " + fifo + ": not a regular file");
    const std::string folder = scratch("folder.safetensors");
    std::filesystem::create_directory(folder);
    CHECK(message_of(folder) == "safetensors: cannot open " + folder + ": not a regular file");
    if (std::filesystem::exists("/dev/zero"))
        CHECK(message_of("/dev/zero") == "safetensors: cannot open /dev/zero: not a regular file");
}

TEST_CASE("a safetensors header too large, too deep or naming a key twice is refused before it is parsed whole",
          "[io][errors]") {
    const std::string eight(8, '\0');
    // A real header is at most a few hundred KB (GPT-2 1558M's: 60 KB); 8 MB is the most read.
    const std::string limit = std::to_string(8u << 20);
    CHECK(message_of(file_of("over_limit", "", eight, (8u << 20) + 1)) ==
          "safetensors: " + scratch("over_limit") + ": the header is too large: 8388609 bytes, more than the " + limit +
              " this reader allows");
    // 8 MB of '[' would take gigabytes in a parser that kept every level; the format nests 3 deep.
    CHECK(message_of(file_of("brackets", std::string(8u << 20, '['), "")) ==
          "safetensors: " + scratch("brackets") + ": the header nests deeper than 3 levels");
    CHECK(message_of(file_of("shape_in_shape", R"({"w":{"dtype":"F32","shape":[[2]],"data_offsets":[0,8]}})", eight)) ==
          "safetensors: " + scratch("shape_in_shape") + ": the header nests deeper than 3 levels");
    // A tensor named twice would be read as whichever the parser kept.
    CHECK(message_of(file_of("twice",
                             R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                             R"("w":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}})",
                             eight)) ==
          "safetensors: " + scratch("twice") + ": the header names the key \"w\" twice in one object");
    CHECK_THAT(message_of(file_of("field_twice",
                                  R"({"w":{"dtype":"F32","shape":[2],"shape":[1],"data_offsets":[0,8]}})", eight)),
               Catch::EndsWith("the header names the key \"shape\" twice in one object"));
    // One key in several objects is no repetition.
    CHECK(message_of(file_of("two_tensors",
                             R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                             R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                             eight)) == "(no error)");
}
