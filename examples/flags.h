#pragma once
// Flag handling shared by the examples (CLI11): a --preset read before the
// other flags, so the preset sets defaults that explicit flags override, and
// one rule for bad input: what is wrong, then the usage, exit status 2.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace examples {

// The value of --preset on the command line, or `fallback`.
inline std::string peek_preset(int argc, char** argv, const std::string& fallback) {
    std::string preset = fallback;
    CLI::App pre;
    pre.allow_extras();
    pre.set_help_flag();
    pre.add_option("--preset", preset);
    try {
        pre.parse(argc, argv);
    } catch (const CLI::ParseError&) {
        // The full parse reports it.
    }
    return preset;
}

// Parses the flags and runs `validate` (which throws CLI::ValidationError for
// values that do not fit together). Returns -1 to go on, or the exit status:
// 0 after --help, 2 after a bad flag (message and usage on stderr).
inline int parse_flags(CLI::App& app, int argc, char** argv, const char* program,
                       const std::function<void()>& validate) {
    try {
        app.parse(argc, argv);
        validate();
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "{}: {}\n\n{}", program, e.what(), app.help());
        return 2;
    }
    return -1;
}

}  // namespace examples
