#pragma once
// Elementwise arithmetic with NumPy broadcasting (docs/design.md, "The graph is built as the ops run").
// The backward of a broadcast operand sums the gradient back to its shape
// (sum_to, broadcast.h). Both operands must have the same floating dtype; a
// double operand is a scalar of the tensor's dtype.
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = a + b;  da = dy, db = dy  (each summed back to its operand's shape)
Tensor add(const Tensor& a, const Tensor& b);
// y = a - b;  da = dy, db = -dy
Tensor sub(const Tensor& a, const Tensor& b);
// y = a * b;  da = dy * b, db = dy * a
Tensor mul(const Tensor& a, const Tensor& b);
// y = a / b;  da = dy / b, db = -dy * a / b^2
Tensor div(const Tensor& a, const Tensor& b);
// y = -x;  dx = -dy
Tensor neg(const Tensor& x);

Tensor add(const Tensor& a, double b);
Tensor sub(const Tensor& a, double b);
Tensor sub(double a, const Tensor& b);
Tensor mul(const Tensor& a, double b);
Tensor div(const Tensor& a, double b);
Tensor div(double a, const Tensor& b);

inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& x) { return neg(x); }
inline Tensor operator+(const Tensor& a, double b) { return add(a, b); }
inline Tensor operator+(double a, const Tensor& b) { return add(b, a); }
inline Tensor operator-(const Tensor& a, double b) { return sub(a, b); }
inline Tensor operator-(double a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, double b) { return mul(a, b); }
inline Tensor operator*(double a, const Tensor& b) { return mul(b, a); }
inline Tensor operator/(const Tensor& a, double b) { return div(a, b); }
inline Tensor operator/(double a, const Tensor& b) { return div(a, b); }

}  // namespace autograd
