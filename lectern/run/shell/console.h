#pragma once
// What a program prints for its user. A reader that went away (`| head`) is
// not an error of the run: what stdout cannot take is dropped, the SIGPIPE
// handler (interruption.h) asks the run to stop, and the run saves and exits at
// the next step boundary. fmt::print would throw mid-step instead.
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace run {

// In a data-parallel job only rank 0 speaks: the others would repeat it.
inline bool& console_quiet() {
    static bool quiet = false;
    return quiet;
}

template <class... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
    if (console_quiet()) return;
    std::string text = fmt::format(format, std::forward<Args>(args)...);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) std::clearerr(stdout);
}

}  // namespace run
