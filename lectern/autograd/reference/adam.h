#pragma once
// One element's Adam step (Kingma and Ba, Algorithm 1; PyTorch's Adam and AdamW): the
// plain reference. float64 runs it; nn/optim/adam.cpp's adam_elements is its float32 twin,
// tested equal in tests/nn/test_optim.cpp (the optimizer lives in nn, above autograd's tests).
//   g <- g + wd p                    (Adam's L2 weight decay)   or
//   p <- p - lr wd p                 (AdamW's decoupled decay)
//   m <- b1 m + (1 - b1) g,          v <- b2 v + (1 - b2) g^2
//   m_hat = m / (1 - b1^t),          v_hat = v / (1 - b2^t)
//   p <- p - lr m_hat / (sqrt(v_hat) + eps)
#include <cmath>

namespace autograd::reference {

struct AdamStep {
    double lr, beta1, beta2, eps, weight_decay;
    double t;        // this parameter's step count, from 1
    bool decoupled;  // AdamW
};

template <class T>
void adam_update(T& p, T g, T& m, T& v, const AdamStep& a) {
    const T lr = static_cast<T>(a.lr), b1 = static_cast<T>(a.beta1), b2 = static_cast<T>(a.beta2);
    const T wd = static_cast<T>(a.weight_decay), eps = static_cast<T>(a.eps);
    if (a.decoupled) p -= lr * wd * p;
    else g += wd * p;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g * g;
    const T m_hat = m / static_cast<T>(1 - std::pow(a.beta1, a.t));
    const T v_hat = v / static_cast<T>(1 - std::pow(a.beta2, a.t));
    p -= lr * m_hat / (std::sqrt(v_hat) + eps);
}

}  // namespace autograd::reference
