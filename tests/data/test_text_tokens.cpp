// A language model's tokens: a text's characters, or subwords learnt from it.
#include "check.h"
#include "lectern/data/text_tokens.h"
#include "lectern/data/train_bpe.h"

using namespace autograd;

TEST_CASE("subword merges saved and rebuilt encode every text as the learnt ones do", "[data]") {
    const std::string corpus = "the cat sat on the mat; the hat sat on the cat. ";
    data::TextTokens learnt = data::TextTokens::subwords(data::train_bpe(corpus + corpus, 270));
    REQUIRE(learnt.is_subwords());
    REQUIRE(learnt.size() > 256);
    data::TextTokens rebuilt = data::TextTokens::from_saved(true, learnt.saved());
    CHECK(rebuilt.size() == learnt.size());
    for (const std::string& text : {std::string("the cat"), std::string("ünïcödé and \xff\xfe bytes"), corpus}) {
        INFO(text);
        CHECK(rebuilt.encode(text) == learnt.encode(text));
        CHECK(rebuilt.decode(rebuilt.encode(text)) == text);  // any bytes, invalid UTF-8 included
        CHECK(rebuilt.can_encode(text));
    }
    data::TokenIds ids = rebuilt.encode_text(corpus);
    CHECK(ids.size() == rebuilt.encode(corpus).size());
    CHECK(ids.size() < corpus.size());  // merged: fewer tokens than bytes
}

TEST_CASE("characters are the text's alphabet, saved and rebuilt; others cannot be encoded", "[data]") {
    data::TextTokens chars = data::TextTokens::characters(data::CharVocab::of_utf8("abcé a"));
    CHECK_FALSE(chars.is_subwords());
    CHECK(chars.size() == 5);  // ' ', 'a', 'b', 'c', 'é'
    data::TextTokens rebuilt = data::TextTokens::from_saved(false, chars.saved());
    CHECK(rebuilt.encode("cé b") == chars.encode("cé b"));
    CHECK(chars.decode(chars.encode("cé b")) == "cé b");
    CHECK_FALSE(chars.can_encode("abz"));
    CHECK_THROWS_AS(chars.encode("abz"), data::DatasetError);
    CHECK(chars.label(4) == "é");
}

TEST_CASE("a subword that is part of a character is labelled by its bytes", "[data]") {
    data::TextTokens bytes = data::TextTokens::subwords(data::train_bpe("", 256));  // the 256 bytes alone
    CHECK(bytes.label('a') == "a");
    CHECK(bytes.label(0xE2) == "\\xE2");
}

TEST_CASE("saved merges that are not pairs of earlier tokens are refused, naming the line", "[errors]") {
    CHECK_THROWS_WITH(data::TextTokens::from_saved(true, "97 98\n300 1\n"), Catch::Contains("line 2 \"300 1\""));
    CHECK_THROWS_WITH(data::TextTokens::from_saved(true, "97\n"), Catch::Contains("line 1"));
    CHECK_THROWS_WITH(data::TextTokens::from_saved(true, "97 98 99\n"), Catch::Contains("line 1"));
    CHECK_THROWS_AS(data::TextTokens::from_saved(false, "ba"), data::DatasetError);  // an alphabet must ascend
}
