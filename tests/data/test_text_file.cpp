// A text file read whole within a bound (lectern/data/text_file.h).
#include <filesystem>
#include <fstream>

#include "check.h"
#include "lectern/data/text_file.h"

using namespace autograd;

TEST_CASE("a text file is read whole, and one over the bound is refused", "[data][errors]") {
    const std::string path = "text_file_test_bound.txt";
    std::ofstream(path) << std::string(3000, 'x');
    CHECK(data::read_text_file(path).size() == 3000);
    CHECK_THROWS_WITH(data::read_text_file(path, 2999), Catch::Contains("holds more than 2999 bytes"));
    CHECK_THROWS_WITH(data::read_text_file("/dev/zero", 1 << 20), Catch::Contains("holds more than 1048576 bytes"));
    std::filesystem::remove(path);
    CHECK_THROWS_WITH(data::read_text_file(path), Catch::Contains("cannot read " + path));
}
