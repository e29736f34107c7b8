#pragma once
// GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask
// Learners"): models::GPT with GPT-2's choices -- the tanh GELU, biases on
// every linear map, 1024 learned positions, the head tied to the token
// embedding, layer-norm eps 1e-5, 64 dimensions per head -- and its weights
// in the Hugging Face layout of safetensors (nn/safetensors.h), configured by
// the config.json beside them (models/gpt2_config.h).
#include <memory>
#include <string>

#include "lectern/models/gpt.h"
#include "lectern/models/gpt2_config.h"
#include "lectern/nn/safetensors.h"

namespace models {

// The Hugging Face layout, per layer l (GPT2Model's names, optionally under
// "transformer."): h.l.ln_1, h.l.attn.c_attn (W_q | W_k | W_v side by side),
// h.l.attn.c_proj, h.l.ln_2, h.l.mlp.c_fc, h.l.mlp.c_proj, then ln_f; wte and
// wpe; lm_head.weight when the head is not tied. GPT-2's linear maps are
// Conv1D: weight [in, out], y = x W + b, the transpose of nn::Linear's [out,
// in]. The causal-mask buffers h.l.attn.bias and h.l.attn.masked_bias are
// ignored, as is lm_head.weight beside a tied head (a copy of wte).

// Refuses the weights of `file` for a GPT-2 of configuration `c` from the
// file's header alone, before any model is built: the model's parameters may
// not outnumber the values the file holds (which a real file always does), every
// tensor the model needs must be there with the shape it needs, and no tensor
// may be left unexplained. SafetensorsError, one line naming the file and the tensor.
void check_gpt2_weights(const GPTConfig& c, const nn::SafetensorsFile& file);

// The configuration the tensors of `file` show: vocab, context, d_model, d_ff
// and n_layers from their shapes and names; heads = d_model / 64, every
// published GPT-2 size's head width, which no shape shows; GPT-2's tanh GELU,
// eps 1e-5 and tied head. Checked by check_gpt2_weights.
GPTConfig gpt2_config_from_weights(const nn::SafetensorsFile& file);

// A GPT-2's configuration and where it came from, for a program to say.
struct GPT2Configuration {
    GPTConfig config;
    std::string config_json;  // the config.json read; empty when inferred from the weights
    // One line: "configuration from <config_json>", or what was inferred:
    // "no config.json beside <weights>: heads inferred as D / 64 = 12; ...".
    std::string description;
};

// The configuration of the weights `file`: read from `config_json`; when that
// is empty, from the config.json beside the weights if there is one, else
// inferred (gpt2_config_from_weights). What a config.json says is checked
// against the tensors: a contradiction is one line naming both ("<config.json>
// says n_embd 768, <weights>' wte.weight is [50257, 1024]"); then check_gpt2_weights.
GPT2Configuration find_gpt2_config(const nn::SafetensorsFile& file, const std::string& config_json = "");

// The tensor of a Hugging Face GPT-2 file (without its "transformer." prefix)
// that fills the parameter of that name of a GPT of configuration `c`:
// "ln_f.bias" for "norm.beta", "h.0.attn.c_attn.weight" for
// "blocks.0.attn.w_k.weight"; the parameter's own name if none does.
std::string gpt2_tensor_of(const GPTConfig& c, const std::string& parameter);

// Copies the weights of `file` into `model` (its dtype), after
// check_gpt2_weights against the model's configuration; SafetensorsError
// naming the tensor otherwise, with the model unchanged.
void load_gpt2_weights(GPT& model, const nn::SafetensorsFile& file);

// A GPT-2 of configuration `c`, built once check_gpt2_weights has passed, with
// the weights of `file`.
std::shared_ptr<GPT> load_gpt2(const nn::SafetensorsFile& file, const GPTConfig& c,
                               autograd::Dtype dtype = autograd::Dtype::float32);
// The same from a path, configured as find_gpt2_config(weights, config_json) finds.
std::shared_ptr<GPT> load_gpt2(const std::string& weights, const std::string& config_json = "",
                               autograd::Dtype dtype = autograd::Dtype::float32);

// Writes `model` in the Hugging Face layout (no prefix; lm_head.weight only
// when the head is not tied), so transformers' GPT2LMHeadModel and
// load_gpt2 read it back; save_gpt2_config writes its config.json.
void save_gpt2_weights(const GPT& model, const std::string& path);

}  // namespace models
