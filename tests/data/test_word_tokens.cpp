// Words, as the bag-of-words baseline and the word-level text classifier read them.
#include "check.h"
#include "lectern/data/word_tokens.h"

using Words = std::vector<std::string>;
using Ids = std::vector<std::int64_t>;

TEST_CASE("words are lower-cased runs of letters and digits, apostrophes inside kept", "[data]") {
    CHECK(data::words("It's 2 o'clock!") == Words{"it's", "2", "o'clock"});
    CHECK(data::words("'Quoted' -- C++, \"UNIX\"\n\tv2.0") == Words{"quoted", "c", "unix", "v2", "0"});
    CHECK(data::words("caf\xC3\xA9 na\xC3\xAFve") == Words{"caf", "na", "ve"});  // bytes of other scripts separate
    CHECK(data::words("").empty());
    CHECK(data::words("... !? '").empty());
}

TEST_CASE("a word vocabulary counts the texts that hold a word, not its repeats", "[data]") {
    // "the": 3 texts; "cat": 2; "dog" 1 text (three times); "sat" 1.
    const data::WordVocabulary v({"The cat sat.", "the cat", "Dog dog dog the"}, 2);
    REQUIRE(v.size() == 2);
    CHECK(v.word(0) == "cat");  // alphabetical
    CHECK(v.word(1) == "the");
    CHECK(v.id("the") == 1);
    CHECK(v.id("dog") == -1);
    CHECK(v.encode("The dog saw the cat", 7) == Ids{1, 7, 7, 1, 0});  // unknown words are 7
    CHECK(v.encode("The dog saw the cat", -1) == Ids{1, 1, 0});       // or left out
    CHECK(v.bag("the cat, the THE dog") == Ids{0, 1});
    CHECK(data::WordVocabulary({"The cat sat.", "the cat", "Dog dog dog the"}, 1).size() == 4);
}
