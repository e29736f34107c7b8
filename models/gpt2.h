#pragma once
// GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask
// Learners"): models::GPT with GPT-2's choices -- the tanh GELU, biases on
// every linear map, 1024 learned positions, the head tied to the token
// embedding, layer-norm eps 1e-5, 64 dimensions per head -- and its weights
// in the Hugging Face layout of safetensors (nn/safetensors.h).
#include <memory>
#include <string>

#include "models/gpt.h"
#include "nn/safetensors.h"

namespace models {

// GPT-2's published sizes by parameter count: "124M" (12 layers, d_model 768),
// "355M" (24, 1024), "774M" (36, 1280), "1558M" (48, 1600); vocab 50,257,
// context 1024, d_ff = 4 d_model, heads = d_model / 64. ValueError otherwise.
GPTConfig gpt2_config(const std::string& size);

// The Hugging Face layout, per layer l (GPT2Model's names, optionally under
// "transformer."): h.l.ln_1, h.l.attn.c_attn (W_q | W_k | W_v side by side),
// h.l.attn.c_proj, h.l.ln_2, h.l.mlp.c_fc, h.l.mlp.c_proj, then ln_f; wte and
// wpe. GPT-2's linear maps are Conv1D: weight [in, out], y = x W + b, the
// transpose of nn::Linear's [out, in]. The causal-mask buffers h.l.attn.bias
// and h.l.attn.masked_bias are ignored, as is lm_head.weight (the tied wte).
//
// The configuration of the weights in `file`: vocab, context, d_model, d_ff
// and n_layers from the tensors' shapes, heads = d_model / 64 (every GPT-2
// size), GPT-2's GELU; SafetensorsError naming the tensor whose shape is not
// GPT-2's.
GPTConfig gpt2_config_from_weights(const nn::SafetensorsFile& file);

// Copies the weights of `file` into `model` (its dtype), after checking that
// every tensor it needs is there with the shape it needs and that no tensor is
// left unexplained; SafetensorsError naming the tensor otherwise, with the
// model unchanged.
void load_gpt2_weights(GPT& model, const nn::SafetensorsFile& file);

// A GPT-2 built from the file's configuration and loaded with its weights.
std::shared_ptr<GPT> load_gpt2(const std::string& path, autograd::Dtype dtype = autograd::Dtype::float32);

// Writes `model` in the Hugging Face layout (no prefix; lm_head.weight only
// when the head is not tied), so transformers' GPT2LMHeadModel and
// load_gpt2 read it back.
void save_gpt2_weights(const GPT& model, const std::string& path);

}  // namespace models
