// make_tiny_gpt2 FILE: writes a GPT-2 of one layer, d_model 64 (one head of
// GPT-2's 64 dimensions, which the loader assumes), 32 positions and GPT-2's
// vocabulary of 50,257 tokens (its tokenizer's), in Hugging Face's
// safetensors layout: 13 MB that examples/gpt2 loads and fine-tunes in
// moments, where the 124M model would take minutes.
#include <cstdio>

#include "lectern/models/gpt2.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_tiny_gpt2 FILE\n");
        return 2;
    }
    models::GPTConfig c = models::gpt2_config("124M");
    c.n_layers = 1, c.d_model = 64, c.heads = 1, c.d_ff = 256, c.context = 32;
    models::save_gpt2_weights(*models::make_gpt(c), argv[1]);
    return 0;
}
