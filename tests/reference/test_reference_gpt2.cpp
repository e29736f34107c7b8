// GPT-2 against PyTorch on identical weights: make_gpt2_reference.py wrote a
// tiny GPT-2-shaped model in the Hugging Face safetensors layout and the
// logits and greedy tokens of a forward written from GPT-2's equations;
// make_gpt2_config_reference.py wrote one configured by its config.json, and
// its logits from plain Python.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "lectern/models/generate.h"
#include "lectern/models/gpt2.h"
#include "temp_files.h"
#include "reference_case.h"
#include "temp_files.h"

using namespace autograd;

namespace {

const std::string kWeights = std::string(LECTERN_REFERENCE_DIR) + "/gpt2_tiny.safetensors";

// A file in this process's own folder, removed with it at exit.
std::string scratch(const std::string& name) {
    static const testing::TempDir dir("gpt2-reference");
    return dir.file(name + ".safetensors");
}

// The tiny model of the file, loaded in `dtype`. Its 4 heads of 16 dimensions
// are not GPT-2's 64, so the file's configuration is given the head count.
std::shared_ptr<models::GPT> tiny_gpt2(Dtype dtype, const std::string& path = kWeights) {
    nn::SafetensorsFile file(path);
    models::GPTConfig c = models::gpt2_config_from_weights(file);
    c.heads = 4;
    auto model = std::make_shared<models::GPT>(c);
    model->to(dtype);
    models::load_gpt2_weights(*model, file);
    model->eval();
    return model;
}

std::vector<std::int64_t> ids_of(const Tensor& t) {
    return std::vector<std::int64_t>(t.data<std::int64_t>(), t.data<std::int64_t>() + t.numel());
}

std::string load_error(const std::map<std::string, Tensor>& tensors) {
    nn::write_safetensors(scratch("broken"), tensors);
    try {
        tiny_gpt2(Dtype::float32, scratch("broken"));
    } catch (const nn::SafetensorsError& e) {
        std::filesystem::remove(scratch("broken"));
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("GPT-2's configuration is read from the weights' shapes", "[model]") {
    auto c = models::gpt2_config_from_weights(nn::SafetensorsFile(kWeights));
    CHECK(c.vocab == 50);
    CHECK(c.context == 12);
    CHECK(c.d_model == 64);
    CHECK(c.heads == 1);  // d_model / 64, every GPT-2 size's head width
    CHECK(c.n_layers == 2);
    CHECK(c.d_ff == 256);
    CHECK(c.activation == nn::Activation::gelu_tanh);
    auto small = models::gpt2_config("124M");
    CHECK((small.n_layers == 12 && small.d_model == 768 && small.heads == 12 && small.d_ff == 3072 &&
           small.vocab == 50257 && small.context == 1024));
    CHECK(models::gpt2_config("774M").n_layers == 36);
    CHECK_THROWS_WITH(models::gpt2_config("7B"), Catch::Contains("'7B' is not one of"));
}

TEST_CASE("GPT-2 from safetensors gives PyTorch's logits (float64 1e-12, float32 1e-5)", "[model]") {
    reference::Case ref("gpt2_tiny");
    ref.compare("logits", tiny_gpt2(Dtype::float64)->forward(ref["ids"]), 1e-12);
    ref.compare("logits", tiny_gpt2(Dtype::float32)->forward(ref["ids"]).to(Dtype::float64), 1e-5);
}

TEST_CASE("GPT-2's cached greedy generation gives PyTorch's tokens", "[model]") {
    reference::Case ref("gpt2_tiny");
    for (Dtype dtype : {Dtype::float64, Dtype::float32})
        for (bool cache : {true, false}) {
            models::SamplingOptions options;
            options.max_new_tokens = 8;
            options.temperature = 0;
            options.use_cache = cache;
            Generator gen(0);
            INFO("dtype " << dtype_name(dtype) << ", cache " << cache);
            CHECK(models::generate(*tiny_gpt2(dtype), ids_of(ref["prompt"]), options, gen) == ids_of(ref["generated"]));
        }
}

TEST_CASE("GPT-2 weights load the same under the \"transformer.\" prefix and after Lectern saves them", "[model][io]") {
    reference::Case ref("gpt2_tiny");
    Tensor want = tiny_gpt2(Dtype::float64)->forward(ref["ids"]);
    std::map<std::string, Tensor> prefixed;
    for (auto& [name, t] : nn::read_safetensors(kWeights, Dtype::float64)) prefixed["transformer." + name] = t;
    nn::write_safetensors(scratch("prefixed"), prefixed);
    ref.compare("logits", tiny_gpt2(Dtype::float64, scratch("prefixed"))->forward(ref["ids"]), 1e-12);

    models::save_gpt2_weights(*tiny_gpt2(Dtype::float64), scratch("saved"));
    auto saved = nn::read_safetensors(scratch("saved"), Dtype::float64);
    auto original = nn::read_safetensors(kWeights, Dtype::float64);
    CHECK(saved.size() == original.size() - 2);  // without the two causal-mask buffers
    for (auto& [name, t] : saved) {
        INFO(name);
        REQUIRE(original.count(name));
        REQUIRE(t.shape() == original.at(name).shape());
        CHECK(std::equal(t.data<double>(), t.data<double>() + t.numel(), original.at(name).data<double>()));
    }
    Tensor again = tiny_gpt2(Dtype::float64, scratch("saved"))->forward(ref["ids"]);
    CHECK(std::equal(again.data<double>(), again.data<double>() + again.numel(), want.data<double>()));
    std::filesystem::remove(scratch("prefixed"));
    std::filesystem::remove(scratch("saved"));
}

TEST_CASE("GPT-2 weights with a missing, misshapen or unexpected tensor get one line naming it", "[model][errors]") {
    auto tensors = nn::read_safetensors(kWeights);
    auto without = tensors;
    without.erase("h.1.mlp.c_fc.bias");
    CHECK_THAT(load_error(without), Catch::Contains("has no tensor 'h.1.mlp.c_fc.bias'"));
    auto misshapen = tensors;
    misshapen["h.0.attn.c_attn.weight"] = zeros({192, 64});  // stored [out, in]: not Conv1D's layout
    CHECK_THAT(load_error(misshapen),
               Catch::Contains("tensor 'h.0.attn.c_attn.weight' is [192, 64], the model needs [64, 192]"));
    auto extra = tensors;
    extra["h.0.attn.c_q.weight"] = zeros({64, 64});
    CHECK_THAT(load_error(extra), Catch::Contains("unexpected tensor 'h.0.attn.c_q.weight'"));
}

TEST_CASE("a GPT-2 with 2 heads of 32 is read from the config.json beside it and gives Python's logits",
          "[model][io]") {
    // Hugging Face's folder: model.safetensors beside config.json. The shapes cannot
    // show the heads, eps or GELU: only config.json can.
    const testing::TempDir dir("gpt2-heads2");
    std::filesystem::copy_file(std::string(LECTERN_REFERENCE_DIR) + "/gpt2_heads2.safetensors",
                               dir.file("model.safetensors"));
    std::filesystem::copy_file(std::string(LECTERN_REFERENCE_DIR) + "/gpt2_heads2.config.json",
                               dir.file("config.json"));
    const nn::SafetensorsFile file(dir.file("model.safetensors"));
    const models::GPT2Configuration found = models::find_gpt2_config(file);
    CHECK(found.config_json == dir.file("config.json"));
    CHECK(found.description == "configuration from " + dir.file("config.json"));
    const models::GPTConfig& c = found.config;
    CHECK((c.heads == 2 && c.d_model == 64 && c.n_layers == 2 && c.d_ff == 96 && c.vocab == 61 && c.context == 16));
    CHECK((c.layer_norm_eps == 1e-3 && c.activation == nn::Activation::gelu && !c.tie_weights));

    reference::Case ref("gpt2_heads2");
    auto model = models::load_gpt2(dir.file("model.safetensors"), "", Dtype::float64);
    model->eval();
    ref.compare("logits", model->forward(ref["ids"]), 1e-12);
    {
        reference::Case ref32("gpt2_heads2");  // a line of its own for float32's differences
        auto model32 = models::load_gpt2(dir.file("model.safetensors"));
        model32->eval();
        ref32.compare("logits", model32->forward(ref["ids"]).to(Dtype::float64), 1e-5);
    }

    // The same weights read as GPT-2's one head of 64 (D / 64) give other logits.
    models::GPTConfig one_head = c;
    one_head.heads = 1;
    auto misread = models::load_gpt2(file, one_head, Dtype::float64);
    misread->eval();
    Tensor want = ref["logits"], got = misread->forward(ref["ids"]);
    double largest = 0;
    for (std::int64_t i = 0; i < want.numel(); ++i)
        largest = std::max(largest, std::abs(got.data<double>()[i] - want.data<double>()[i]));
    CHECK(largest > 0.1);
}

TEST_CASE("without config.json GPT-2's heads are inferred as D / 64, and the program is told", "[model][io]") {
    const testing::TempDir dir("gpt2-no-config");
    std::filesystem::copy_file(kWeights, dir.file("model.safetensors"));
    const models::GPT2Configuration found =
        models::find_gpt2_config(nn::SafetensorsFile(dir.file("model.safetensors")));
    CHECK(found.config_json.empty());
    CHECK(found.config.heads == 1);
    CHECK(found.description ==
          "no config.json beside " + dir.file("model.safetensors") +
              ": heads inferred as D / 64 = 1; GPT-2's tanh GELU, layer-norm eps 1e-5 and tied head "
              "assumed");
    // A config.json named explicitly is read wherever it is.
    testing::write_all(dir.file("heads4.json"), R"({"n_embd": 64, "n_head": 4, "n_layer": 2, "n_positions": 12,
                                                    "n_inner": 256, "vocab_size": 50})");
    reference::Case ref("gpt2_tiny");
    auto model = models::load_gpt2(dir.file("model.safetensors"), dir.file("heads4.json"), Dtype::float64);
    model->eval();
    CHECK(model->config.heads == 4);
    ref.compare("logits", model->forward(ref["ids"]), 1e-12);
}

TEST_CASE("safetensors F16, BF16, F32 and F64 read as the values PyTorch stored", "[io]") {
    reference::Case ref("safetensors_dtypes");
    nn::SafetensorsFile file(std::string(LECTERN_REFERENCE_DIR) + "/safetensors_dtypes.safetensors");
    for (std::string dtype : {"f16", "bf16", "f32", "f64"}) {
        ref.compare("expect." + dtype, file.read(dtype, Dtype::float64), 0.0);  // exact: every format widens exactly
        if (dtype != "f64") ref.compare("expect." + dtype, file.read(dtype, Dtype::float32).to(Dtype::float64), 0.0);
    }
}
