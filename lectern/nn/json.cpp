#include "lectern/nn/json.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"
#include "lectern/autograd/regular_file.h"

namespace nn {

nlohmann::json parse_json(const std::string& text, int max_depth) {
    using Event = nlohmann::json::parse_event_t;
    // keys[d]: the keys seen so far in the open object at depth d + 1.
    std::vector<std::set<std::string>> keys;
    // The parser calls back with the depth of the container's parent on a
    // container's start, and with the depth of the object holding it on a key.
    auto check = [&](int depth, Event event, nlohmann::json& parsed) {
        if (event == Event::object_start || event == Event::array_start) {
            if (depth + 1 > max_depth) throw JsonError(fmt::format("nests deeper than {} levels", max_depth));
            keys.resize(static_cast<std::size_t>(depth) + 1);
            keys.back().clear();
        } else if (event == Event::key) {
            const std::string& key = parsed.get_ref<const std::string&>();
            if (!keys[static_cast<std::size_t>(depth) - 1].insert(key).second)
                throw JsonError(fmt::format("names the key \"{}\" twice in one object", autograd::printable(key)));
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, check);
    } catch (const nlohmann::json::exception& e) {
        throw JsonError(
            fmt::format("is not JSON ({})", autograd::printable(e.what(), 300)));  // the message quotes the text
    }
}

nlohmann::json read_json_file(const std::string& path, std::size_t max_bytes, int max_depth) {
    autograd::require_regular_file<JsonError>(path, "");  // the caller names the reader
    std::ifstream in(path, std::ios::binary);
    if (!in) throw JsonError(fmt::format("cannot open {} for reading", path));
    std::string text(max_bytes + 1, '\0');  // one byte more than allowed tells a file that is too large
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw JsonError(fmt::format("reading {} failed", path));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) throw JsonError(fmt::format("{} holds more than {} bytes", path, max_bytes));
    try {
        return parse_json(text, max_depth);
    } catch (const JsonError& e) {
        throw JsonError(fmt::format("{} {}", path, e.what()));
    }
}

}  // namespace nn
