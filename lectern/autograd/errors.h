#pragma once
// Typed errors thrown by every op on bad input. Each message names the op and
// the operands, e.g. "matmul: inner dimensions differ: [2, 3] @ [4, 5]".
#include <stdexcept>
#include <string>

namespace autograd {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// Shapes that do not fit together (broadcasting, matmul, concat, reshape).
struct ShapeError : Error {
    using Error::Error;
};
// An operand of the wrong element type (e.g. float32 mixed with float64).
struct DtypeError : Error {
    using Error::Error;
};
// A dimension or an element index outside its range.
struct IndexError : Error {
    using Error::Error;
};
// An argument whose value is not allowed (a probability outside [0, 1), ...).
struct ValueError : Error {
    using Error::Error;
};
// Misuse of the autodiff graph (backward through a freed graph, on a
// non-scalar without an upstream gradient, ...).
struct GraphError : Error {
    using Error::Error;
};
// A NaN or an infinity found by anomaly mode (AnomalyGuard, autograd/anomaly.h)
// in an op's output or gradient.
struct AnomalyError : Error {
    using Error::Error;
};

}  // namespace autograd
