#include "models/gpt2.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "nn/init.h"

namespace models {

using namespace autograd;

GPTConfig gpt2_config(const std::string& size) {
    struct Size {
        const char* name;
        std::int64_t n_layers, d_model;
    };
    for (auto s : {Size{"124M", 12, 768}, Size{"355M", 24, 1024}, Size{"774M", 36, 1280}, Size{"1558M", 48, 1600}}) {
        if (size != s.name) continue;
        GPTConfig c;
        c.vocab = 50257;
        c.context = 1024;
        c.d_model = s.d_model;
        c.n_layers = s.n_layers;
        c.heads = s.d_model / 64;
        c.d_ff = 4 * s.d_model;
        c.activation = nn::Activation::gelu_tanh;
        return c;
    }
    throw ValueError(fmt::format("gpt2_config: size '{}' is not one of 124M, 355M, 774M, 1558M", size));
}

namespace {

// One tensor of the file and where it goes: the parameter, and which block of
// the file's columns (Conv1D weights, transposed) or entries (biases) it takes.
struct Slot {
    std::string name;  // in the file, without prefix
    Shape file_shape;
    Tensor target;     // a parameter of the model
    bool conv1d;       // weight stored [in, out]: target = file[:, begin : begin + n]^T
    std::int64_t begin = 0;  // first column (conv1d) or entry (bias) taken
};

// GPT-2's tensors in the file's layout, each with the parameters they fill.
std::vector<Slot> slots(const GPT& m) {
    const auto& c = m.config;
    const std::int64_t D = c.d_model, F = c.d_ff;
    std::vector<Slot> s = {{"wte.weight", {c.vocab, D}, m.tok_embed->weight, false},
                           {"wpe.weight", {c.context, D}, m.learned_pos->weight, false}};
    for (std::size_t l = 0; l < m.blocks->size(); ++l) {
        const GPTBlock& b = (*m.blocks)[l];
        const std::string h = fmt::format("h.{}.", l);
        const nn::LayerNorm &ln_1 = *(*b.sublayer)[0].norm, &ln_2 = *(*b.sublayer)[1].norm;
        s.push_back({h + "ln_1.weight", {D}, ln_1.gamma, false});
        s.push_back({h + "ln_1.bias", {D}, ln_1.beta, false});
        const nn::Linear* qkv[3] = {b.attn->w_q.get(), b.attn->w_k.get(), b.attn->w_v.get()};
        for (std::int64_t k = 0; k < 3; ++k) {
            s.push_back({h + "attn.c_attn.weight", {D, 3 * D}, qkv[k]->weight, true, k * D});
            s.push_back({h + "attn.c_attn.bias", {3 * D}, qkv[k]->bias, false, k * D});
        }
        s.push_back({h + "attn.c_proj.weight", {D, D}, b.attn->w_o->weight, true});
        s.push_back({h + "attn.c_proj.bias", {D}, b.attn->w_o->bias, false});
        s.push_back({h + "ln_2.weight", {D}, ln_2.gamma, false});
        s.push_back({h + "ln_2.bias", {D}, ln_2.beta, false});
        s.push_back({h + "mlp.c_fc.weight", {D, F}, b.mlp->w_1->weight, true});
        s.push_back({h + "mlp.c_fc.bias", {F}, b.mlp->w_1->bias, false});
        s.push_back({h + "mlp.c_proj.weight", {F, D}, b.mlp->w_2->weight, true});
        s.push_back({h + "mlp.c_proj.bias", {D}, b.mlp->w_2->bias, false});
    }
    s.push_back({"ln_f.weight", {D}, m.norm->gamma, false});
    s.push_back({"ln_f.bias", {D}, m.norm->beta, false});
    if (!c.tie_weights) s.push_back({"lm_head.weight", {c.vocab, D}, m.head->weight, false});
    return s;
}

// The tensors GPT-2 files hold that the model does not need.
bool ignored(const std::string& name, bool tied) {
    auto ends_with = [&](const std::string& tail) {
        return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return ends_with(".attn.bias") || ends_with(".attn.masked_bias") || (tied && name == "lm_head.weight");
}

// "transformer." when the file holds the model under GPT2LMHeadModel's prefix.
std::string prefix_of(const nn::SafetensorsFile& file) {
    return file.entries().count("transformer.wte.weight") ? "transformer." : "";
}

const nn::SafetensorsEntry& entry(const nn::SafetensorsFile& file, const std::string& name) {
    auto it = file.entries().find(name);
    if (it == file.entries().end())
        throw nn::SafetensorsError(fmt::format("GPT-2 weights: {} has no tensor '{}'", file.path(), name));
    return it->second;
}

// A Conv1D slot: the parameter [out, in] is the file's columns [begin, begin + out) of [in, cols],
// transposed; any other slot: the parameter is the file's entries [begin, begin + numel).
template <class T> void copy_from_file(const Slot& s, const Tensor& file_tensor) {
    const T* src = file_tensor.data<T>();
    T* dst = s.target.data<T>();
    if (s.conv1d) {
        const std::int64_t in = s.file_shape[0], cols = s.file_shape[1], out = s.target.size(0);
        for (std::int64_t o = 0; o < out; ++o)
            for (std::int64_t i = 0; i < in; ++i) dst[o * in + i] = src[i * cols + s.begin + o];
    } else {
        std::copy(src + s.begin, src + s.begin + s.target.numel(), dst);
    }
}

// The inverse of copy_from_file: the parameter into its place in the file's tensor.
template <class T> void copy_to_file(const Slot& s, Tensor& file_tensor) {
    const T* src = s.target.data<T>();
    T* dst = file_tensor.data<T>();
    if (s.conv1d) {
        const std::int64_t in = s.file_shape[0], cols = s.file_shape[1], out = s.target.size(0);
        for (std::int64_t o = 0; o < out; ++o)
            for (std::int64_t i = 0; i < in; ++i) dst[i * cols + s.begin + o] = src[o * in + i];
    } else {
        std::copy(src, src + s.target.numel(), dst + s.begin);
    }
}

}  // namespace

GPTConfig gpt2_config_from_weights(const nn::SafetensorsFile& file) {
    const std::string p = prefix_of(file);
    const Shape wte = entry(file, p + "wte.weight").shape, wpe = entry(file, p + "wpe.weight").shape;
    if (wte.size() != 2 || wpe.size() != 2 || wte[1] != wpe[1] || wte[1] % 64 != 0 || wte[1] == 0)
        throw nn::SafetensorsError(fmt::format("GPT-2 weights: {}: wte {} and wpe {} must be [vocab, D] and [context, D], "
                                               "D a multiple of 64", file.path(), shape_str(wte), shape_str(wpe)));
    GPTConfig c;
    c.vocab = wte[0];
    c.context = wpe[0];
    c.d_model = wte[1];
    c.heads = c.d_model / 64;
    c.activation = nn::Activation::gelu_tanh;
    c.n_layers = 0;
    while (file.entries().count(fmt::format("{}h.{}.ln_1.weight", p, c.n_layers))) ++c.n_layers;
    if (c.n_layers == 0) throw nn::SafetensorsError(fmt::format("GPT-2 weights: {} has no tensor '{}h.0.ln_1.weight'", file.path(), p));
    const Shape fc = entry(file, p + "h.0.mlp.c_fc.weight").shape;
    if (fc.size() != 2 || fc[0] != c.d_model || fc[1] <= 0)
        throw nn::SafetensorsError(fmt::format("GPT-2 weights: {}: tensor '{}h.0.mlp.c_fc.weight' is {}, not [{}, d_ff]",
                                               file.path(), p, shape_str(fc), c.d_model));
    c.d_ff = fc[1];
    return c;
}

void load_gpt2_weights(GPT& model, const nn::SafetensorsFile& file) {
    if (!model.learned_pos || model.config.experts > 0)
        throw ValueError("load_gpt2_weights: the model needs learned positions and an MLP in every block, as GPT-2");
    const std::string p = prefix_of(file);
    const std::vector<Slot> all = slots(model);
    std::set<std::string> needed;
    for (const Slot& s : all) {  // every shape checked before anything is read
        const std::string name = s.name == "lm_head.weight" ? s.name : p + s.name;
        const Shape& shape = entry(file, name).shape;
        if (shape != s.file_shape)
            throw nn::SafetensorsError(fmt::format("GPT-2 weights: {}: tensor '{}' is {}, the model needs {}", file.path(),
                                                   name, shape_str(shape), shape_str(s.file_shape)));
        needed.insert(name);
    }
    for (const auto& [name, e] : file.entries()) {
        std::string bare = name.rfind(p, 0) == 0 ? name.substr(p.size()) : name;
        if (!needed.count(name) && !ignored(bare, model.config.tie_weights))
            throw nn::SafetensorsError(fmt::format("GPT-2 weights: {}: unexpected tensor '{}'", file.path(), name));
    }
    NoGradGuard no_grad;
    std::string last;
    Tensor data;
    for (const Slot& s : all) {  // slots of one file tensor are adjacent: read it once
        const std::string name = s.name == "lm_head.weight" ? s.name : p + s.name;
        if (name != last) data = file.read(name, model.dtype());
        last = name;
        if (model.dtype() == Dtype::float32)
            copy_from_file<float>(s, data);
        else
            copy_from_file<double>(s, data);
    }
}

std::shared_ptr<GPT> load_gpt2(const std::string& path, Dtype dtype) {
    nn::SafetensorsFile file(path);
    std::shared_ptr<GPT> model;
    {
        nn::init::SkipInitGuard skip;  // the file holds every parameter
        model = std::make_shared<GPT>(gpt2_config_from_weights(file));
    }
    model->to(dtype);
    load_gpt2_weights(*model, file);
    return model;
}

void save_gpt2_weights(const GPT& model, const std::string& path) {
    if (!model.learned_pos || model.config.experts > 0)
        throw ValueError("save_gpt2_weights: GPT-2's layout needs learned positions and an MLP in every block");
    std::map<std::string, Tensor> tensors;
    for (const Slot& s : slots(model)) {
        Tensor& t = tensors[s.name];
        if (!t.defined()) t = zeros(s.file_shape, model.dtype());
        if (model.dtype() == Dtype::float32)
            copy_to_file<float>(s, t);
        else
            copy_to_file<double>(s, t);
    }
    nn::write_safetensors(path, tensors);
}

}  // namespace models
