#include "lectern/models/gpt2.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "lectern/nn/init.h"
#include "lectern/autograd/printable.h"

namespace models {

using namespace autograd;

namespace {

// One tensor of the file and the GPT parameter it fills: the whole parameter,
// from a block of the file's columns (Conv1D weights, transposed) or entries (biases).
struct Slot {
    std::string name;  // in the file, without prefix
    Shape file_shape;
    std::string parameter;  // the GPT's name for it (Module::named_parameters)
    Shape parameter_shape;
    bool conv1d = false;     // weight stored [in, out]: parameter = file[:, begin : begin + out]^T
    std::int64_t begin = 0;  // first column (conv1d) or entry (bias) taken
};

// GPT-2's tensors in the file's layout, beside the GPT parameters they fill.
// From the configuration alone, so that a file is checked before a model is
// built. The slots of one file tensor are adjacent: it is read once.
std::vector<Slot> slots(const GPTConfig& c) {
    const std::int64_t V = c.vocab, P = c.context, D = c.d_model, F = c.d_ff;
    std::vector<Slot> s = {{"wte.weight", {V, D}, "tok_embed.weight", {V, D}},
                           {"wpe.weight", {P, D}, "pos.weight", {P, D}}};
    for (std::int64_t l = 0; l < c.n_layers; ++l) {
        const std::string h = fmt::format("h.{}.", l), b = fmt::format("blocks.{}.", l);
        s.push_back({h + "ln_1.weight", {D}, b + "sublayer.0.norm.gamma", {D}});
        s.push_back({h + "ln_1.bias", {D}, b + "sublayer.0.norm.beta", {D}});
        const std::string qkv[3] = {b + "attn.w_q.", b + "attn.w_k.", b + "attn.w_v."};
        for (std::int64_t k = 0; k < 3; ++k)
            s.push_back({h + "attn.c_attn.weight", {D, 3 * D}, qkv[k] + "weight", {D, D}, true, k * D});
        for (std::int64_t k = 0; k < 3; ++k)
            s.push_back({h + "attn.c_attn.bias", {3 * D}, qkv[k] + "bias", {D}, false, k * D});
        s.push_back({h + "attn.c_proj.weight", {D, D}, b + "attn.w_o.weight", {D, D}, true});
        s.push_back({h + "attn.c_proj.bias", {D}, b + "attn.w_o.bias", {D}});
        s.push_back({h + "ln_2.weight", {D}, b + "sublayer.1.norm.gamma", {D}});
        s.push_back({h + "ln_2.bias", {D}, b + "sublayer.1.norm.beta", {D}});
        s.push_back({h + "mlp.c_fc.weight", {D, F}, b + "mlp.w_1.weight", {F, D}, true});
        s.push_back({h + "mlp.c_fc.bias", {F}, b + "mlp.w_1.bias", {F}});
        s.push_back({h + "mlp.c_proj.weight", {F, D}, b + "mlp.w_2.weight", {D, F}, true});
        s.push_back({h + "mlp.c_proj.bias", {D}, b + "mlp.w_2.bias", {D}});
    }
    s.push_back({"ln_f.weight", {D}, "norm.gamma", {D}});
    s.push_back({"ln_f.bias", {D}, "norm.beta", {D}});
    if (!c.tie_weights) s.push_back({"lm_head.weight", {V, D}, "head.weight", {V, D}});
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

// A slot's tensor in the file: lm_head sits outside the prefix.
std::string file_name(const Slot& s, const std::string& prefix) {
    return s.name == "lm_head.weight" ? s.name : prefix + s.name;
}

const nn::SafetensorsEntry& entry(const nn::SafetensorsFile& file, const std::string& name) {
    auto it = file.entries().find(name);
    if (it == file.entries().end())
        throw nn::SafetensorsError(fmt::format("GPT-2 weights: {} has no tensor '{}'", file.path(), name));
    return it->second;
}

// 1 + the largest l of the file's names "h.l. ..." (0 when there are none): the
// layers the file describes, however incompletely.
std::int64_t layers_in(const nn::SafetensorsFile& file, const std::string& prefix) {
    const std::string h = prefix + "h.";
    std::int64_t layers = 0;
    for (const auto& [name, e] : file.entries()) {
        if (name.rfind(h, 0) != 0) continue;
        std::int64_t l = 0;
        const char *first = name.data() + h.size(), *last = name.data() + name.size();
        auto [end, error] = std::from_chars(first, last, l);
        if (error == std::errc() && end != first && end != last && *end == '.' && l >= 0)
            layers = std::max(layers, l + 1);
    }
    return layers;
}

// Copies the parameter `s` fills from its file tensor: a Conv1D slot is the
// file's columns [begin, begin + out) of [in, cols], transposed; any other
// slot the file's entries [begin, begin + numel).
template <class T>
void copy_from_file(const Slot& s, const Tensor& file_tensor, Tensor& parameter) {
    const T* src = file_tensor.data<T>();
    T* dst = parameter.data<T>();
    if (s.conv1d) {
        const std::int64_t in = s.file_shape[0], cols = s.file_shape[1], out = parameter.size(0);
        for (std::int64_t o = 0; o < out; ++o)
            for (std::int64_t i = 0; i < in; ++i) dst[o * in + i] = src[i * cols + s.begin + o];
    } else {
        std::copy(src + s.begin, src + s.begin + parameter.numel(), dst);
    }
}

// The inverse of copy_from_file: the parameter into its place in the file's tensor.
template <class T>
void copy_to_file(const Slot& s, const Tensor& parameter, Tensor& file_tensor) {
    const T* src = parameter.data<T>();
    T* dst = file_tensor.data<T>();
    if (s.conv1d) {
        const std::int64_t in = s.file_shape[0], cols = s.file_shape[1], out = parameter.size(0);
        for (std::int64_t o = 0; o < out; ++o)
            for (std::int64_t i = 0; i < in; ++i) dst[i * cols + s.begin + o] = src[o * in + i];
    } else {
        std::copy(src, src + parameter.numel(), dst + s.begin);
    }
}

// The model's parameters by the names slots() gives them, each checked to
// have the shape its slot fills.
std::map<std::string, Tensor> parameters_of(const GPT& model, const std::vector<Slot>& all, const char* caller) {
    const auto named = model.named_parameters();
    std::map<std::string, Tensor> by_name(named.begin(), named.end());
    for (const Slot& s : all) {
        auto it = by_name.find(s.parameter);
        if (it == by_name.end() || it->second.shape() != s.parameter_shape)
            throw ValueError(fmt::format("{}: the model's parameter '{}' is {}, GPT-2's layout needs {}", caller,
                                         s.parameter, it == by_name.end() ? "missing" : shape_str(it->second.shape()),
                                         shape_str(s.parameter_shape)));
    }
    return by_name;
}

// What a config.json says against the tensors it describes, so that a
// contradiction names the field as well as the tensor.
void check_config_against_weights(const GPTConfig& c, const std::string& config_json, const nn::SafetensorsFile& file) {
    const std::string p = prefix_of(file);
    struct Size {
        const char* field;
        std::int64_t value;
        const char* tensor;
        std::size_t dim;
    };
    for (const Size& s :
         {Size{"vocab_size", c.vocab, "wte.weight", 0}, Size{"n_embd", c.d_model, "wte.weight", 1},
          Size{"n_positions", c.context, "wpe.weight", 0}, Size{"n_inner", c.d_ff, "h.0.mlp.c_fc.weight", 1}}) {
        const Shape& shape = entry(file, p + s.tensor).shape;
        if (shape.size() != 2 || shape[s.dim] != s.value)
            throw nn::SafetensorsError(fmt::format("GPT-2: {} says {} {}, {}: {}{} is {}", config_json, s.field,
                                                   s.value, file.path(), p, s.tensor, shape_str(shape)));
    }
    if (const std::int64_t layers = layers_in(file, p); layers != c.n_layers)
        throw nn::SafetensorsError(fmt::format("GPT-2: {} says n_layer {}, {} holds {} layers ({}h.0 to h.{})",
                                               config_json, c.n_layers, file.path(), layers, p, layers - 1));
    if (!c.tie_weights && !file.entries().count("lm_head.weight"))
        throw nn::SafetensorsError(fmt::format("GPT-2: {} says tie_word_embeddings false, {} has no lm_head.weight",
                                               config_json, file.path()));
}

}  // namespace

void check_gpt2_weights(const GPTConfig& c, const nn::SafetensorsFile& file) {
    auto fail = [&](const std::string& what) {
        return nn::SafetensorsError(fmt::format("GPT-2 weights: {}: {}", file.path(), what));
    };
    if (c.vocab < 1 || c.context < 1 || c.d_model < 1 || c.n_layers < 1 || c.d_ff < 1 || c.heads < 1 ||
        c.d_model % c.heads)
        throw ValueError(
            fmt::format("GPT-2 weights: {}: a model of vocab {}, context {}, d_model {}, {} layers, d_ff {} "
                        "and {} heads cannot hold them: every size must be positive, the heads dividing d_model",
                        file.path(), c.vocab, c.context, c.d_model, c.n_layers, c.d_ff, c.heads));
    double values = 0;
    for (const auto& [name, e] : file.entries()) {
        double n = 1;
        for (std::int64_t size : e.shape) n *= static_cast<double>(size);
        values += n;
    }
    if (const double needed = c.parameter_count(); needed > values)
        throw fail(
            fmt::format("holds {:.4g} values, fewer than the {:.4g} parameters of a GPT-2 of vocab {}, context {}, "
                        "d_model {}, {} layers and d_ff {}",
                        values, needed, c.vocab, c.context, c.d_model, c.n_layers, c.d_ff));
    const std::string p = prefix_of(file);
    std::set<std::string> needed;
    for (const Slot& s : slots(c)) {
        const std::string name = file_name(s, p);
        const Shape& shape = entry(file, name).shape;
        if (shape != s.file_shape)
            throw fail(
                fmt::format("tensor '{}' is {}, the model needs {}", name, shape_str(shape), shape_str(s.file_shape)));
        needed.insert(name);
    }
    for (const auto& [name, e] : file.entries()) {
        const std::string bare = name.rfind(p, 0) == 0 ? name.substr(p.size()) : name;
        if (!needed.count(name) && !ignored(bare, c.tie_weights))
            throw fail(fmt::format("unexpected tensor '{}'", autograd::printable(name)));
    }
}

GPTConfig gpt2_config_from_weights(const nn::SafetensorsFile& file) {
    const std::string p = prefix_of(file);
    const Shape wte = entry(file, p + "wte.weight").shape, wpe = entry(file, p + "wpe.weight").shape;
    if (wte.size() != 2 || wpe.size() != 2 || wte[0] == 0 || wpe[0] == 0 || wte[1] != wpe[1] || wte[1] % 64 != 0 ||
        wte[1] == 0)
        throw nn::SafetensorsError(
            fmt::format("GPT-2 weights: {}: wte {} and wpe {} must be [vocab, D] and [context, D], "
                        "D a multiple of 64 for the heads to be inferred as D / 64 (else give the "
                        "config.json that says n_head)",
                        file.path(), shape_str(wte), shape_str(wpe)));
    GPTConfig c;
    c.vocab = wte[0];
    c.context = wpe[0];
    c.d_model = wte[1];
    c.heads = c.d_model / 64;
    c.activation = nn::Activation::gelu_tanh;
    c.n_layers = layers_in(file, p);
    const Shape fc = entry(file, p + "h.0.mlp.c_fc.weight").shape;
    if (fc.size() != 2 || fc[0] != c.d_model || fc[1] <= 0)
        throw nn::SafetensorsError(
            fmt::format("GPT-2 weights: {}: tensor '{}h.0.mlp.c_fc.weight' is {}, not [{}, d_ff]", file.path(), p,
                        shape_str(fc), c.d_model));
    c.d_ff = fc[1];
    check_gpt2_weights(c, file);
    return c;
}

GPT2Configuration find_gpt2_config(const nn::SafetensorsFile& file, const std::string& config_json) {
    GPT2Configuration found;
    found.config_json = config_json;
    if (config_json.empty()) {
        const std::filesystem::path beside = std::filesystem::path(file.path()).parent_path() / "config.json";
        if (std::filesystem::exists(beside)) found.config_json = beside.string();
    }
    if (found.config_json.empty()) {
        found.config = gpt2_config_from_weights(file);
        found.description = fmt::format(
            "no config.json beside {}: heads inferred as D / 64 = {}; GPT-2's tanh GELU, "
            "layer-norm eps 1e-5 and tied head assumed",
            file.path(), found.config.heads);
        return found;
    }
    found.config = gpt2_config_from_json(found.config_json);
    check_config_against_weights(found.config, found.config_json, file);
    check_gpt2_weights(found.config, file);
    found.description = fmt::format("configuration from {}", found.config_json);
    return found;
}

std::string gpt2_tensor_of(const GPTConfig& c, const std::string& parameter) {
    for (const Slot& s : slots(c))
        if (s.parameter == parameter) return s.name;
    return parameter;
}

void load_gpt2_weights(GPT& model, const nn::SafetensorsFile& file) {
    if (!model.learned_pos || model.config.experts > 0)
        throw ValueError("load_gpt2_weights: the model needs learned positions and an MLP in every block, as GPT-2");
    check_gpt2_weights(model.config, file);
    const std::vector<Slot> all = slots(model.config);
    std::map<std::string, Tensor> parameters = parameters_of(model, all, "load_gpt2_weights");
    NoGradGuard no_grad;
    const std::string p = prefix_of(file);
    std::string last;
    Tensor data;
    for (const Slot& s : all) {  // every check passed: from here on the model changes
        const std::string name = file_name(s, p);
        if (name != last) data = file.read(name, model.dtype());
        last = name;
        if (model.dtype() == Dtype::float32) copy_from_file<float>(s, data, parameters.at(s.parameter));
        else copy_from_file<double>(s, data, parameters.at(s.parameter));
    }
}

std::shared_ptr<GPT> load_gpt2(const nn::SafetensorsFile& file, const GPTConfig& c, Dtype dtype) {
    check_gpt2_weights(c, file);  // before the model's memory is taken
    std::shared_ptr<GPT> model;
    {
        nn::init::SkipInitGuard skip;  // the file holds every parameter
        model = std::make_shared<GPT>(c);
    }
    model->to(dtype);
    load_gpt2_weights(*model, file);
    return model;
}

std::shared_ptr<GPT> load_gpt2(const std::string& weights, const std::string& config_json, Dtype dtype) {
    nn::SafetensorsFile file(weights);
    return load_gpt2(file, find_gpt2_config(file, config_json).config, dtype);
}

void save_gpt2_weights(const GPT& model, const std::string& path) {
    if (!model.learned_pos || model.config.experts > 0)
        throw ValueError("save_gpt2_weights: GPT-2's layout needs learned positions and an MLP in every block");
    const std::vector<Slot> all = slots(model.config);
    const std::map<std::string, Tensor> parameters = parameters_of(model, all, "save_gpt2_weights");
    std::map<std::string, Tensor> tensors;
    for (const Slot& s : all) {
        Tensor& t = tensors[s.name];
        if (!t.defined()) t = zeros(s.file_shape, model.dtype());
        if (model.dtype() == Dtype::float32) copy_to_file<float>(s, parameters.at(s.parameter), t);
        else copy_to_file<double>(s, parameters.at(s.parameter), t);
    }
    nn::write_safetensors(path, tensors);
}

}  // namespace models
