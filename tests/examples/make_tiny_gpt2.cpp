// make_tiny_gpt2 FILE [PARAMETER]: writes a GPT-2 of one layer, d_model 64
// (one head of GPT-2's 64 dimensions, which the loader assumes), 32 positions
// and GPT-2's vocabulary of 50,257 tokens (its tokenizer's), in Hugging Face's
// safetensors layout: 13 MB that examples/gpt2 loads and fine-tunes in
// moments, where the 124M model would take minutes. With PARAMETER (the
// model's name, e.g. norm.beta), its first value is NaN: damaged weights.
#include <cstdio>
#include <limits>
#include <string>

#include "lectern/models/gpt2.h"

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) {
        std::fprintf(stderr, "usage: make_tiny_gpt2 FILE [PARAMETER]\n");
        return 2;
    }
    models::GPTConfig c = models::gpt2_config("124M");
    c.n_layers = 1, c.d_model = 64, c.heads = 1, c.d_ff = 256, c.context = 32;
    const auto model = models::make_gpt(c);
    if (argc == 3) {
        bool found = false;
        for (auto& [name, p] : model->named_parameters())
            if (name == argv[2]) p.data<float>()[0] = std::numeric_limits<float>::quiet_NaN(), found = true;
        if (!found) {
            std::fprintf(stderr, "make_tiny_gpt2: the model has no parameter %s\n", argv[2]);
            return 2;
        }
    }
    models::save_gpt2_weights(*model, argv[1]);
    return 0;
}
