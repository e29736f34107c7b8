#include "lectern/models/gpt2_config.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "lectern/nn/json.h"
#include "lectern/nn/output_file.h"
#include "lectern/autograd/printable.h"

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

// GPT-2's config.json is under 1 KB; transformers' task parameters nest 3 deep.
constexpr std::size_t kMaxConfigBytes = 1u << 20;
constexpr int kMaxConfigDepth = 16;

// activation_function's values and the GELU each names (transformers' ACT2FN).
struct ActivationName {
    const char* name;
    nn::Activation activation;
};
// gelu_fast writes GPT-2's tanh GELU with sqrt(2 / pi) rounded to 0.7978845608, 3e-12 apart.
constexpr ActivationName kActivations[] = {{"gelu_new", nn::Activation::gelu_tanh},
                                           {"gelu_pytorch_tanh", nn::Activation::gelu_tanh},
                                           {"gelu_fast", nn::Activation::gelu_tanh},
                                           {"gelu", nn::Activation::gelu},
                                           {"relu", nn::Activation::relu}};

// The fields of one config.json, each read with its check.
struct Fields {
    const nlohmann::json& json;
    const std::string& path;

    ValueError error(const std::string& what) const {
        return ValueError(fmt::format("GPT-2 config: {}: {}", path, what));
    }
    // A positive integer below 2^31, or `fallback` when the field is absent.
    std::int64_t size(const char* key, std::int64_t fallback) const {
        if (!json.contains(key)) return fallback;
        const auto& v = json[key];
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1 ||
            v.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())
            throw error(fmt::format("{} is {}, not an integer in [1, 2^31)", key, autograd::printable(v.dump())));
        return v.get<std::int64_t>();
    }
    bool flag(const char* key, bool fallback) const {
        if (!json.contains(key)) return fallback;
        if (!json[key].is_boolean())
            throw error(fmt::format("{} is {}, not true or false", key, autograd::printable(json[key].dump())));
        return json[key].get<bool>();
    }
};

}  // namespace

GPTConfig gpt2_config_from_json(const std::string& path) {
    const nlohmann::json json = nn::read_json_file(path, kMaxConfigBytes, kMaxConfigDepth);
    const Fields f{json, path};
    if (!json.is_object()) throw f.error("is not a JSON object");
    if (json.contains("model_type") && json["model_type"] != "gpt2")
        throw f.error(fmt::format("model_type is {}, not \"gpt2\"", autograd::printable(json["model_type"].dump())));
    GPTConfig c;
    c.d_model = f.size("n_embd", 768);
    c.heads = f.size("n_head", 12);
    c.n_layers = f.size("n_layer", 12);
    c.vocab = f.size("vocab_size", 50257);
    c.context = f.size("n_positions", f.size("n_ctx", 1024));
    if (json.contains("n_positions") && json.contains("n_ctx") && f.size("n_ctx", 0) != c.context)
        throw f.error(fmt::format("n_positions is {} and n_ctx {}: the table of positions has one length", c.context,
                                  f.size("n_ctx", 0)));
    c.d_ff = json.contains("n_inner") && !json["n_inner"].is_null() ? f.size("n_inner", 0) : 4 * c.d_model;
    if (c.d_model % c.heads != 0)
        throw f.error(fmt::format("n_head {} does not divide n_embd {} into heads of equal width", c.heads, c.d_model));

    if (json.contains("layer_norm_epsilon")) {
        const auto& eps = json["layer_norm_epsilon"];
        if (!eps.is_number() || !std::isfinite(eps.get<double>()) || eps.get<double>() < 0)
            throw f.error(fmt::format("layer_norm_epsilon is {}, not a number >= 0", autograd::printable(eps.dump())));
        c.layer_norm_eps = eps.get<double>();
    }

    const nlohmann::json activation = json.value("activation_function", nlohmann::json("gelu_new"));
    bool known = false;
    for (const ActivationName& a : kActivations)
        if (activation == a.name) c.activation = a.activation, known = true;
    if (!known)
        throw f.error(
            fmt::format("activation_function {} is not one Lectern computes: gelu_new, gelu_pytorch_tanh and "
                        "gelu_fast (the tanh GELU), gelu (the exact one), relu",
                        autograd::printable(activation.dump())));

    c.tie_weights = f.flag("tie_word_embeddings", true);
    if (!f.flag("scale_attn_weights", true))
        throw f.error("scale_attn_weights is false: Lectern's GPT-2 divides its attention scores by sqrt(d_k)");
    if (f.flag("scale_attn_by_inverse_layer_idx", false))
        throw f.error("scale_attn_by_inverse_layer_idx is true: Lectern's GPT-2 scales every layer's scores alike");
    if (f.flag("add_cross_attention", false))
        throw f.error("add_cross_attention is true: Lectern's GPT-2 is decoder-only");
    return c;
}

void save_gpt2_config(const GPTConfig& c, const std::string& path) {
    if (c.positions != Positions::learned || c.experts > 0 || c.block > 0)
        throw ValueError("save_gpt2_config: GPT-2 has learned positions, an MLP in every block and full attention");
    const char* activation = c.activation == nn::Activation::gelu_tanh ? "gelu_new"
                             : c.activation == nn::Activation::gelu    ? "gelu"
                                                                       : "relu";
    const nlohmann::ordered_json json = {{"model_type", "gpt2"},
                                         {"architectures", {"GPT2LMHeadModel"}},
                                         {"vocab_size", c.vocab},
                                         {"n_positions", c.context},
                                         {"n_embd", c.d_model},
                                         {"n_layer", c.n_layers},
                                         {"n_head", c.heads},
                                         {"n_inner", c.d_ff},
                                         {"activation_function", activation},
                                         {"layer_norm_epsilon", c.layer_norm_eps},
                                         {"tie_word_embeddings", c.tie_weights}};
    nn::write_file_atomically(path, json.dump(2) + "\n");
}

}  // namespace models
