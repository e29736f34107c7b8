// A message that misled, and GPT-2's tokenizer files as a
// partial download leaves them. A merges.txt cut short or empty beside a
// whole vocab.json was accepted, and every prompt became other tokens than the
// model knows; one entry missing from vocab.json was reported as an
// out-of-range <|endoftext|>. Each is refused naming the short file.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "lectern/data/byte_pair_encoding.h"
#include "lectern/data/idx.h"  // DatasetError
#include "temp_files.h"

using data::BytePairEncoding;

namespace {

const std::string kDir = LECTERN_GPT2_TOKENIZER_DIR;

// GPT-2's files in `dir` as Hugging Face names them, merges.txt cut to its first `bytes` bytes.
void copy_tokenizer(const std::filesystem::path& dir, std::size_t bytes) {
    testing::write_all((dir / "vocab.json").string(), testing::read_all(kDir + "/encoder.json"));
    testing::write_all((dir / "merges.txt").string(), testing::read_all(kDir + "/vocab.bpe").substr(0, bytes));
}

}  // namespace

TEST_CASE("a merges.txt cut short or empty beside a whole vocab.json is refused, naming it",
          "[data][errors][hostile]") {
    const testing::TempDir temp("hostile-merges");
    const std::string merges = (temp.path / "merges.txt").string();
    const std::size_t whole = testing::read_all(kDir + "/vocab.bpe").size();
    copy_tokenizer(temp.path, whole);
    CHECK(BytePairEncoding::from_directory(temp.path).vocab_size() == 50257);  // the whole files load
    // half the merges: cut at a line's end, as a download stops anywhere
    const std::string half = testing::read_all(kDir + "/vocab.bpe").substr(0, whole / 2);
    copy_tokenizer(temp.path, half.rfind('\n') + 1);
    CHECK_THROWS_WITH(BytePairEncoding::from_directory(temp.path),
                      Catch::Contains("tokenizer: " + merges + " is short: its ") && Catch::Contains("merges make") &&
                          Catch::Contains("none makes token"));
    copy_tokenizer(temp.path, std::string("#version: 0.2\n").size());  // the version line alone
    CHECK_THROWS_WITH(BytePairEncoding::from_directory(temp.path),
                      Catch::Contains(merges + " is short: its 0 merges make 0 tokens of the 50257"));
    copy_tokenizer(temp.path, 0);  // empty
    CHECK_THROWS_AS(BytePairEncoding::from_directory(temp.path), data::DatasetError);
}

TEST_CASE("one entry missing from vocab.json is named as the gap it leaves", "[data][errors][hostile]") {
    const testing::TempDir temp("hostile-vocab");
    copy_tokenizer(temp.path, testing::read_all(kDir + "/vocab.bpe").size());
    nlohmann::ordered_json vocab = nlohmann::ordered_json::parse(testing::read_all(kDir + "/encoder.json"));
    for (auto it = vocab.begin(); it != vocab.end(); ++it)
        if (it.value() == 300) {
            vocab.erase(it);
            break;
        }
    testing::write_all((temp.path / "vocab.json").string(), vocab.dump());
    CHECK_THROWS_WITH(BytePairEncoding::from_directory(temp.path),
                      Catch::Contains(
                          "vocab.json: no token has id 300, yet the ids run to 50256: an entry is missing"));
}
