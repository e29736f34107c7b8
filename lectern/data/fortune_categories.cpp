#include "lectern/data/fortune_categories.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"
#include "lectern/autograd/random.h"
#include "lectern/data/text_file.h"

namespace data {

namespace {

std::string trimmed(const std::string& s) {
    const char* blank = " \t\r\n";
    const std::size_t a = s.find_first_not_of(blank);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(blank) - a + 1);
}

// The categories `dir` offers: its files without a dot (not "art.dat", "art.u8").
std::string categories_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename().string().find('.') == std::string::npos)
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return list.empty() ? "none" : list;
}

}  // namespace

std::string missing_fortune_file(const std::string& dir, const std::string& category) {
    std::error_code ec;
    if (!category.empty() && category.find('/') == std::string::npos &&
        std::filesystem::is_regular_file(dir + "/" + category, ec))
        return "";
    return fmt::format("no fortunes file '{}' in {} (it has: {})", autograd::printable(category), dir,
                       categories_in(dir));
}

std::vector<std::string> parse_fortune_categories(const std::string& list) {
    std::vector<std::string> names(1);
    for (char c : list)
        if (c == ',') names.emplace_back();
        else names.back().push_back(c);
    if (names.size() < 2) throw DatasetError("name at least two fortunes files");
    std::set<std::string> seen;
    for (const std::string& name : names) {
        if (name.empty()) throw DatasetError("an empty name between two commas");
        if (!seen.insert(name).second)
            throw DatasetError(fmt::format("'{}' is named twice", autograd::printable(name)));
    }
    return names;
}

std::vector<std::string> read_fortune_entries(const std::string& dir, const std::string& category) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw DatasetError(
            fmt::format("no fortunes folder {}: install Debian's `fortunes` package (apt-get install "
                        "fortunes) or name the folder with --fortunes",
                        dir));
    if (std::string missing = missing_fortune_file(dir, category); !missing.empty()) throw DatasetError(missing);
    const std::string path = dir + "/" + category;
    std::string body = read_text_file(path);
    std::vector<std::string> entries;
    std::string entry, line;
    auto flush = [&] {
        if (std::string t = trimmed(entry); !t.empty()) entries.push_back(std::move(t));
        entry.clear();
    };
    for (std::size_t i = 0; i <= body.size(); ++i) {
        const char c = i < body.size() ? body[i] : '\n';
        if (c != '\n') {
            line.push_back(c);
            continue;
        }
        if (line == "%") {
            flush();
        } else {
            for (char ch : line) {
                if (ch == '\b') {  // an overstrike: the character before it is struck over, drop it
                    if (!entry.empty() && entry.back() != '\n') entry.pop_back();
                } else if (ch != '\a') {
                    entry.push_back(ch);
                }
            }
            entry.push_back('\n');
        }
        line.clear();
    }
    flush();
    if (entries.empty()) throw DatasetError(fmt::format("{} holds no fortunes (an empty file?)", path));
    return entries;
}

FortuneSplit split_by_class(const std::vector<std::vector<std::string>>& texts_by_class,
                            const std::vector<std::string>& names, std::int64_t test_per_class, std::uint64_t seed,
                            std::int64_t validation_per_class) {
    if (names.size() != texts_by_class.size())
        throw DatasetError(fmt::format("split_by_class: {} names for {} classes", names.size(), texts_by_class.size()));
    std::map<std::string, std::set<std::size_t>> classes_of;
    for (std::size_t k = 0; k < texts_by_class.size(); ++k)
        for (const std::string& t : texts_by_class[k]) classes_of[t].insert(k);
    FortuneSplit split;
    autograd::Generator gen(seed);
    for (std::size_t k = 0; k < texts_by_class.size(); ++k) {
        std::vector<std::string> kept;
        std::set<std::string> seen;
        for (const std::string& t : texts_by_class[k])
            if (classes_of[t].size() == 1 && seen.insert(t).second) kept.push_back(t);
        const std::int64_t held_out = test_per_class + validation_per_class;
        if (static_cast<std::int64_t>(kept.size()) <= held_out)
            throw DatasetError(
                fmt::format("category '{}' has {} distinct fortunes: not more than the {} held out per "
                            "class (choose another category, or a smaller --test-per-class or --val-per-class)",
                            names[k], kept.size(), held_out));
        for (std::size_t i = kept.size(); i > 1; --i)  // Fisher-Yates, from the seeded generator
            std::swap(kept[i - 1], kept[static_cast<std::size_t>(gen.next_u64() % i)]);
        const auto label = static_cast<std::int64_t>(k);
        for (std::size_t i = 0; i < kept.size(); ++i) {
            const auto n = static_cast<std::int64_t>(i);
            (n < test_per_class ? split.test
             : n < held_out     ? split.validation
                                : split.train)
                .push_back({kept[i], label});
        }
        split.train_per_class.push_back(static_cast<std::int64_t>(kept.size()) - held_out);
    }
    for (const auto& [t, ks] : classes_of) split.ambiguous += ks.size() > 1;
    return split;
}

}  // namespace data
