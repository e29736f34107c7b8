#pragma once
// GPT-2's configurations: the four sizes OpenAI published, and the config.json
// that Hugging Face keeps beside a GPT-2's model.safetensors (transformers'
// GPT2Config), read and written.
#include <string>

#include "lectern/models/gpt.h"

namespace models {

// GPT-2's published sizes by parameter count: "124M" (12 layers, d_model 768),
// "355M" (24, 1024), "774M" (36, 1280), "1558M" (48, 1600); vocab 50,257,
// context 1024, d_ff = 4 d_model, heads = d_model / 64. ValueError otherwise.
GPTConfig gpt2_config(const std::string& size);

// The GPTConfig that a GPT-2 config.json describes, field by field:
//   n_embd -> d_model          n_head -> heads           n_layer -> n_layers
//   vocab_size -> vocab        n_positions -> context    (n_ctx, older files' name, when n_positions is absent)
//   n_inner -> d_ff            (null: 4 n_embd)          layer_norm_epsilon -> layer_norm_eps
//   tie_word_embeddings -> tie_weights
//   activation_function -> activation: "gelu_new", "gelu_pytorch_tanh" and
//     "gelu_fast" are the tanh GELU (GPT-2's), "gelu" the exact erf GELU, "relu"
// A field the file leaves out takes GPT2Config's default, as transformers
// reads the file (n_embd 768, n_head 12, n_layer 12, n_positions 1024, vocab
// 50257, "gelu_new", eps 1e-5, tied). Dropout rates, token ids and the like
// change nothing Lectern computes and are not read. Fields that would change
// the equations to ones Lectern does not compute are refused: model_type other
// than "gpt2", scale_attn_weights false, scale_attn_by_inverse_layer_idx true,
// add_cross_attention true.
// ValueError naming the file and the field for a value of the wrong type or
// range, n_head not dividing n_embd, or n_ctx and n_positions that disagree;
// nn::JsonError naming the file when it is not JSON, names a key twice, nests
// deeper than 16 levels or holds more than 1 MB (GPT-2's is 665 bytes).
GPTConfig gpt2_config_from_json(const std::string& path);

// Writes `c` as a config.json that gpt2_config_from_json and transformers'
// GPT2Config read back to the same model; replaced atomically. ValueError if
// `c` is no GPT-2 (positions other than learned, experts, block-local attention).
void save_gpt2_config(const GPTConfig& c, const std::string& path);

}  // namespace models
