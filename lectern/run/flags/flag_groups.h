#pragma once
// A program's flags, declared once, in groups: --help lists them under the
// group's heading, and the group says whether a checkpoint records them and
// what they change (nanoGPT derives its checkpoint's config from its config
// keys; here the record is derived from the declarations, never kept beside
// them by hand):
//
//   run::FlagGroup model = flags.group("Model", run::Recorded::model);
//   model.add("--heads", o.heads, "attention heads h")->check(CLI::Range(1, 256));
//   model.absent("sinusoidal").add("--positions", o.positions, "...");
//
// A recorded flag is written into every checkpoint the run saves, as
// "flag.--heads" -> "4" (recorded_flags.h), and adopted from one it is given
// again. `absent(value)` says what a checkpoint that holds no record of the flag
// means: one saved before the flag existed was trained as with `value`. A flag
// declared without it is one every checkpoint of its program records, so its
// absence is damage. Adding a flag is one declaration, and older checkpoints
// stay readable without a new format version.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace run {

// What a recorded flag changes, and so when a checkpoint's value is compared:
//   model     builds the model: adopted by --load and --resume, refused given otherwise
//   training  changes only the training: adopted by --resume; given with --load it would do nothing, refused
//   run       changes the run's numbers but not the model (--seed, --preset): compared by --resume only
//   none      not recorded (outputs, evaluation, the machine)
enum class Recorded { none, model, training, run };

struct DeclaredFlag {
    std::string name;
    Recorded recorded;
    std::optional<std::string> absent;  // what a checkpoint without its record means
};

class FlagGroup {
public:
    FlagGroup(CLI::App& app, std::vector<DeclaredFlag>& declared, std::string heading, Recorded recorded)
        : app_(&app), declared_(&declared), heading_(std::move(heading)), recorded_(recorded) {}

    template <class T>
    CLI::Option* add(const std::string& name, T& value, const std::string& help) {
        return declare(app_->add_option(name, value, help));
    }
    CLI::Option* flag(const std::string& name, bool& value, const std::string& help) {
        return declare(app_->add_flag(name, value, help));
    }
    // The same group, its next flags meaning `value` in checkpoints without their record.
    FlagGroup absent(std::string value) const {
        FlagGroup g = *this;
        g.absent_ = std::move(value);
        return g;
    }
    CLI::App& app() const { return *app_; }

private:
    CLI::Option* declare(CLI::Option* opt);

    CLI::App* app_;
    std::vector<DeclaredFlag>* declared_;
    std::string heading_;
    Recorded recorded_;
    std::optional<std::string> absent_;
};

// Every flag of a program, by group, in the order declared.
class Flags {
public:
    explicit Flags(CLI::App& app) : app_(app) {}
    FlagGroup group(const std::string& heading, Recorded recorded) { return {app_, declared_, heading, recorded}; }
    CLI::App& app() const { return app_; }
    // The declared flags that `recorded` names, in declaration order.
    std::vector<DeclaredFlag> recorded(Recorded recorded) const;
    std::vector<DeclaredFlag> recorded() const;  // all three kinds

private:
    CLI::App& app_;
    std::vector<DeclaredFlag> declared_;
};

}  // namespace run
