// Fortunes by category: reading one file's entries, and the held-out split
// balanced by class (examples/text_classifier).
#include <set>

#include "check.h"
#include "lectern/data/fortune_categories.h"
#include "temp_files.h"

TEST_CASE("a fortunes file's entries: split at '%' lines, overstrikes resolved, blanks trimmed", "[data]") {
    testing::TempDir dir("fortune-entries");
    testing::write_all(dir.file("science"), "E = mc^2\n%\n\n  Two\nlines \n%\n%\nA _\bb\aold word\n%\n");
    std::vector<std::string> e = data::read_fortune_entries(dir.path.string(), "science");
    REQUIRE(e.size() == 3);
    CHECK(e[0] == "E = mc^2");
    CHECK(e[1] == "Two\nlines");
    CHECK(e[2] == "A bold word");
}

TEST_CASE("fortunes by category: a missing folder, file or entry is one line naming the fix", "[errors]") {
    testing::TempDir dir("fortune-errors");
    testing::write_all(dir.file("empty"), "");
    testing::write_all(dir.file("blank"), "%\n  \n%\n");
    testing::write_all(dir.file("law"), "one\n");
    const std::string d = dir.path.string();
    CHECK_THROWS_WITH(data::read_fortune_entries(d + "/nowhere", "law"), Catch::Contains("apt-get install fortunes"));
    CHECK_THROWS_WITH(data::read_fortune_entries(d, "startrek"),
                      Catch::Contains("no fortunes file 'startrek'") && Catch::Contains("it has: blank, empty, law"));
    CHECK_THROWS_WITH(data::read_fortune_entries(d, "../law"), Catch::Contains("no fortunes file"));
    CHECK_THROWS_WITH(data::read_fortune_entries(d, "empty"), Catch::Contains("holds no fortunes"));
    CHECK_THROWS_WITH(data::read_fortune_entries(d, "blank"), Catch::Contains("holds no fortunes"));
}

TEST_CASE("a list of categories: split at commas, in order; two or more distinct names", "[data][errors]") {
    CHECK(data::parse_fortune_categories("law,art,computers") == std::vector<std::string>{"law", "art", "computers"});
    CHECK_THROWS_WITH(data::parse_fortune_categories("law"), "name at least two fortunes files");
    CHECK_THROWS_WITH(data::parse_fortune_categories("law,,art"), "an empty name between two commas");
    CHECK_THROWS_WITH(data::parse_fortune_categories("law,art,"), "an empty name between two commas");
    CHECK_THROWS_WITH(data::parse_fortune_categories("art,law,art"), "'art' is named twice");
}

TEST_CASE("the held-out split has as many texts of every class, none in training, none ambiguous", "[data]") {
    std::vector<std::vector<std::string>> by_class = {{"a1", "a2", "a3", "a4", "shared", "a1"},
                                                      {"b1", "b2", "b3", "shared"}};
    data::FortuneSplit s = data::split_by_class(by_class, {"a", "b"}, 2, 7);
    REQUIRE(s.test.size() == 4);
    std::int64_t per[2] = {0, 0};
    for (const auto& t : s.test) per[t.label] += 1;
    CHECK(per[0] == 2);
    CHECK(per[1] == 2);
    CHECK(s.ambiguous == 1);                                      // "shared" is in both: left out
    CHECK(s.train_per_class == std::vector<std::int64_t>{2, 1});  // a: 4 distinct - 2, b: 3 - 2
    std::set<std::string> test_texts, all;
    for (const auto& t : s.test) test_texts.insert(t.text), all.insert(t.text);
    for (const auto& t : s.train) {
        CHECK(test_texts.count(t.text) == 0);
        CHECK(t.text != "shared");
        CHECK(t.text[0] == (t.label == 0 ? 'a' : 'b'));
        all.insert(t.text);
    }
    CHECK(all.size() == 7);  // every distinct unambiguous text once
    // Another seed holds out other texts; the same seed the same ones.
    CHECK(data::split_by_class(by_class, {"a", "b"}, 2, 7).test[0].text == s.test[0].text);
    CHECK_THROWS_WITH(data::split_by_class(by_class, {"a", "b"}, 3, 7), Catch::Contains("category 'b' has 3 distinct"));
}

TEST_CASE("a validation split comes out of training, and leaves the test texts as they were", "[data]") {
    std::vector<std::vector<std::string>> by_class = {{"a1", "a2", "a3", "a4", "a5"}, {"b1", "b2", "b3", "b4"}};
    const data::FortuneSplit plain = data::split_by_class(by_class, {"a", "b"}, 1, 3);
    const data::FortuneSplit s = data::split_by_class(by_class, {"a", "b"}, 1, 3, 2);
    REQUIRE(s.test.size() == 2);
    for (std::size_t i = 0; i < s.test.size(); ++i) CHECK(s.test[i].text == plain.test[i].text);
    REQUIRE(s.validation.size() == 4);
    CHECK(s.validation[0].label == 0);
    CHECK(s.validation[3].label == 1);
    CHECK(s.train_per_class == std::vector<std::int64_t>{2, 1});
    std::set<std::string> seen;
    for (const auto* set : {&s.train, &s.validation, &s.test})
        for (const auto& t : *set) CHECK(seen.insert(t.text).second);  // in one set only
    CHECK(seen.size() == 9);
    // b has 4 texts: 1 test + 3 validation leaves none to train on.
    CHECK_THROWS_WITH(data::split_by_class(by_class, {"a", "b"}, 1, 3, 3),
                      Catch::Contains("category 'b' has 4 distinct fortunes: not more than the 4 held out"));
}
