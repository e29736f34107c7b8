#include "lectern/data/word_tokens.h"

#include <algorithm>
#include <cctype>

namespace data {

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string w;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
        if (c < 128 && (std::isalnum(c) || (c == '\'' && !w.empty()))) {
            w.push_back(static_cast<char>(std::tolower(c)));
        } else if (!w.empty()) {
            while (!w.empty() && w.back() == '\'') w.pop_back();  // a closing quote is not part of the word
            if (!w.empty()) out.push_back(w);
            w.clear();
        }
    }
    return out;
}

WordVocabulary::WordVocabulary(const std::vector<std::string>& texts, std::int64_t min_count) {
    std::map<std::string, std::int64_t> texts_holding;
    for (const std::string& t : texts) {
        std::vector<std::string> ws = words(t);
        std::sort(ws.begin(), ws.end());
        ws.erase(std::unique(ws.begin(), ws.end()), ws.end());
        for (std::string& w : ws) texts_holding[std::move(w)] += 1;
    }
    for (const auto& [w, n] : texts_holding)
        if (n >= min_count) ids_.emplace(w, size()), words_.push_back(w);
}

std::int64_t WordVocabulary::id(const std::string& w) const {
    auto it = ids_.find(w);
    return it == ids_.end() ? -1 : it->second;
}

std::vector<std::int64_t> WordVocabulary::encode(const std::string& text, std::int64_t unknown) const {
    std::vector<std::int64_t> out;
    for (const std::string& w : words(text))
        if (std::int64_t i = id(w); i >= 0 || unknown >= 0) out.push_back(i >= 0 ? i : unknown);
    return out;
}

std::vector<std::int64_t> WordVocabulary::bag(const std::string& text) const {
    std::vector<std::int64_t> out = encode(text, -1);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace data
