#include "catalog.h"

namespace gradcheck_catalog {

std::vector<Case> all_cases() {
    std::vector<Case> cases = op_cases();
    for (Case& c : module_cases()) cases.push_back(std::move(c));
    for (Case& c : image_cases()) cases.push_back(std::move(c));
    return cases;
}

}  // namespace gradcheck_catalog
