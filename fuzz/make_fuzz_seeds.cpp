// Writes the fuzz targets' seed inputs: valid files for the fuzzer to mutate.
//   make_fuzz_seeds DIR   -> DIR/checkpoint/*, DIR/idx/*, DIR/char_corpus/*, DIR/safetensors/*
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_models.h"
#include "lectern/models/gpt2.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/safetensors.h"

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {

void write(const fs::path& path, const Bytes& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Bytes read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

Bytes gzipped(const Bytes& raw, const fs::path& scratch) {
    gzFile gz = gzopen(scratch.c_str(), "wb");
    gzwrite(gz, raw.data(), static_cast<unsigned>(raw.size()));
    gzclose(gz);
    Bytes out = read(scratch);
    fs::remove(scratch);
    return out;
}

// The IDX target's input: a role byte (0 lone array, 1 images, 2 labels), then the file.
Bytes with_role(std::uint8_t role, const Bytes& file) {
    Bytes out{role};
    out.insert(out.end(), file.begin(), file.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_fuzz_seeds DIR\n");
        return 2;
    }
    const fs::path dir = argv[1];
    fs::create_directories(dir / "checkpoint");
    fs::create_directories(dir / "idx");

    auto model = fuzz::tiny_transformer();
    nn::optim::Adam adam(model->parameters());
    nn::save_checkpoint((dir / "checkpoint" / "model.ckpt").string(), *model);
    for (auto& p : model->parameters()) p.set_grad(autograd::ones(p.shape(), p.dtype()));
    adam.step();
    nn::save_checkpoint((dir / "checkpoint" / "model_adam.ckpt").string(), *model, &adam);
    nn::RunRecord run;  // what a resumable program adds: its flags, an alphabet, a generator's state
    run.text["flag.--heads"] = "2";
    run.text["alphabet"] = "\n ab\xc3\xa9";
    run.tensors["generator.batches"] = autograd::tensor({1, 2, 3, 4, 0, 0}, {6}, autograd::Dtype::int64);
    nn::save_checkpoint((dir / "checkpoint" / "model_run.ckpt").string(), *model, &adam, &run);
    fs::create_directories(dir / "char_corpus");
    write(dir / "char_corpus" / "fortune", Bytes{'L', 'i', 'f', 'e', '\n', '%', '\n', 0xc3, 0xa9, 0xe2, 0x82, 0xac});

    fs::create_directories(dir / "safetensors");
    models::save_gpt2_weights(*fuzz::tiny_gpt2(), (dir / "safetensors" / "gpt2.safetensors").string());
    nn::write_safetensors((dir / "safetensors" / "float64.safetensors").string(),
                          {{"a", autograd::ones({2, 3}, autograd::Dtype::float64)}, {"b", autograd::zeros({0})}});

    const Bytes images = {0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const Bytes labels = {0, 0, 8, 1, 0, 0, 0, 3, 0, 5, 9};
    const fs::path scratch = dir / "scratch.gz";
    write(dir / "idx" / "array", with_role(0, images));
    write(dir / "idx" / "array_gz", with_role(0, gzipped(images, scratch)));
    write(dir / "idx" / "images", with_role(1, images));
    write(dir / "idx" / "images_gz", with_role(1, gzipped(images, scratch)));
    write(dir / "idx" / "labels", with_role(2, labels));
    write(dir / "idx" / "labels_gz", with_role(2, gzipped(labels, scratch)));
    std::printf("seeds written to %s/{checkpoint,idx,char_corpus,safetensors}\n", dir.c_str());
    return 0;
}
