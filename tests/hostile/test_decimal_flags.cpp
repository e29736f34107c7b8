// Integer flags are decimal. CLI11 alone reads "010" as
// octal 8, "0x3" as 3 and " 3" as 3, and refuses "08" as out of range; the
// values --resume and --load adopt from a checkpoint's flag record are held
// to the same rule, and a bad one is named as the file's.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lectern/run/flags/flags.h"
#include "lectern/run/flags/recorded_flags.h"

namespace {

struct Program {
    CLI::App app{"test"};
    std::int64_t epochs = 1;
    std::uint64_t count = 0;
    int plain = 0;
    Program() {
        app.add_option("--epochs", epochs)->check(CLI::Range(1, 1000));
        app.add_option("--count", count);
        app.add_option("--plain", plain);
        run::require_decimal_integers(app);
    }
    // What parsing these flags says is wrong, or "".
    std::string error(std::vector<std::string> args) {
        args.insert(args.begin(), "test");
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        try {
            app.parse(static_cast<int>(argv.size()), argv.data());
        } catch (const CLI::ParseError& e) {
            return e.what();
        }
        return "";
    }
};

}  // namespace

TEST_CASE("integer flags take decimal digits alone: no octal, hex or spaces", "[run][hostile]") {
    CHECK(Program().error({"--epochs", "010"}) ==
          "--epochs: '010' begins with 0: write a whole number in decimal, without "
          "leading zeros");
    CHECK(Program().error({"--epochs", "08"}) ==
          "--epochs: '08' begins with 0: write a whole number in decimal, without "
          "leading zeros");
    CHECK(Program().error({"--plain", "0x3"}) == "--plain: '0x3' is not a whole number in decimal digits");
    CHECK(Program().error({"--epochs", " 3"}) == "--epochs: ' 3' is not a whole number in decimal digits");
    CHECK(Program().error({"--count", "-1"}) == "--count: '-1' is not a whole number in decimal digits");
    CHECK(Program().error({"--plain", ""}) == "--plain: '' is not a whole number in decimal digits");
    Program p;
    CHECK(p.error({"--epochs", "10", "--plain", "-3", "--count", "0"}) == "");
    CHECK((p.epochs == 10 && p.plain == -3 && p.count == 0));
    CHECK(Program().error({"--epochs", "1001"}).find("not in range") !=
          std::string::npos);  // the flag's own check still runs
}

TEST_CASE("a checkpoint's flag record is decimal too, and a bad one is named as the file's", "[run][hostile]") {
    Program p;
    REQUIRE(p.error({}) == "");
    nn::RunRecord record;
    record.text["program"] = "test";
    record.text["flag.--epochs"] = "010";
    CHECK_THROWS_WITH(
        run::adopt_flags(p.app, record, "test", {{"--epochs", run::Recorded::training, std::nullopt}}, "--resume",
                         "m.ckpt"),
        "--resume: m.ckpt is damaged: its record of --epochs is not a value the flag takes (--epochs: '010' "
        "begins with 0: write a whole number in decimal, without leading zeros)");
    Program q;
    REQUIRE(q.error({}) == "");
    record.text["flag.--epochs"] = "12";
    CHECK(run::adopt_flags(q.app, record, "test", {{"--epochs", run::Recorded::training, std::nullopt}}, "--resume",
                           "m.ckpt") == std::vector<std::string>{"--epochs 12"});
    CHECK(q.epochs == 12);
}
