#include "lectern/data/labelled_fortunes.h"

#include <set>

#include <fmt/format.h>
#include <zlib.h>

#include "lectern/data/fortunes.h"

namespace data {

LabelledFortunes read_labelled_fortunes(const std::string& dir, const std::vector<std::string>& categories,
                                        const FortuneSplitSizes& sizes) {
    LabelledFortunes f;
    std::vector<std::vector<std::string>> by_class;
    for (const auto& c : categories) by_class.push_back(read_fortune_entries(dir, c));
    f.split = split_by_class(by_class, categories, sizes.test_per_class, sizes.seed, sizes.validation_per_class);
    if (sizes.unlabelled) {
        std::set<std::string> held_out, seen;
        for (const auto& t : f.split.test) held_out.insert(t.text);
        for (const auto& t : f.split.validation) held_out.insert(t.text);
        std::vector<std::string> files = kFortuneFiles;
        files.insert(files.end(), categories.begin(), categories.end());
        for (const auto& file : files) {
            if (!seen.insert(file).second) continue;
            for (auto& t : read_fortune_entries(dir, file))
                if (!held_out.count(t)) f.unlabelled.push_back({std::move(t), 0});
        }
    }
    uLong crc = crc32_z(0L, nullptr, 0);
    std::size_t n = 0;
    for (const auto* set : {&f.split.train, &f.split.validation, &f.split.test, &f.unlabelled})
        for (const auto& t : *set) {
            crc = crc32_z(crc, reinterpret_cast<const Bytef*>(t.text.c_str()), t.text.size() + 1);  // with its 0
            crc = crc32_z(crc, reinterpret_cast<const Bytef*>(&t.label), sizeof t.label);
            ++n;
        }
    f.digest = fmt::format("{} fortunes, CRC-32 {:08x}", n, crc);
    return f;
}

}  // namespace data
