#include "reference_case.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace reference {

using namespace autograd;

Case::Case(std::string name) : name_(std::move(name)) {
    const std::string path = std::string(LECTERN_REFERENCE_DIR) + "/" + name_ + ".txt";
    std::ifstream in(path);
    INFO("reference file " << path);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "lectern-reference 1");
    while (std::getline(in, line)) {
        std::istringstream header(line);
        std::string key, kind;
        std::int64_t ndim = 0;
        header >> key >> kind >> ndim;
        Shape shape(static_cast<std::size_t>(ndim));
        for (auto& s : shape) header >> s;
        REQUIRE((!header.fail() && (kind == "f64" || kind == "i64")));
        std::string values_line;
        REQUIRE(std::getline(in, values_line));
        std::istringstream values(values_line);
        std::vector<double> v;
        for (double x; values >> x;) v.push_back(x);
        REQUIRE(static_cast<std::int64_t>(v.size()) == numel(shape));
        tensors_[key] = tensor(v, shape, kind == "f64" ? Dtype::float64 : Dtype::int64);
    }
}

Case::~Case() {
    fmt::print("reference {:<22} {:>6} values compared, largest |difference| {:.1e}\n", name_, compared_, worst_);
}

const Tensor& Case::operator[](const std::string& key) const {
    auto it = tensors_.find(key);
    INFO("reference " << name_ << " has no tensor '" << key << "'");
    REQUIRE(it != tensors_.end());
    return it->second;
}

Tensor Case::input(const std::string& key) const {
    const Tensor& t = (*this)[key];
    return t.dtype() == Dtype::float64 ? t.clone().requires_grad_() : t;
}

void Case::load_parameters(nn::Module& m, const std::string& prefix) const {
    NoGradGuard no_grad;
    for (auto& [name, p] : m.named_parameters()) {
        const Tensor& t = (*this)[prefix + name];
        INFO("parameter " << name << " is " << shape_str(p.shape()) << ", the reference's " << shape_str(t.shape()));
        REQUIRE(t.shape() == p.shape());
        Tensor target = p;
        target.copy_(t);
    }
}

void Case::compare(const std::string& key, const Tensor& got, double tol) {
    const Tensor& want = (*this)[key];
    INFO("reference " << name_ << ", " << key);
    // No gradient reached it (an expert no token chose): PyTorch's None, written as zeros.
    const Tensor value = got.defined() ? got : autograd::zeros(want.shape(), want.dtype());
    REQUIRE(value.shape() == want.shape());
    std::vector<double> a = value.to_vector(), b = want.to_vector();
    double scale = 0, worst = 0;
    std::size_t where = 0;
    for (double x : b) scale = std::max(scale, std::abs(x));
    for (std::size_t i = 0; i < a.size(); ++i) {
        double d = std::abs(a[i] - b[i]);
        if (!(d <= worst)) worst = d, where = i;  // NaN counts as the worst
    }
    INFO(fmt::format("largest difference {:.3e} at element {}: Lectern {:.17g}, PyTorch {:.17g}", worst, where,
                     a.empty() ? 0.0 : a[where], b.empty() ? 0.0 : b[where]));
    CHECK(worst <= tol * (1 + scale));
    worst_ = std::max(worst_, worst);
    compared_ += static_cast<std::int64_t>(a.size());
}

void Case::compare_gradients(const Tensor& out, const std::vector<std::pair<std::string, Tensor>>& inputs,
                             const nn::Module* m, double tol) {
    sum(out * (*this)["dout"]).backward();
    for (const auto& [key, t] : inputs) compare("grad." + key, t.grad(), tol);
    if (m)
        for (const auto& [name, p] : m->named_parameters()) compare("grad." + name, p.grad(), tol);
}

std::shared_ptr<models::Transformer> tiny_transformer(const Case& ref) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 7;
    c.n_layers = 1, c.d_model = 8, c.d_ff = 16, c.heads = 2, c.dropout = 0.0, c.norm = nn::Norm::pre;
    auto model = models::make_transformer(c);
    model->to(Dtype::float64);
    ref.load_parameters(*model);
    return model;
}

}  // namespace reference
