#pragma once
// Flag handling shared by the programs (CLI11): checks of values CLI11 lets
// through, and one rule for bad input: one line, "<program>: <reason> (see --help)", exit
// status 2, before any work is done.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/run/shell/console.h"

namespace run {

// A finite number in [lo, hi]. CLI11's Range and PositiveNumber let "nan"
// through (every comparison with NaN is false) and print the largest double
// in full, 309 digits; these reject non-finite values in one short line.
inline CLI::Validator finite_range(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0') return fmt::format("'{}' is not a number", text);
            if (!std::isfinite(v)) return fmt::format("'{}' is not a finite number", text);
            if (v < lo || v > hi) return fmt::format("{} is outside [{:g}, {:g}]", text, lo, hi);
            return "";
        },
        fmt::format("in [{:g}, {:g}]", lo, hi));
}

// A finite number > 0.
inline CLI::Validator finite_positive() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0') return fmt::format("'{}' is not a number", text);
            if (!std::isfinite(v)) return fmt::format("'{}' is not a finite number", text);
            if (v <= 0) return fmt::format("{} is not positive", text);
            return "";
        },
        "> 0");
}

// A seed: a whole number in [0, 2^64 - 1], written in decimal digits. CLI11
// alone wraps -1 to 2^64 - 1, saturates 2^64 and reads "" as 0.
inline CLI::Validator seed_value() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
                return fmt::format("'{}' is not a whole number in [0, 2^64 - 1]", text);
            errno = 0;
            std::strtoull(text.c_str(), nullptr, 10);
            if (errno == ERANGE) return fmt::format("{} is larger than 2^64 - 1", text);
            return "";
        },
        "in [0, 2^64 - 1]");
}

// A text a program reads whole: a file or a pipe, not a device. /dev/zero or
// /dev/urandom never ends, and would be read up to the text's bound (a GiB)
// before it is refused.
inline CLI::Validator text_file_value() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::error_code ec;
            const auto status = std::filesystem::status(text, ec);
            if (std::filesystem::is_character_file(status) || std::filesystem::is_block_file(status))
                return fmt::format("{} is a device, not a text file", text);
            return "";
        },
        "TEXT");
}

// A path the program will write or read: "" names no file.
inline CLI::Validator path_value() {
    return CLI::Validator([](std::string& text)
                              -> std::string { return text.empty() ? "an empty path names no file" : ""; },
                          "FILE");
}

// What is wrong with `text` as a whole number in decimal digits ("" if
// nothing): a '-' before the digits only when `negative_ok`, no leading 0.
// CLI11 reads integers as C's strtoll with base 0 does: "010" as 8 (octal),
// "0x3" as 3, " 3" as 3.
inline std::string decimal_error(const std::string& text, bool negative_ok) {
    const std::size_t digits = negative_ok && text.starts_with('-') ? 1 : 0;
    if (text.size() == digits || text.find_first_not_of("0123456789", digits) != std::string::npos)
        return fmt::format("'{}' is not a whole number in decimal digits", text);
    if (text[digits] == '0' && text.size() > digits + 1)
        return fmt::format("'{}' begins with 0: write a whole number in decimal, without leading zeros", text);
    return "";
}

// Every integer flag of `app` takes decimal digits alone, checked before the
// flag's own checks (a Range would let "010" through as 8). The values --load
// and --resume adopt from a checkpoint run the same checks.
inline void require_decimal_integers(CLI::App& app) {
    for (CLI::Option* opt : app.get_options()) {
        const std::string type = opt->get_type_name();
        const bool is_signed = type.starts_with("INT"), is_unsigned = type.starts_with("UINT");
        if (!is_signed && !is_unsigned) continue;
        auto decimal = [is_signed](std::string& text) { return decimal_error(text, is_signed); };
        CLI::Validator* first = nullptr;
        try {
            first = opt->get_validator(0);
        } catch (const CLI::OptionNotFound&) {  // the flag has no check of its own
            opt->check(CLI::Validator(decimal, ""));
            continue;
        }
        first->operation([decimal, own = *first](std::string& text) mutable {
            const std::string error = decimal(text);
            return error.empty() ? own(text) : error;
        });
    }
}

// Parses the flags and runs `validate` (which throws CLI::ValidationError for
// values that do not fit together). Returns -1 to go on, or the exit status:
// 0 after --help, 2 after a bad flag (one line on stderr).
inline int parse_flags(CLI::App& app, int argc, char** argv, const char* program,
                       const std::function<void()>& validate) {
    try {
        require_decimal_integers(app);
        app.parse(argc, argv);
        validate();
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (!console_quiet())
            fmt::print(stderr, "{}: {} (see --help)\n", program, e.what());  // rank 0 speaks for the job
        return 2;
    }
    return -1;
}

}  // namespace run
