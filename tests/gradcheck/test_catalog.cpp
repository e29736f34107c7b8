// The test suite runs the same gradient checks as the report program.
#include <catch2/catch.hpp>

#include "catalog.h"

TEST_CASE("every op and module passes its float64 gradient check", "[gradcheck]") {
    for (const auto& c : gradcheck_catalog::all_cases()) {
        DYNAMIC_SECTION(c.layer << " " << c.name << " " << c.shapes) {
            autograd::GradcheckReport r = c.run();
            INFO(r.message());
            CHECK(r.passed);
        }
    }
}
