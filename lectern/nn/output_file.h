#pragma once
// Writing a file a program produces (a checkpoint, a CSV, a PNG) so that a
// failure never costs what was there before: the bytes go to a new temporary
// file beside `path`, named `<path>.tmp.<pid>`, which is synced and renamed over
// `path`. An interrupted or failed write leaves the previous file intact.
//
// - The temporary file is created exclusively (O_EXCL, O_NOFOLLOW): a file or
//   link already at that name is never followed, truncated or reused.
// - Temporary files that an earlier, killed write left beside `path` (their pid
//   is no longer running, or is this process's) are removed first.
// - Just before the rename, `path` is checked again: if it exists and is not a
//   regular file (a folder, a device such as /dev/null, a FIFO, a socket), the
//   write is refused and nothing is replaced.
// Every failure throws OutputError naming the file and the reason.
#include <string>
#include <string_view>
#include <vector>

#include "lectern/autograd/errors.h"

namespace nn {

struct OutputError : autograd::Error {
    using autograd::Error::Error;
};

void write_file_atomically(const std::string& path, std::string_view bytes);

// The temporary files of earlier writes of `path` whose process is gone; removed
// by write_file_atomically, listed here for tests and for programs that report them.
std::vector<std::string> stale_temporaries(const std::string& path);

}  // namespace nn
