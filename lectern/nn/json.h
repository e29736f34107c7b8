#pragma once
// JSON from files a user gives (safetensors headers, GPT-2's config.json),
// parsed by nlohmann-json with two refusals its parser does not make alone:
// - a key named twice in one object: RFC 8259 leaves its meaning open and the
//   parser keeps the last value silently, so two readers of one file could
//   build two different things;
// - nesting deeper than the format has: the parser keeps every open level,
//   about 80 bytes for each byte of '[' (20 MB of them held 1.6 GB).
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "lectern/autograd/errors.h"

namespace nn {

struct JsonError : autograd::Error {
    using autograd::Error::Error;
};

// `text` as JSON, containers nested at most `max_depth` deep (the outermost
// object is depth 1). JsonError otherwise, one printable line that reads after
// the file's name: "is not JSON (...)", "nests deeper than 3 levels", "names
// the key \"w\" twice in one object".
nlohmann::json parse_json(const std::string& text, int max_depth);

// The file `path` as parse_json reads it, read with a bound: a file holding
// more than `max_bytes` is refused before its end, and a path that is not a
// regular file (a FIFO, a device, a folder) before it is opened.
// JsonError naming `path` and the reason.
nlohmann::json read_json_file(const std::string& path, std::size_t max_bytes, int max_depth);

}  // namespace nn
