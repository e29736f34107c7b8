#pragma once
// Printing tensors through fmt: fmt::print("{}\n", t) gives
// tensor([[1, 2], [3, 4]], dtype=float32); a shape prints as [2, 2]. std::cout << t
// writes the same text.
#include <iosfwd>
#include <string>

#include <fmt/format.h>

#include "lectern/autograd/tensor.h"

namespace autograd {
std::string to_string(const Tensor& t);
std::ostream& operator<<(std::ostream& os, const Tensor& t);
}  // namespace autograd

template <>
struct fmt::formatter<autograd::Tensor> : fmt::formatter<std::string> {
    auto format(const autograd::Tensor& t, format_context& ctx) const {
        return fmt::formatter<std::string>::format(autograd::to_string(t), ctx);
    }
};
