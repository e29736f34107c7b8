// The verse-aligned corpus (data/verse_corpus.h): paired by reference, markup
// tidied, empty verses skipped and counted, held out by whole books.
#include "check.h"
#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/verse_corpus.h"

namespace {

std::vector<data::Verse> bible(const std::vector<std::string>& refs, const std::string& prefix) {
    std::vector<data::Verse> out;
    for (const std::string& r : refs) out.push_back({r, r.substr(0, r.find('.')), prefix + " " + r});
    return out;
}

}  // namespace

TEST_CASE("a verse's plain text: paragraph signs gone, whitespace one space, trimmed", "[data]") {
    CHECK(data::plain_verse_text("\xC2\xB6 Remember  ye\n the law\t ") == "Remember ye the law");
    CHECK(data::plain_verse_text("a\xC2\xB6"
                                 "b") == "a b");
    CHECK(data::plain_verse_text(" \n \xC2\xB6 ").empty());
    // Markup SWORD's plain filter leaves: Strong's numbers, USFM markers; gone with the space before them.
    CHECK(data::plain_verse_text("vida <H2416>, toda <G25> y doce <H6240> a\xC3\xB1os") ==
          "vida, toda y doce a\xC3\xB1os");
    CHECK(data::plain_verse_text("the \\nd LORD\\nd*, saying") == "the LORD, saying");
    CHECK(data::plain_verse_text("a <b> <H> <H12") == "a <b> <H> <H12");  // not markup: kept
    CHECK(data::plain_verse_text("d\xC3\xAD"
                                 "a") ==
          "d\xC3\xAD"
          "a");  // other characters untouched
}

TEST_CASE("verses pair by reference and split by book; unpaired and empty verses are counted", "[data]") {
    std::vector<data::Verse> source =
        bible({"Gen.1.1", "Gen.1.2", "Ruth.1.1", "Jonah.1.1", "Jonah.1.2", "Gen.1.3"}, "kjv");
    std::vector<data::Verse> target =
        bible({"Jonah.1.2", "Gen.1.1", "Ruth.1.1", "Jonah.1.1", "Gen.1.3", "Tob.1.1"}, "web");
    target[4].text = " \xC2\xB6 ";  // Gen.1.3: nothing left once tidied
    data::VerseCorpus c = data::pair_verses(source, target, {{"Ruth"}, {"Jonah"}});
    CHECK(c.source_verses == 6);
    CHECK(c.target_verses == 6);
    CHECK(c.unpaired == 1);       // Gen.1.2 has no target
    CHECK(c.empty_skipped == 1);  // Gen.1.3's target is empty
    REQUIRE(c.train.size() == 1);
    CHECK(c.train[0].ref == "Gen.1.1");
    CHECK(c.train[0].source == "kjv Gen.1.1");
    CHECK(c.train[0].target == "web Gen.1.1");
    REQUIRE(c.validation.size() == 1);
    CHECK(c.validation[0].book == "Ruth");
    REQUIRE(c.test.size() == 2);  // in the source's order
    CHECK(c.test[0].ref == "Jonah.1.1");
    CHECK(c.test[1].target == "web Jonah.1.2");
}

TEST_CASE("the default held-out books are five whole books, none both validation and test", "[data]") {
    data::HeldOutBooks h = data::default_held_out_books();
    CHECK(h.validation == std::vector<std::string>{"Ruth", "Phil"});
    CHECK(h.test == std::vector<std::string>{"Esth", "Jonah", "Jas"});
}

TEST_CASE("a held-out book with no verses, a book held out twice, or nothing to train on is an error", "[errors]") {
    std::vector<data::Verse> v = bible({"Gen.1.1", "Ruth.1.1", "Jonah.1.1"}, "x");
    CHECK_THROWS_WITH(data::pair_verses(v, v, {{"Ruth"}, {"Jonas"}}), Catch::Contains("Jonas has no verse"));
    CHECK_THROWS_WITH(data::pair_verses(v, v, {{"Ruth"}, {"Ruth"}}), Catch::Contains("both validation and test"));
    CHECK_THROWS_WITH(data::pair_verses(v, v, {{"Ruth", "Gen"}, {"Jonah"}}),
                      Catch::Contains("no verse pairs are left"));
    CHECK_THROWS_AS(data::pair_verses({}, v, {{}, {}}), data::DatasetError);
}
