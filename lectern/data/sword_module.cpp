#include "lectern/data/sword_module.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <markupfiltmgr.h>
#include <swmgr.h>
#include <swmodule.h>
#include <versekey.h>

#include "lectern/autograd/printable.h"
#include "lectern/data/idx.h"  // DatasetError

namespace data {

namespace {

// A manager whose modules render to plain text, with every optional piece of
// markup that carries words of its own (notes, headings, cross-references) off.
std::unique_ptr<sword::SWMgr> plain_text_manager() {
    auto mgr = std::make_unique<sword::SWMgr>(new sword::MarkupFilterMgr(sword::FMT_PLAIN));
    for (const char* option : {"Footnotes", "Strong's Numbers", "Headings", "Cross-references", "Morphological Tags",
                               "Words of Christ in Red", "Lemmas", "Glosses"})
        mgr->setGlobalOption(option, "Off");
    return mgr;
}

// "the SWORD module M is damaged (why): apt-get install --reinstall PACKAGE".
DatasetError damaged(const std::string& module, const std::string& why) {
    const std::string package = debian_package_of(module);
    return DatasetError(
        fmt::format("the SWORD module {} is damaged ({}): {}", module, why,
                    package.empty() ? std::string("install it again") : "apt-get install --reinstall " + package));
}

std::string read_index(const std::filesystem::path& path, const std::string& module) {
    constexpr std::uintmax_t kMaxIndex = std::uintmax_t{16} << 20;  // the KJV's largest, ot.bzv, is 241 KB
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw damaged(module, fmt::format("{}: {}", path.filename().string(), ec.message()));
    if (size > kMaxIndex)
        throw damaged(module,
                      fmt::format("{} holds {} bytes, more than an index needs", path.filename().string(), size));
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
        throw damaged(module, fmt::format("{} cannot be read", path.filename().string()));
    return bytes;
}

std::uint64_t little_endian(const std::string& bytes, std::size_t at, int width) {
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i)
        v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
    return v;
}

// SWORD trusts a zText module's indexes: a block index of random bytes has it
// inflate gigabytes for every verse, for minutes. A testament's three files
// (SWORD's zverse.cpp): X.bzs, per block 4-byte offset, compressed size and
// size in X.bzz; X.bzv, per verse 4-byte block, offset in the inflated block
// and 2-byte size. Every block must lie inside X.bzz and inflate to a book at
// most (Psalms, with the KJV's markup, is 1.3 MB), and every verse inside its
// block. A testament without its three files is one the module does not hold.
void check_ztext_indexes(const std::string& module, const std::filesystem::path& dir) {
    constexpr std::uint64_t kMaxBlock = std::uint64_t{16} << 20;
    for (const char* testament : {"ot", "nt"}) {
        const auto bzs = dir / (std::string(testament) + ".bzs"), bzv = dir / (std::string(testament) + ".bzv"),
                   bzz = dir / (std::string(testament) + ".bzz");
        if (!std::filesystem::exists(bzs) && !std::filesystem::exists(bzv) && !std::filesystem::exists(bzz)) continue;
        const std::string blocks = read_index(bzs, module), verses = read_index(bzv, module);
        std::error_code ec;
        const std::uint64_t text_size = std::filesystem::file_size(bzz, ec);
        if (ec) throw damaged(module, fmt::format("{}: {}", bzz.filename().string(), ec.message()));
        if (blocks.size() % 12 != 0 || verses.size() % 10 != 0)
            throw damaged(module,
                          fmt::format("{} or {} is cut short", bzs.filename().string(), bzv.filename().string()));
        std::vector<std::uint64_t> inflated;
        for (std::size_t b = 0; b < blocks.size(); b += 12) {
            const std::uint64_t offset = little_endian(blocks, b, 4), size = little_endian(blocks, b + 4, 4);
            inflated.push_back(little_endian(blocks, b + 8, 4));
            if (offset + size > text_size || inflated.back() > kMaxBlock)
                throw damaged(module, fmt::format("{}: block {} of {} bytes at {} inflating to {} does not fit {} "
                                                  "of {} bytes",
                                                  bzs.filename().string(), b / 12, size, offset, inflated.back(),
                                                  bzz.filename().string(), text_size));
        }
        for (std::size_t v = 0; v < verses.size(); v += 10) {
            const std::uint64_t block = little_endian(verses, v, 4), start = little_endian(verses, v + 4, 4),
                                size = little_endian(verses, v + 8, 2);
            if (size > 0 && (block >= inflated.size() || start + size > inflated[block]))
                throw damaged(module,
                              fmt::format("{}: entry {} points past its block", bzv.filename().string(), v / 10));
        }
    }
}

// SWORD meets a damaged verse (a block it cannot read or inflate) by printing
// a line on stderr, itself or through its log, and returning an empty text:
// 29,541 lines of "Error reading compressed text" for one cut file. While a
// module is read, stderr goes to an unnamed temporary file; the first line
// there ends the reading and is quoted in the one line Lectern prints.
class StderrCaptured {
public:
    StderrCaptured() {
        if (file_ == nullptr || saved_ < 0) return;
        std::fflush(stderr);
        if (dup2(fileno(file_), 2) < 0) return;
        on_ = true;
    }
    ~StderrCaptured() {
        if (on_) dup2(saved_, 2);
        if (saved_ >= 0) close(saved_);
        if (file_ != nullptr) std::fclose(file_);
    }
    StderrCaptured(const StderrCaptured&) = delete;
    StderrCaptured& operator=(const StderrCaptured&) = delete;

    bool any() const {
        struct stat st {};
        return on_ && fstat(fileno(file_), &st) == 0 && st.st_size > 0;
    }
    std::string first_line() const {
        char line[200] = {};
        const ssize_t n = pread(fileno(file_), line, sizeof line - 1, 0);
        std::string text(line, static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        return text.substr(0, text.find('\n'));
    }

private:
    std::FILE* file_ = std::tmpfile();
    int saved_ = dup(2);
    bool on_ = false;
};

}  // namespace

std::string debian_package_of(const std::string& module) {
    static const std::map<std::string, std::string> packages{{"engKJV2006eb", "sword-text-kjv"},
                                                             {"engWEB2015eb", "sword-text-web"},
                                                             {"spaRV1909eb", "sword-text-sparv"}};
    auto it = packages.find(module);
    return it == packages.end() ? "" : it->second;
}

namespace {

// What the .conf of each module Debian installs says of its layout: the versification its
// verses are stored in and the encoding of their text. A .conf that says otherwise reads
// the verses under other references, or as other letters, without an error.
struct Layout {
    const char* versification;
    const char* encoding;
};
const std::map<std::string, Layout> kDebianLayouts{{"engKJV2006eb", {"KJV", "UTF-8"}},
                                                   {"engWEB2015eb", {"NRSVA", "UTF-8"}},
                                                   {"spaRV1909eb", {"KJV", "UTF-8"}}};

void check_layout(const std::string& module, sword::SWModule& m) {
    const auto it = kDebianLayouts.find(module);
    if (it == kDebianLayouts.end()) return;
    for (const auto& [key, expected] :
         {std::pair{"Versification", it->second.versification}, std::pair{"Encoding", it->second.encoding}}) {
        const char* said = m.getConfigEntry(key);
        if (said == nullptr || std::string(said) != expected)
            throw damaged(module, fmt::format("its .conf says {}={}, the module is stored in {}", key,
                                              said == nullptr ? "" : autograd::printable(said, 40), expected));
    }
}

}  // namespace

bool sword_module_installed(const std::string& module) {
    return plain_text_manager()->getModule(module.c_str()) != nullptr;
}

std::vector<Verse> read_sword_module(const std::string& module) {
    auto mgr = plain_text_manager();
    sword::SWModule* m = mgr->getModule(module.c_str());
    if (m == nullptr) {
        const std::string package = debian_package_of(module);
        throw DatasetError(
            package.empty() ? fmt::format("the SWORD module {} is not installed", module)
                            : fmt::format("the SWORD module {} is not installed: apt-get install {}", module, package));
    }
    check_layout(module, *m);
    // The module's own versification; verse 0 of a book or chapter (its
    // introduction, mostly empty) is left out.
    std::unique_ptr<sword::SWKey> key(m->createKey());
    auto* verse_key = dynamic_cast<sword::VerseKey*>(key.get());
    if (verse_key == nullptr)
        throw DatasetError(fmt::format("the SWORD module {} is not a Bible (no verse keys)", module));
    verse_key->setIntros(false);
    if (const char* driver = m->getConfigEntry("ModDrv"); driver != nullptr && std::string(driver) == "zText")
        if (const char* dir = m->getConfigEntry("AbsoluteDataPath")) check_ztext_indexes(module, dir);
    m->setKey(*verse_key);
    std::vector<Verse> verses;
    bool testament_has_text[2] = {false, false};
    StderrCaptured sword_says;
    for ((*m) = sword::TOP; !m->popError(); (*m)++) {
        const auto* at = dynamic_cast<const sword::VerseKey*>(m->getKey());
        verses.push_back({at->getOSISRef(), at->getOSISBookName(), m->stripText()});
        if (sword_says.any())  // the first damaged verse ends the reading
            throw damaged(module, fmt::format("at {}, SWORD says: {}", verses.back().ref, sword_says.first_line()));
        if (!verses.back().text.empty() && (at->getTestament() == 1 || at->getTestament() == 2))
            testament_has_text[at->getTestament() - 1] = true;
    }
    // A module Debian installs holds both testaments; a verse index of zeros
    // reads as a testament without a word, and without an error.
    if (!debian_package_of(module).empty())
        for (int t : {0, 1})
            if (!testament_has_text[t])
                throw damaged(module, fmt::format("its {} Testament has no text", t == 0 ? "Old" : "New"));
    return verses;
}

}  // namespace data
