#pragma once
// Picking and placing elements by an index along one dim (torch.gather, scatter, scatter_add).
// `index` is int64 of x's rank; along every other dim it is no larger than x (and than src);
// each entry is in [0, x.size(dim)). IndexError or ShapeError naming the bad entry or dim
// otherwise. Written for dim 0 of a 3-D x (the others alike):
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

// y[i][j][k] = x[index[i][j][k]][j][k], y of index's shape (e.g. the log-probability of each
// row's target: gather(logp, 1, targets.unsqueeze(1)));  dx = scatter_add(zeros, dim, index, dy)
Tensor gather(const Tensor& x, std::int64_t dim, const Tensor& index);
// y = x, then y[index[i][j][k]][j][k] += src[i][j][k] for every entry of index (a position
// indexed twice gets both);  dx = dy,  dsrc = gather(dy, dim, index)
Tensor scatter_add(const Tensor& x, std::int64_t dim, const Tensor& index, const Tensor& src);
// y = x, then y[index[i][j][k]][j][k] = src[i][j][k], in the order of index's elements (a
// position indexed twice keeps the last);  dx = dy, 0 where written;  dsrc = gather(dy, dim, index)
Tensor scatter(const Tensor& x, std::int64_t dim, const Tensor& index, const Tensor& src);

}  // namespace autograd
