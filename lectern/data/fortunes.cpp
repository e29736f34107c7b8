#include "lectern/data/fortunes.h"

#include <fstream>

#include <fmt/format.h>

#include "lectern/data/text_file.h"

namespace data {

// The `fortunes` package's files, less its two files of pictures drawn in
// characters (art, ascii-art): 2.4 MB of quotations, jokes and verse.
const std::vector<std::string> kFortuneFiles =
    {"computers", "cookie", "debian",       "definitions", "disclaimer",    "drugs",   "education",   "ethnic",
     "food",      "goedel", "humorists",    "kids",        "knghtbrd",      "law",     "linux",       "linuxcookie",
     "love",      "magic",  "medicine",     "men-women",   "miscellaneous", "news",    "paradoxum",   "people",
     "perl",      "pets",   "platitudes",   "politics",    "pratchett",     "science", "songs-poems", "sports",
     "startrek",  "tao",    "translate-me", "wisdom",      "work",          "zippy"};

std::string read_fortunes(const std::string& dir) {
    std::string text;
    for (const std::string& name : kFortuneFiles) {
        std::string path = dir + "/" + name;
        std::ifstream probe(path);
        if (!probe)
            throw DatasetError(
                fmt::format("cannot read {}: the default corpus is Debian's `fortunes` package "
                            "(apt-get install fortunes), or give a text file with --text",
                            path));
        std::string body = read_text_file(path);
        if (!text.empty() && !body.empty()) text += text.back() == '\n' ? "%\n" : "\n%\n";
        for (char c : body) {
            if (c == '\b') {  // an overstrike: the character before it is struck over, drop it
                if (!text.empty()) text.pop_back();
            } else if (c != '\a') {
                text.push_back(c);
            }
        }
    }
    return text;
}

}  // namespace data
