// The fortunes corpus (lectern/data/fortunes.h): files joined, overstrikes and bells removed.
#include <filesystem>
#include <fstream>

#include "check.h"
#include "lectern/data/fortunes.h"

using namespace autograd;

TEST_CASE("fortunes: files joined by a '%' line, overstrikes and bells removed", "[data]") {
    const std::string dir = "fortunes_test_files";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const std::string& name : data::kFortuneFiles) {
        std::ofstream out(dir + "/" + name);
        if (name == "computers") out << "no ____\b\b\b\bmore\a bugs\n%\nsecond\n";
        if (name == "cookie") out << "third\n";
    }
    CHECK(data::read_fortunes(dir) == "no more bugs\n%\nsecond\n%\nthird\n");
    std::filesystem::remove(dir + "/zippy");
    CHECK_THROWS_WITH(data::read_fortunes(dir), Catch::Contains("apt-get install fortunes"));
    std::filesystem::remove_all(dir);
}
