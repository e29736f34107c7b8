#pragma once
// The one file of Lectern that speaks to the SWORD library (libsword-dev): a
// Bible module installed from Debian (sword-text-kjv, sword-text-web,
// sword-text-sparv) read verse by verse through sword::SWMgr, with the
// module's markup (OSIS: Strong's numbers, footnotes, headings, red letters)
// rendered away by SWORD's own plain-text filter. Nothing here parses the
// module's files: SWORD knows their compression and indexes. It is a library of
// its own (data_sword in data/meson.build), so the rest of data/ builds
// without SWORD.
#include <string>
#include <vector>

#include "lectern/data/verse_corpus.h"  // Verse

namespace data {

// The Debian package that installs a SWORD module, or "" if Lectern knows of none.
std::string debian_package_of(const std::string& module);

// Whether SWORD's module library (SWORD_PATH, ~/.sword, /usr/share/sword) holds `module`.
bool sword_module_installed(const std::string& module);

// Every verse of the module in canonical order, introductions left out: its
// OSIS reference ("Gen.1.1"), its book's OSIS name ("Gen") and its text as
// stripText() returns it (markup gone; whitespace and paragraph signs as the
// module has them: plain_verse_text tidies them).
// DatasetError if the module is not installed, naming the Debian package.
std::vector<Verse> read_sword_module(const std::string& module);

}  // namespace data
