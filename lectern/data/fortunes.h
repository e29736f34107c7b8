#pragma once
// The default corpus of examples/char_lm: Debian's `fortunes` package.
#include <string>
#include <vector>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

// The text files of the `fortunes` package in `dir` (normally
// /usr/share/games/fortunes), in the order of kFortuneFiles, concatenated. Within a
// file entries are separated by lines holding only '%'; a '%' line also joins two
// files. The overstrikes some entries use for underlining on a teletype ("_"
// BACKSPACE "x") and the BEL characters are removed, so the text is what a reader
// sees. DatasetError naming the missing file and the package to install.
extern const std::vector<std::string> kFortuneFiles;
std::string read_fortunes(const std::string& dir);

}  // namespace data
