// What the programs share for their files and flags: outputs that never
// replace a device, an input or another output; writes whose failure is an
// error naming the file; flags recorded in a checkpoint and adopted or refused.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "check.h"
#include "temp_files.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/linear.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/output_lock.h"
#include "lectern/run/flags/presets.h"
#include "lectern/run/flags/recorded_flags.h"
#include "lectern/run/training/run_state.h"
#include "lectern/run/training/step_boundary.h"
#include "lectern/run/shell/streamed_text.h"

namespace fs = std::filesystem;

namespace {

using testing::read_all;
using testing::with_file_limit;

}  // namespace

TEST_CASE("an output may not be a device, a FIFO, a folder, an input or another output", "[io][errors]") {
    testing::TempDir dir("outputs");
    const std::string input = dir.file("corpus.txt"), link = dir.file("link.txt"), fifo = dir.file("fifo");
    std::ofstream(input) << "the training text";
    fs::create_symlink(input, link);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    run::register_input(input);
    CHECK_THROWS_WITH(run::check_output_file("--save", "/dev/null"),
                      Catch::Contains("is not a regular file"));  // only looked at
    CHECK_THROWS_WITH(run::check_output_file("--save", fifo), Catch::Contains("is not a regular file"));
    CHECK_THROWS_WITH(run::check_output_file("--csv", dir.path.string()), Catch::Contains("is a folder"));
    CHECK_THROWS_WITH(run::check_output_file("--save", input), Catch::Contains("is an input of this run"));
    CHECK_THROWS_WITH(run::check_output_file("--save", link), Catch::Contains("the same file as " + input));
    // Two outputs with one name, the second one not yet existing.
    run::check_output_file("--save", dir.file("m.ckpt"));
    CHECK_THROWS_WITH(run::check_output_file("--csv", dir.file("./m.ckpt")), Catch::Contains("already another output"));
    // Checked again when written, whatever the flags said.
    CHECK_THROWS_WITH(run::write_output(link, "x"), Catch::Contains("an input of this run"));
    CHECK(read_all(input) == "the training text");
    CHECK(fs::is_fifo(fifo));
}

TEST_CASE("a write that fails is an error naming the file, and the old file survives", "[io][errors]") {
    testing::TempDir dir("outputs");
    const std::string csv = dir.file("loss.csv");
    run::write_output(csv, "step,loss\n");
    const std::string big(1 << 16, 'x');
    with_file_limit(4096,
                    [&] { CHECK_THROWS_WITH(run::write_output(csv, big), Catch::Contains("cannot write " + csv)); });
    CHECK(read_all(csv) == "step,loss\n");
}

// Flags a checkpoint records as the model's, none with a meaning when absent.
std::vector<run::DeclaredFlag> model_flags(const std::vector<std::string>& names) {
    std::vector<run::DeclaredFlag> out;
    for (const std::string& n : names) out.push_back({n, run::Recorded::model, std::nullopt});
    return out;
}

TEST_CASE("recorded flags are adopted when not given and refused when given otherwise", "[io][errors]") {
    auto make = [](std::int64_t& heads, double& dropout, bool& untie) {
        auto app = std::make_unique<CLI::App>();
        app->option_defaults()->always_capture_default();
        app->add_option("--heads", heads);
        app->add_option("--dropout", dropout);
        app->add_flag("--untie", untie);
        return app;
    };
    std::int64_t heads = 4;
    double dropout = 0.1;
    bool untie = false;
    auto saver = make(heads, dropout, untie);
    const char* saved_argv[] = {"p", "--heads", "8", "--untie"};
    saver->parse(4, const_cast<char**>(saved_argv));
    nn::RunRecord record;
    run::record_flags(*saver, "copy_task", model_flags({"--heads", "--dropout", "--untie"}), record);
    CHECK(record.text.at("flag.--heads") == "8");
    CHECK(record.text.at("flag.--dropout") == "0.1");
    CHECK(record.text.at("flag.--untie") == "true");

    std::int64_t h2 = 4;
    double d2 = 0.1;
    bool u2 = false;
    auto loader = make(h2, d2, u2);
    const char* load_argv[] = {"p", "--dropout", "0.10"};  // the same value, written otherwise
    loader->parse(3, const_cast<char**>(load_argv));
    auto adopted =
        run::adopt_flags(*loader, record, "copy_task", model_flags({"--heads", "--dropout", "--untie"}), "--load", "m");
    CHECK(adopted == std::vector<std::string>{"--heads 8", "--untie=true"});
    CHECK(h2 == 8);
    CHECK(u2);

    std::int64_t h3 = 4;
    double d3 = 0.1;
    bool u3 = false;
    auto refuser = make(h3, d3, u3);
    const char* refuse_argv[] = {"p", "--heads", "2"};
    refuser->parse(3, const_cast<char**>(refuse_argv));
    CHECK_THROWS_WITH(run::adopt_flags(*refuser, record, "copy_task", model_flags({"--heads"}), "--load", "m"),
                      Catch::Contains("2 here, but m was saved with --heads 8"));
    CHECK_THROWS_WITH(run::adopt_flags(*refuser, record, "char_lm", model_flags({"--heads"}), "--load", "m"),
                      Catch::Contains("m is a checkpoint of copy_task, not of char_lm"));
}

TEST_CASE("a checkpoint of the current format missing a recorded flag is refused; an older one keeps the value",
          "[io][errors]") {
    std::int64_t heads = 4;
    double dropout = 0.1;
    auto make = [&] {
        auto app = std::make_unique<CLI::App>();
        app->option_defaults()->always_capture_default();
        app->add_option("--heads", heads);
        app->add_option("--dropout", dropout);
        const char* argv[] = {"p"};
        app->parse(1, const_cast<char**>(argv));
        return app;
    };
    // Saved with h = 2; the record of --heads lost. h = 4 would build parameters of the same shapes.
    nn::RunRecord record;
    record.text = {{"program", "copy_task"}, {"flag.--dropout", "0.2"}};
    record.current_format = true;
    auto app = make();
    CHECK_THROWS_WITH(run::adopt_flags(*app, record, "copy_task", model_flags({"--heads", "--dropout"}), "--load", "m"),
                      "--load: m is damaged: it holds no record of --heads, which every copy_task checkpoint of this "
                      "format version holds");
    // A file of an older version may predate the flag: what it records is adopted, the rest kept.
    record.current_format = false;
    auto older = make();
    CHECK(run::adopt_flags(*older, record, "copy_task", model_flags({"--heads", "--dropout"}), "--load", "m") ==
          std::vector<std::string>{"--dropout 0.2"});
    CHECK(heads == 4);
    CHECK(dropout == 0.2);
}

TEST_CASE("a flag declared with its meaning when absent takes it from a checkpoint without its record",
          "[io][errors]") {
    std::int64_t heads = 4;
    std::string positions = "learned";
    CLI::App app;
    app.option_defaults()->always_capture_default();
    run::Flags flags(app);
    run::FlagGroup model = flags.group("Model", run::Recorded::model);
    model.add("--heads", heads, "h");
    model.absent("sinusoidal").add("--positions", positions, "the code");
    CHECK(app.get_option("--positions")->get_group() == "Model");
    const char* argv[] = {"p"};
    app.parse(1, const_cast<char**>(argv));
    // Saved before --positions existed, when every model's positions were sinusoidal.
    nn::RunRecord record;
    record.text = {{"program", "copy_task"}, {"flag.--heads", "2"}};
    record.current_format = true;
    CHECK(run::adopt_flags(app, record, "copy_task", flags.recorded(), "--load", "m") ==
          std::vector<std::string>{"--heads 2", "--positions sinusoidal"});
    CHECK(positions == "sinusoidal");
    // Given otherwise on the command line, it is refused as a recorded value would be.
    CLI::App given;
    given.option_defaults()->always_capture_default();
    run::Flags given_flags(given);
    given_flags.group("Model", run::Recorded::model).absent("sinusoidal").add("--positions", positions, "the code");
    const char* given_argv[] = {"p", "--positions", "learned"};
    given.parse(3, const_cast<char**>(given_argv));
    CHECK_THROWS_WITH(run::adopt_flags(given, record, "copy_task", given_flags.recorded(), "--load", "m"),
                      Catch::Contains("learned here, but m was saved with --positions sinusoidal"));
}

TEST_CASE("--save-every takes N steps or N minutes", "[io]") {
    std::string good = "500", minutes = "10m", zero = "0", word = "often", negative = "-5";
    CHECK(run::save_every_value()(good).empty());
    CHECK(run::save_every_value()(minutes).empty());
    CHECK_FALSE(run::save_every_value()(zero).empty());
    CHECK_FALSE(run::save_every_value()(word).empty());
    CHECK_FALSE(run::save_every_value()(negative).empty());
    run::SaveSchedule every(good);
    CHECK(every.due(500));
    CHECK(every.due(1000));
    CHECK_FALSE(every.due(499));
    CHECK_FALSE(run::SaveSchedule("").due(500));
    CHECK_FALSE(run::SaveSchedule(minutes).due(1));  // ten minutes have not passed
}

TEST_CASE("the step boundary saves at the last step unless the program writes its result itself", "[io]") {
    // The steps at which a run of 4 steps saves.
    auto saves = [](const std::string& every, bool save_at_end) {
        run::CheckpointFlags flags{.save = "run.ckpt", .save_every = every, .load = "", .resume = ""};
        run::StepBoundary boundary(flags, 4, distributed::Communicator::world(), save_at_end);
        std::vector<std::int64_t> steps;
        for (std::int64_t step = 1; step <= 4; ++step)
            boundary.after(step, [&](const std::string& path) {
                CHECK(path == "run.ckpt");
                steps.push_back(step);
            });
        return steps;
    };
    CHECK(saves("", true) == std::vector<std::int64_t>{4});
    CHECK(saves("", false).empty());
    CHECK(saves("3", true) == std::vector<std::int64_t>{3, 4});
    CHECK(saves("3", false) == std::vector<std::int64_t>{3});
}

TEST_CASE("a generator's state survives a checkpoint's tensor: the same numbers follow", "[io]") {
    autograd::Generator a(42);
    a.normal();  // leaves Box-Muller's spare held: part of the state
    nn::RunRecord record;
    record.tensors["g"] = run::generator_tensor(a);
    autograd::Generator b(7);
    run::restore_generator(b, record, "g");
    for (int i = 0; i < 5; ++i) CHECK(a.normal() == b.normal());
    CHECK(a.next_u64() == b.next_u64());
    record.tensors["g"] = autograd::zeros({6}, autograd::Dtype::int64);
    CHECK_THROWS_WITH(run::restore_generator(b, record, "g"), Catch::Contains("all-zero state"));
}

TEST_CASE("a preset is read from the command line, else from the checkpoint resumed or loaded", "[io]") {
    testing::TempDir dir("presets");
    const std::string ckpt = dir.file("quick.ckpt");
    nn::RunRecord record;
    record.text["flag.--preset"] = "quick";
    autograd::Generator gen(1);
    nn::save_checkpoint(ckpt, nn::Linear(2, 2, true, gen), nullptr, &record);
    const std::vector<std::string> names = {"default", "long", "quick"};
    auto chosen = [&](std::vector<const char*> argv) {
        const run::EarlyFlags early =
            run::early_flags(static_cast<int>(argv.size()), const_cast<char**>(argv.data()), names);
        nn::RunRecord saved;
        if (!early.checkpoint.empty() && std::filesystem::exists(early.checkpoint))
            saved = nn::CheckpointFile(early.checkpoint).run_record();
        return run::chosen_preset(early, saved, "default");
    };
    CHECK(chosen({"p"}) == "default");
    CHECK(chosen({"p", "--preset", "long"}) == "long");
    CHECK(chosen({"p", "--quick", "--seed", "3"}) == "quick");
    CHECK(chosen({"p", "--resume", ckpt.c_str()}) == "quick");  // a resumed quick run keeps quick's defaults
    CHECK(chosen({"p", "--load", ckpt.c_str()}) == "quick");
    CHECK(chosen({"p", "--resume", ckpt.c_str(), "--preset", "long"}) == "long");  // the refusal is the checks' job
    CHECK(chosen({"p", "--resume", dir.file("missing.ckpt").c_str()}) == "default");
    CHECK(run::early_flags(3, const_cast<char**>(std::vector<const char*>{"p", "--load", "m.ckpt"}.data()), names)
              .checkpoint_flag == "--load");
}

// A byte-level token may end inside a character: "é" is C3 A9, and GPT-2 has tokens of one of them.
TEST_CASE("streamed text holds back the bytes of a character a token split, and nothing else", "[run]") {
    using run::StreamedText;
    CHECK(StreamedText::complete_prefix("") == 0);
    CHECK(StreamedText::complete_prefix("caf") == 3);
    CHECK(StreamedText::complete_prefix("caf\xC3") == 3);
    CHECK(StreamedText::complete_prefix("caf\xC3\xA9") == 5);
    CHECK(StreamedText::complete_prefix("\xE2\x82") == 0);  // two bytes of the euro sign's three
    CHECK(StreamedText::complete_prefix("\xE2\x82\xAC") == 3);
    CHECK(StreamedText::complete_prefix("a\xF0\x9F\x98") == 1);  // three of an emoji's four
    CHECK(StreamedText::complete_prefix("a\xF0\x9F\x98\x80") == 5);
    CHECK(StreamedText::complete_prefix("\xFF") == 1);  // never a character: nothing to wait for
    CHECK(StreamedText::complete_prefix("\x80\x80") == 2);
}

TEST_CASE("streamed text keeps a crafted token's escape codes off the terminal, and lines and letters on it", "[run]") {
    using run::StreamedText;
    CHECK(StreamedText::terminal_safe("line one\n\tcaf\xC3\xA9") == "line one\n\tcaf\xC3\xA9");
    CHECK(StreamedText::terminal_safe("\x1B[2J") == "\\x1B[2J");          // ESC: clear the screen
    CHECK(StreamedText::terminal_safe("ok\rforged") == "ok\\x0Dforged");  // a carriage return rewrites the line
    CHECK(StreamedText::terminal_safe("\x7F") == "\\x7F");
    CHECK(StreamedText::terminal_safe("\xC2\x9B"
                                      "2J") == "\\xC2\\x9B2J");    // CSI as a C1 control
    CHECK(StreamedText::terminal_safe("\xC2\xA0") == "\xC2\xA0");  // a no-break space stays
}

// Another run holding FILE.lock is played by a second open of the file in this process: flock
// locks belong to an open file, so the two conflict as two processes' would.
TEST_CASE("a --save another run holds is refused naming its pid; released, it is taken", "[run][io]") {
    testing::TempDir dir("output-lock");
    const std::string save = dir.file("m.ckpt"), lock = save + ".lock";
    const int other = open(lock.c_str(), O_RDWR | O_CREAT, 0644);
    REQUIRE(other >= 0);
    REQUIRE(flock(other, LOCK_EX | LOCK_NB) == 0);
    REQUIRE(write(other, "4242\n", 5) == 5);
    CHECK_THROWS_WITH(run::lock_output("--save", save), "--save: " + save +
                                                            " is being written by another run, pid 4242 (it holds " +
                                                            lock + "): wait for it to end, or save elsewhere");
    close(other);  // the other run ends (or is killed: the kernel lets go the same way)
    REQUIRE_NOTHROW(run::lock_output("--save", save));
    CHECK(testing::read_all(lock) == std::to_string(getpid()) + "\n");
    REQUIRE_NOTHROW(run::lock_output("--save", save));  // this run's own lock: taken already
    const int again = open(lock.c_str(), O_RDWR);
    CHECK(flock(again, LOCK_EX | LOCK_NB) != 0);  // held, by this process's first open
    close(again);
}

TEST_CASE("a FILE.lock that is not a run's pid is left as it is, and the run refused", "[run][io]") {
    testing::TempDir dir("user-lock");
    const std::string save = dir.file("m.ckpt"), lock = save + ".lock";
    testing::write_all(lock, "precious lock");
    CHECK_THROWS_WITH(run::lock_output("--save", save),
                      "--save: " + lock +
                          " exists and is not a run's lock file (a pid); it is never replaced: move it, "
                          "or save elsewhere");
    CHECK(testing::read_all(lock) == "precious lock");
    testing::write_all(lock, "4242\n");  // what a run killed with kill -9 leaves
    REQUIRE_NOTHROW(run::lock_output("--save", save));
    CHECK(testing::read_all(lock) == std::to_string(getpid()) + "\n");
}
