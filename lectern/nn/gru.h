#pragma once
// A gated recurrent unit (Cho et al. 2014, in PyTorch's form): 004 §15.5.5 Table 15.1's recurrent
// layer, O(n d^2) work in n steps that must run one after another, and a path of t - s steps
// from x_s to h_t. For x_t [B, in] and h_0 = 0:
//   r_t = sigmoid(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)          reset gate
//   z_t = sigmoid(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)          update gate
//   n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))     candidate
//   h_t = (1 - z_t) * n_t + z_t * h_{t-1}
// W_i = [W_ir; W_iz; W_in] is w_ih.weight [3H, in], W_h = [W_hr; W_hz; W_hn] is w_hh.weight
// [3H, H] (PyTorch's weight_ih_l0 and weight_hh_l0), every weight and bias ~ U(-1/sqrt(H), 1/sqrt(H)).
#include <memory>
#include <vector>

#include "lectern/nn/linear.h"

namespace nn {

class GRU : public Module {
public:
    GRU(std::int64_t input_size, std::int64_t hidden_size, autograd::Generator& gen = autograd::default_generator());

    // One step of the equations above: x_t [B, in] and h_{t-1} [B, H] -> h_t [B, H]. The step a
    // decoder takes when its next input depends on its last output (models/rnn_seq2seq.h).
    Tensor step(const Tensor& x, const Tensor& h) const;
    // One tensor per step, xs[t] [B, in] -> hs[t] = h_t [B, H]: O(T (in + H) H) work forward
    // and backward, Table 15.1's O(n d^2).
    std::vector<Tensor> forward_steps(const std::vector<Tensor>& xs) const;
    // x [B, T, in] -> every h_t, [B, T, H]: forward_steps on x's T slices. Each slice's backward
    // writes a gradient as large as x (select's), which adds O(T^2 B in) to the backward; where T
    // is large, keep the steps apart with forward_steps.
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    std::shared_ptr<Linear> w_ih, w_hh;
    std::int64_t hidden;
};

}  // namespace nn
