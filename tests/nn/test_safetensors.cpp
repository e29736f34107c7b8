// safetensors: what Lectern writes it reads back, and every malformed field is
// a one-line SafetensorsError naming the tensor, never a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

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
    for (int i = 0; i < 12; ++i) CHECK(back.at("b.weight").data<double>()[i] == tensors.at("b.weight").data<float>()[i]);
    for (int i = 0; i < 5; ++i) CHECK(back.at("a").data<double>()[i] == tensors.at("a").data<double>()[i]);
    std::filesystem::remove(path);
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
    CHECK_THAT(message_of(file_of("long_header", ok, eight, ok.size() + 9)), Catch::Contains("is truncated: the header needs"));
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
    CHECK_THAT(message_of(file_of("overflow", R"({"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", eight)),
               Catch::Contains("tensor 'w': shape [4294967296,4294967296] overflows"));
    CHECK_THAT(message_of(file_of("past_end", R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", eight)),
               Catch::Contains("tensor 'w': data_offsets [0, 16] fall outside the 8 bytes"));
    CHECK_THAT(message_of(file_of("overlap", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                             R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", eight)),
               Catch::Contains("tensor 'b': data_offsets start at 4") && Catch::Contains("overlap"));
    CHECK_THAT(message_of(file_of("gap", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", eight)),
               Catch::Contains("tensor 'w'") && Catch::Contains("a gap"));
    CHECK_THAT(message_of(file_of("oversized", ok, eight + "junk")), Catch::Contains("4 bytes of data follow the last tensor"));
    CHECK_THAT(message_of(file_of("offsets", R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0]}})", eight)),
               Catch::Contains("tensor 'w': data_offsets must be [begin, end]"));
    CHECK_THAT(message_of(scratch("missing_file")), Catch::Contains("cannot open"));
}

TEST_CASE("a safetensors path that is a FIFO, a folder or a device is refused before it is opened", "[io][errors]") {
    // Opening a FIFO that no process writes would wait for a writer for ever.
    const std::string fifo = scratch("fifo.safetensors");
    if (testing::kFifosExist)
        CHECK(testing::from_a_fifo(fifo, message_of) == "safetensors: " + fifo + ": cannot open it: not a regular file");
    const std::string folder = scratch("folder.safetensors");
    std::filesystem::create_directory(folder);
    CHECK(message_of(folder) == "safetensors: " + folder + ": cannot open it: not a regular file");
    if (std::filesystem::exists("/dev/zero"))
        CHECK(message_of("/dev/zero") == "safetensors: /dev/zero: cannot open it: not a regular file");
}

TEST_CASE("a safetensors header too large, too deep or naming a key twice is refused before it is parsed whole", "[io][errors]") {
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
    CHECK(message_of(file_of("twice", R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                      R"("w":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}})", eight)) ==
          "safetensors: " + scratch("twice") + ": the header names the key \"w\" twice in one object");
    CHECK_THAT(message_of(file_of("field_twice", R"({"w":{"dtype":"F32","shape":[2],"shape":[1],"data_offsets":[0,8]}})", eight)),
               Catch::EndsWith("the header names the key \"shape\" twice in one object"));
    // One key in several objects is no repetition.
    CHECK(message_of(file_of("two_tensors", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                            R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", eight)) == "(no error)");
}
