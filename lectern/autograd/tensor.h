#pragma once
// Tensor: a cheap handle (shared ownership) to contiguous row-major storage with
// a shape, a dtype and, when it takes part in autodiff, the graph node that made
// it. Copying a Tensor copies the handle, not the data (as in PyTorch).
// Made by factories.h and random_factories.h; checked by checks.h. The handle is
// tensor.cpp; its in-place updates are in_place.cpp, its method forms tensor_methods.cpp.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "lectern/autograd/dtype.h"
#include "lectern/autograd/shape.h"

namespace autograd {

struct Node;
struct TopK;

// A block from the caching allocator (allocator.h), freed back to it. Its
// version counts the in-place updates of its bytes (fill_, copy_, add_, mul_,
// set): a graph node notes the versions of its inputs and output when it is
// recorded, and backward() refuses to run a formula whose tensors have changed
// since (graph.h).
struct Storage {
    explicit Storage(std::size_t bytes);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    void* data;
    std::size_t bytes;
    std::uint64_t version = 0;
};

struct TensorImpl {
    std::shared_ptr<Storage> storage;
    Shape shape;
    Dtype dtype = Dtype::float32;
    bool requires_grad = false;
    bool retains_grad = false;         // a non-leaf whose gradient backward() keeps (retain_grad)
    std::shared_ptr<Node> grad_fn;     // the op that made this tensor; null for leaves
    std::shared_ptr<TensorImpl> grad;  // accumulated gradient (leaves, and non-leaves that retain it)
};

class Tensor {
public:
    Tensor() = default;  // undefined, like an empty torch::Tensor
    explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

    // Uninitialised storage of the given shape (kernels fill it).
    static Tensor empty(const Shape& shape, Dtype dtype = Dtype::float32);

    bool defined() const { return impl_ != nullptr; }
    const Shape& shape() const;
    std::int64_t dim() const { return static_cast<std::int64_t>(shape().size()); }
    std::int64_t size(std::int64_t d) const;  // negative d counts from the end
    std::int64_t numel() const;
    Dtype dtype() const;

    // Typed pointer to the first element; DtypeError if T is not the dtype.
    template <class T>
    T* data() const;
    void* raw_data() const;

    // Element access (any dtype, as double): IndexError when out of range.
    double item() const;  // the one element of a tensor with numel() == 1
    double at(const Shape& index) const;
    void set(const Shape& index, double value);
    std::vector<double> to_vector() const;

    // Autodiff.
    bool requires_grad() const;
    Tensor& requires_grad_(bool on = true);  // leaves of a floating dtype only
    bool is_leaf() const;
    // The accumulated gradient: undefined until a backward() reaches this leaf. backward()
    // keeps the gradients of leaves only, so on a non-leaf grad() is a GraphError unless
    // retain_grad() was called on it before the backward().
    Tensor grad() const;
    // Keeps this non-leaf's gradient in grad() through the next backward()s, as torch's
    // retain_grad(); on a leaf it changes nothing. GraphError if it does not require grad.
    Tensor& retain_grad();
    void zero_grad();  // forgets the accumulated gradient
    void set_grad(const Tensor& g);
    Tensor detach() const;  // same storage, no graph
    // Reverse-mode sweep from this scalar (dy = 1) or with an explicit upstream
    // gradient of this tensor's shape. Frees the graph as it goes, so a second
    // backward() through it is a GraphError; with retain_graph it keeps the graph
    // for another backward(), which adds to the gradients (torch's retain_graph=True).
    void backward(bool retain_graph = false) const;
    void backward(const Tensor& grad, bool retain_graph = false) const;

    // Copies, recorded in the graph as in PyTorch: clone's dx = dy, to()'s dx = dy converted back
    // to this tensor's dtype. A copy to int64 has no gradient and does not require grad.
    Tensor clone() const;          // same dtype, fresh storage
    Tensor to(Dtype dtype) const;  // converted copy

    // In-place updates for optimizers and initialisers. They are not recorded:
    // on a tensor that requires grad they need a NoGradGuard (GraphError
    // otherwise), as in PyTorch. Each bumps the storage's version, so a
    // backward() that needs the old values refuses instead of using the new.
    Tensor& fill_(double value);
    Tensor& copy_(const Tensor& src);                     // same shape and dtype
    Tensor& add_(const Tensor& other, double alpha = 1);  // this += alpha * other
    Tensor& mul_(double factor);

    // Method forms of common ops (see ops/*.h for the formulas).
    Tensor reshape(const Shape& shape) const;
    Tensor transpose(std::int64_t d0, std::int64_t d1) const;
    Tensor permute(const Shape& dims) const;
    Tensor unsqueeze(std::int64_t dim) const;
    Tensor squeeze(std::int64_t dim) const;
    Tensor narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const;
    Tensor sum() const;
    Tensor sum(std::int64_t dim, bool keepdim = false) const;
    Tensor mean() const;
    Tensor mean(std::int64_t dim, bool keepdim = false) const;
    Tensor sum(const Shape& dims, bool keepdim = false) const;
    Tensor mean(const Shape& dims, bool keepdim = false) const;
    Tensor max(std::int64_t dim, bool keepdim = false) const;
    Tensor argmax(std::int64_t dim, bool keepdim = false) const;
    Tensor min(std::int64_t dim, bool keepdim = false) const;
    Tensor argmin(std::int64_t dim, bool keepdim = false) const;
    Tensor prod(std::int64_t dim, bool keepdim = false) const;
    Tensor var() const;
    Tensor var(std::int64_t dim, bool keepdim = false, std::int64_t correction = 1) const;
    Tensor std() const;
    Tensor std(std::int64_t dim, bool keepdim = false, std::int64_t correction = 1) const;
    Tensor select(std::int64_t dim, std::int64_t index) const;
    Tensor operator[](std::int64_t index) const;  // select(0, index), as x[i] in PyTorch
    Tensor operator[](const Tensor& mask) const;  // boolean_index(x, mask), as x[mask] in PyTorch
    Tensor index(const Tensor& mask) const;       // the same, by name
    Tensor slice(std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step = 1) const;
    Tensor gather(std::int64_t dim, const Tensor& index) const;
    Tensor index_select(std::int64_t dim, const Tensor& index) const;
    Tensor masked_fill(const Tensor& mask, double value) const;
    Tensor masked_select(const Tensor& mask) const;
    TopK topk(std::int64_t k, std::int64_t dim = -1, bool largest = true) const;  // TopK: ops/topk.h
    Tensor matmul(const Tensor& other) const;
    Tensor softmax(std::int64_t dim) const;
    Tensor log_softmax(std::int64_t dim) const;
    Tensor pow(double p) const;
    Tensor exp() const;
    Tensor log() const;
    Tensor log1p() const;
    Tensor sqrt() const;
    Tensor abs() const;
    Tensor sin() const;
    Tensor cos() const;
    Tensor tanh() const;
    Tensor sigmoid() const;
    Tensor relu() const;
    Tensor clamp(double lo, double hi) const;
    Tensor maximum(const Tensor& other) const;
    Tensor minimum(const Tensor& other) const;
    Tensor eq(const Tensor& other) const;
    Tensor ne(const Tensor& other) const;
    Tensor lt(const Tensor& other) const;
    Tensor gt(const Tensor& other) const;
    Tensor le(const Tensor& other) const;
    Tensor ge(const Tensor& other) const;

    TensorImpl* impl() const { return impl_.get(); }
    const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

private:
    void check_defined(const char* what) const;
    std::shared_ptr<TensorImpl> impl_;
};

}  // namespace autograd
