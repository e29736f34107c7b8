// Debian's SWORD modules read through the SWORD library (data/sword_module.h).
// The modules come from sword-text-kjv, sword-text-web and sword-text-sparv,
// which scripts/setup.sh installs.
#include <cstdlib>
#include <filesystem>

#include "check.h"
#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/sword_module.h"
#include "temp_files.h"

namespace {

// Read once: each module takes SWORD a second or two to decompress.
const std::vector<data::Verse>& kjv_verses() {
    static const std::vector<data::Verse> verses = data::read_sword_module("engKJV2006eb");
    return verses;
}

}  // namespace

TEST_CASE("the KJV module reads as 31,102 verses of plain text, Genesis 1:1 first", "[data]") {
    const std::vector<data::Verse>& kjv = kjv_verses();
    REQUIRE(kjv.size() == 31102);
    CHECK(kjv[0].ref == "Gen.1.1");
    CHECK(kjv[0].book == "Gen");
    CHECK(data::plain_verse_text(kjv[0].text) == "In the beginning God created the heaven and the earth.");
    CHECK(kjv.back().ref == "Rev.22.21");
    for (const data::Verse& v : kjv) {  // no OSIS markup left once tidied (the module's "\\nd" markers included)
        INFO(v.ref << ": " << v.text);
        const std::string plain = data::plain_verse_text(v.text);
        REQUIRE(plain.find_first_of("<>\\") == std::string::npos);
    }
}

TEST_CASE("the WEB and RV1909 modules pair with the KJV by reference", "[data]") {
    data::VerseCorpus web =
        data::pair_verses(kjv_verses(), data::read_sword_module("engWEB2015eb"), data::default_held_out_books());
    CHECK(web.unpaired < 100);
    CHECK(web.train.size() > 30000);
    CHECK(web.validation.size() == 85 + 104);                               // Ruth, Philippians
    CHECK(web.test.size() == 167 + 48 + 108);                               // Esther, Jonah, James
    CHECK(web.test.front().target.find("Ahasuerus") != std::string::npos);  // Esther 1:1
    data::VerseCorpus rv =
        data::pair_verses(kjv_verses(), data::read_sword_module("spaRV1909eb"), data::default_held_out_books());
    CHECK(rv.train.front().target.rfind("EN el principio", 0) == 0);
    for (const auto* part : {&rv.train, &rv.validation, &rv.test})  // its Strong's numbers are gone
        for (const data::VersePair& p : *part) {
            INFO(p.ref << ": " << p.target);
            REQUIRE(p.target.find_first_of("<>\\") == std::string::npos);
        }
}

TEST_CASE("a missing SWORD module is a DatasetError naming the Debian package", "[errors]") {
    CHECK_THROWS_WITH(data::read_sword_module("NoSuchBible"), Catch::Contains("NoSuchBible is not installed"));
    CHECK_FALSE(data::sword_module_installed("NoSuchBible"));
    CHECK(data::sword_module_installed("engKJV2006eb"));
    CHECK(data::debian_package_of("spaRV1909eb") == "sword-text-sparv");
    // A library without the KJV (SWORD_PATH names an empty one): the message names the package.
    testing::TempDir dir("empty-sword-library");
    std::filesystem::create_directories(dir.path / "mods.d");
    setenv("SWORD_PATH", dir.path.c_str(), 1);
    CHECK_THROWS_WITH(data::read_sword_module("engKJV2006eb"), Catch::Contains("apt-get install sword-text-kjv"));
    unsetenv("SWORD_PATH");
}

namespace {

// A copy of the KJV module (its .conf and its six files) in a library of its own, for damaging.
std::filesystem::path copy_of_kjv(const testing::TempDir& dir) {
    const std::filesystem::path library = "/usr/share/sword", data = "modules/texts/ztext/engKJV2006eb";
    std::filesystem::create_directories(dir.path / "mods.d");
    std::filesystem::create_directories(dir.path / data);
    std::filesystem::copy_file(library / "mods.d" / "engKJV2006eb.conf", dir.path / "mods.d" / "engKJV2006eb.conf",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy(library / data, dir.path / data,
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
    return dir.path / data;
}

}  // namespace

// SWORD spun for minutes on a block index of random bytes (gigabytes inflated for every
// verse), or printed a line per verse ("Error reading compressed text") and returned empty verses.
TEST_CASE("a damaged SWORD module is named as damaged, with the package to reinstall, in seconds", "[errors]") {
    testing::TempDir dir("damaged-sword-library");
    struct Damage {
        const char* file;
        std::string (*bytes)(const std::string& was);
        const char* says;
    };
    const std::vector<Damage> damages = {
        {"ot.bzs",
         [](const std::string& was) {
             std::string b = was;
             for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>(i * 151 + 7);
             return b;
         },
         "(ot.bzs: block 0 of "},
        {"ot.bzz", [](const std::string& was) { return std::string(was.size(), '\0'); },
         "(at Gen.1.1, SWORD says: ERROR: corrupt data during decompression.)"},
        {"ot.bzz", [](const std::string& was) { return was.substr(0, was.size() / 2); }, "does not fit ot.bzz of "},
        {"ot.bzv", [](const std::string&) { return std::string(); },
         "(at Gen.1.1, SWORD says: Error reading ulBuffNum)"},
        {"ot.bzv", [](const std::string& was) { return std::string(was.size(), '\0'); },
         "(its Old Testament has no text)"},
        {"nt.bzv", [](const std::string& was) { return was.substr(0, was.size() - 5); },
         "(nt.bzs or nt.bzv is cut short)"},
    };
    setenv("SWORD_PATH", dir.path.c_str(), 1);
    for (const Damage& d : damages) {
        INFO(d.file << ": " << d.says);
        const std::filesystem::path files = copy_of_kjv(dir);
        const std::string path = (files / d.file).string();
        testing::write_all(path, d.bytes(testing::read_all(path)));
        CHECK_THROWS_WITH(data::read_sword_module("engKJV2006eb"),
                          Catch::StartsWith("the SWORD module engKJV2006eb is damaged ") && Catch::Contains(d.says) &&
                              Catch::EndsWith(": apt-get install --reinstall sword-text-kjv"));
    }
    unsetenv("SWORD_PATH");
}
