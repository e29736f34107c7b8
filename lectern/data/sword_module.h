#pragma once
// The one file of Lectern that speaks to the SWORD library (libsword-dev): a
// Bible module installed from Debian (sword-text-kjv, sword-text-web,
// sword-text-sparv) read verse by verse through sword::SWMgr, with the
// module's markup (OSIS: Strong's numbers, footnotes, headings, red letters)
// rendered away by SWORD's own plain-text filter. SWORD knows the modules'
// compression and indexes but trusts them: a zText module's indexes are checked
// here before SWORD reads it, and what SWORD prints about a verse it cannot read
// ends the reading. It is a library of its own (data_sword in data/meson.build),
// so the rest of data/ builds without SWORD.
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
// DatasetError if the module is not installed, naming the Debian package; or
// if it is damaged (an index that does not fit its files, a verse SWORD cannot
// read, a testament of a module Debian installs without a word), naming the
// Debian package to reinstall.
std::vector<Verse> read_sword_module(const std::string& module);

}  // namespace data
