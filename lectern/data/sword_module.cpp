#include "lectern/data/sword_module.h"

#include <map>
#include <memory>

#include <fmt/format.h>
#include <markupfiltmgr.h>
#include <swmgr.h>
#include <swmodule.h>
#include <versekey.h>

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

}  // namespace

std::string debian_package_of(const std::string& module) {
    static const std::map<std::string, std::string> packages{
        {"engKJV2006eb", "sword-text-kjv"}, {"engWEB2015eb", "sword-text-web"}, {"spaRV1909eb", "sword-text-sparv"}};
    auto it = packages.find(module);
    return it == packages.end() ? "" : it->second;
}

bool sword_module_installed(const std::string& module) {
    return plain_text_manager()->getModule(module.c_str()) != nullptr;
}

std::vector<Verse> read_sword_module(const std::string& module) {
    auto mgr = plain_text_manager();
    sword::SWModule* m = mgr->getModule(module.c_str());
    if (m == nullptr) {
        const std::string package = debian_package_of(module);
        throw DatasetError(package.empty()
                               ? fmt::format("the SWORD module {} is not installed", module)
                               : fmt::format("the SWORD module {} is not installed: apt-get install {}", module, package));
    }
    // The module's own versification; verse 0 of a book or chapter (its
    // introduction, mostly empty) is left out.
    std::unique_ptr<sword::SWKey> key(m->createKey());
    auto* verse_key = dynamic_cast<sword::VerseKey*>(key.get());
    if (verse_key == nullptr) throw DatasetError(fmt::format("the SWORD module {} is not a Bible (no verse keys)", module));
    verse_key->setIntros(false);
    m->setKey(*verse_key);
    std::vector<Verse> verses;
    for ((*m) = sword::TOP; !m->popError(); (*m)++) {
        const auto* at = dynamic_cast<const sword::VerseKey*>(m->getKey());
        verses.push_back({at->getOSISRef(), at->getOSISBookName(), m->stripText()});
    }
    return verses;
}

}  // namespace data
