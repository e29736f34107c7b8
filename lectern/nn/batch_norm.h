#pragma once
// Batch normalisation over the feature dim (PyTorch's BatchNorm1d, channels last as every
// sequence in Lectern), the norm that 003 sets beside layer normalisation: where LayerNorm
// normalises each position by its own D features, BatchNorm normalises each feature d by its
// statistics over the batch (and, for [B, T, D], over the positions), so one position's output
// depends on what the rest of the batch holds, pads included unless a mask leaves them out.
//
// Training (over the N = B or B T rows a, or the rows the mask keeps):
//   mu = mean_rows(a),  v = mean_rows((a - mu)^2)  (biased),  y = gamma (a - mu) / sqrt(v + eps) + beta
//   running_mean <- (1 - momentum) running_mean + momentum mu
//   running_var  <- (1 - momentum) running_var  + momentum v N / (N - 1)  (unbiased)
// Evaluation: y = gamma (a - running_mean) / sqrt(running_var + eps) + beta, no batch statistics:
// the output differs between train() and eval() by how far the batch's statistics are from the
// running ones. The running statistics are saved buffers (state_dict, checkpoints), not parameters.
#include "lectern/nn/module.h"

namespace nn {

class BatchNorm1d : public Module {
public:
    // running_mean starts at 0 and running_var at 1; gamma at 1 and beta at 0 when `affine`.
    explicit BatchNorm1d(std::int64_t d, double eps = 1e-5, double momentum = 0.1, bool affine = true);
    // x [B, D] or [B, T, D]; mask (only for [B, T, D]) [B, T], of any dtype, 1 at a real position and 0 at a
    // pad: the training statistics are over the real positions alone, and every position is
    // normalised by them. The gradient flows through the statistics (training) as in PyTorch.
    Tensor forward(const Tensor& x, const Tensor& mask = Tensor()) const;
    Tensor operator()(const Tensor& x, const Tensor& mask = Tensor()) const { return forward(x, mask); }

    Tensor gamma, beta;                // [D], undefined without affine
    Tensor running_mean, running_var;  // [D], saved buffers
    double eps, momentum;
};

}  // namespace nn
