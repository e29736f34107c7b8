// Loading GPT-2 from Hugging Face's folder (model.safetensors beside
// config.json): config.json read field by field, checked against the tensors,
// and every tensor checked from the file's header before a model is built.
// Each refusal is one line naming what disagrees.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>

#include "lectern/autograd/autograd.h"
#include "lectern/models/gpt2.h"
#include "lectern/nn/json.h"
#include "temp_files.h"

using namespace autograd;

namespace {

// A GPT-2 whose shapes do not tell its configuration: 2 heads of 32, d_ff 96.
models::GPTConfig small_gpt2() {
    models::GPTConfig c;
    c.vocab = 61;
    c.context = 16;
    c.d_model = 64;
    c.n_layers = 2;
    c.heads = 2;
    c.d_ff = 96;
    c.activation = nn::Activation::gelu_tanh;
    return c;
}

// Hugging Face's folder for `c`: model.safetensors (random weights) and config.json.
struct Folder {
    testing::TempDir dir;
    std::string weights, config;
    Folder(const std::string& name, const models::GPTConfig& c)
        : dir(name), weights(dir.file("model.safetensors")), config(dir.file("config.json")) {
        models::save_gpt2_weights(*models::make_gpt(c), weights);
        models::save_gpt2_config(c, config);
    }
};

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

// Tensors the allocator has handed out so far.
std::size_t allocations() {
    const AllocatorStats s = allocator_stats();
    return s.cache_hits + s.cache_misses;
}

// A safetensors file of F16 tensors, all zero: name -> shape.
void write_f16(const std::string& path, const std::vector<std::pair<std::string, Shape>>& tensors) {
    std::string header = "{", data;
    for (const auto& [name, shape] : tensors) {
        std::int64_t n = 1;
        std::string sizes;
        for (std::int64_t s : shape) {
            n *= s;
            if (!sizes.empty()) sizes += ',';
            sizes += std::to_string(s);
        }
        header += fmt::format(R"({}"{}":{{"dtype":"F16","shape":[{}],"data_offsets":[{},{}]}})",
                              header.size() > 1 ? "," : "", name, sizes, data.size(), data.size() + 2 * n);
        data.append(static_cast<std::size_t>(2 * n), '\0');
    }
    header += "}";
    std::string bytes(8, '\0');
    const std::uint64_t length = header.size();
    std::memcpy(bytes.data(), &length, 8);
    testing::write_all(path, bytes + header + data);
}

}  // namespace

TEST_CASE("GPT-2's own config.json (124M) reads as gpt2_config(\"124M\")", "[model][io]") {
    const testing::TempDir dir("gpt2-config-124m");
    // Hugging Face's gpt2/config.json, whole.
    testing::write_all(dir.file("config.json"), R"({
  "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
  "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
  "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": null,
  "summary_first_dropout": 0.1, "summary_proj_to_labels": true, "summary_type": "cls_index",
  "summary_use_proj": true, "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}},
  "vocab_size": 50257})");
    const models::GPTConfig got = models::gpt2_config_from_json(dir.file("config.json")),
                            want = models::gpt2_config("124M");
    CHECK(got.vocab == want.vocab);
    CHECK(got.context == want.context);
    CHECK(got.d_model == want.d_model);
    CHECK(got.n_layers == want.n_layers);
    CHECK(got.heads == want.heads);
    CHECK(got.d_ff == want.d_ff);
    CHECK(got.activation == nn::Activation::gelu_tanh);
    CHECK(got.layer_norm_eps == 1e-5);
    CHECK(got.tie_weights);
    // Fields left out take GPT2Config's defaults: the same 124M.
    testing::write_all(dir.file("config.json"), "{}");
    const models::GPTConfig defaults = models::gpt2_config_from_json(dir.file("config.json"));
    CHECK((defaults.vocab == 50257 && defaults.context == 1024 && defaults.d_model == 768 && defaults.n_layers == 12 &&
           defaults.heads == 12 && defaults.d_ff == 3072 && defaults.activation == nn::Activation::gelu_tanh &&
           defaults.layer_norm_eps == 1e-5 && defaults.tie_weights));
}

TEST_CASE("save_gpt2_config writes what gpt2_config_from_json reads back", "[model][io]") {
    models::GPTConfig c = small_gpt2();
    c.activation = nn::Activation::gelu;
    c.layer_norm_eps = 1e-3;
    c.tie_weights = false;
    const testing::TempDir dir("gpt2-config-save");
    models::save_gpt2_config(c, dir.file("config.json"));
    const models::GPTConfig back = models::gpt2_config_from_json(dir.file("config.json"));
    CHECK((back.vocab == 61 && back.context == 16 && back.d_model == 64 && back.n_layers == 2 && back.heads == 2 &&
           back.d_ff == 96));
    CHECK((back.activation == nn::Activation::gelu && back.layer_norm_eps == 1e-3 && !back.tie_weights));
    c.experts = 2;
    CHECK_THAT(error_of([&] { models::save_gpt2_config(c, dir.file("moe.json")); }), Catch::Contains("GPT-2 has"));
}

TEST_CASE("a config.json field of the wrong type, range or meaning gets one line naming the file and the field",
          "[errors]") {
    const testing::TempDir dir("gpt2-config-fields");
    const std::string path = dir.file("config.json");
    auto error = [&](const std::string& json) {
        testing::write_all(path, json);
        return error_of([&] { models::gpt2_config_from_json(path); });
    };
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "n_layer": 1})") == "(no error)");
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "activation_function": "swish"})") ==
          "GPT-2 config: " + path +
              ": activation_function \"swish\" is not one Lectern computes: gelu_new, "
              "gelu_pytorch_tanh and gelu_fast (the tanh GELU), gelu (the exact one), relu");
    CHECK_THAT(error(R"({"n_embd": 64, "n_head": 3})"), Catch::Contains(path + ": n_head 3 does not divide n_embd 64"));
    CHECK_THAT(error(R"({"n_embd": "64"})"), Catch::Contains(path + ": n_embd is \"64\", not an integer in [1, 2^31)"));
    CHECK_THAT(error(R"({"n_layer": 0})"), Catch::Contains("n_layer is 0, not an integer"));
    CHECK_THAT(error(R"({"n_head": 2.5})"), Catch::Contains("n_head is 2.5, not an integer"));
    CHECK_THAT(error(R"({"vocab_size": 4294967296})"), Catch::Contains("vocab_size is 4294967296, not an integer"));
    CHECK_THAT(error(R"({"n_positions": 1024, "n_ctx": 512})"), Catch::Contains("n_positions is 1024 and n_ctx 512"));
    CHECK_THAT(error(R"({"n_inner": -1})"), Catch::Contains("n_inner is -1"));
    testing::write_all(path, R"({"n_ctx": 512})");  // older files' name of n_positions
    CHECK(models::gpt2_config_from_json(path).context == 512);
    testing::write_all(path, R"({"n_embd": 64, "n_head": 1, "n_inner": null})");
    CHECK(models::gpt2_config_from_json(path).d_ff == 256);
    CHECK_THAT(error(R"({"layer_norm_epsilon": "1e-5"})"),
               Catch::Contains("layer_norm_epsilon is \"1e-5\", not a number >= 0"));
    CHECK_THAT(error(R"({"tie_word_embeddings": 1})"), Catch::Contains("tie_word_embeddings is 1, not true or false"));
    CHECK_THAT(error(R"({"model_type": "llama"})"), Catch::Contains("model_type is \"llama\", not \"gpt2\""));
    CHECK_THAT(error(R"({"scale_attn_weights": false})"), Catch::Contains("scale_attn_weights is false"));
    CHECK_THAT(error(R"({"scale_attn_by_inverse_layer_idx": true})"),
               Catch::Contains("scale_attn_by_inverse_layer_idx is true"));
    CHECK_THAT(error(R"({"add_cross_attention": true})"), Catch::Contains("add_cross_attention is true"));
    CHECK_THAT(error("[12]"), Catch::Contains(path + ": is not a JSON object"));
}

TEST_CASE("a config.json naming a key twice, nesting too deep or too large is refused, naming it", "[errors]") {
    const testing::TempDir dir("gpt2-config-json");
    const std::string path = dir.file("config.json");
    auto error = [&](const std::string& json) {
        testing::write_all(path, json);
        return error_of([&] { models::gpt2_config_from_json(path); });
    };
    // transformers would take the last n_head; another reader the first.
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "n_head": 1})") ==
          path + " names the key \"n_head\" twice in one object");
    CHECK(error(R"({"task_specific_params": {"a": {"x": 1, "x": 2}}})") ==
          path + " names the key \"x\" twice in one object");
    CHECK(error(R"({"a": {"n_head": 1}, "b": {"n_head": 1}, "n_head": 12})") ==
          "(no error)");  // one key in three objects
    CHECK(error(R"({"a": )" + std::string(15, '[') + std::string(15, ']') + "}") == "(no error)");  // 16 levels
    CHECK(error(R"({"a": )" + std::string(16, '[') + std::string(16, ']') + "}") ==
          path + " nests deeper than 16 levels");
    CHECK(error("{\"a\": \"" + std::string(1 << 20, 'x') + "\"}") == path + " holds more than 1048576 bytes");
    CHECK_THAT(error("{\"n_head\": 2"), Catch::StartsWith(path + " is not JSON"));
    CHECK(error_of([&] { models::gpt2_config_from_json(dir.file("missing.json")); }) ==
          "cannot open " + dir.file("missing.json") + " for reading");
}

TEST_CASE("a config.json that is a FIFO, given or beside the weights, is refused before it is opened", "[errors]") {
    // Opening a FIFO that no process writes would wait for a writer for ever.
    const Folder folder("gpt2-config-fifo", small_gpt2());
    std::filesystem::remove(folder.config);
    const std::string refused = "cannot open " + folder.config + ": not a regular file";
    if (testing::kFifosExist) {
        CHECK(testing::from_a_fifo(folder.config, [](const std::string& path) {
                  return error_of([&] { models::gpt2_config_from_json(path); });
              }) == refused);
        std::filesystem::remove(folder.config);
        CHECK(testing::from_a_fifo(folder.config, [&](const std::string&) {  // found beside the weights
                  return error_of([&] { models::load_gpt2(folder.weights); });
              }) == refused);
    }
    CHECK(error_of([&] { models::gpt2_config_from_json(folder.dir.path.string()); }) ==
          "cannot open " + folder.dir.path.string() + ": not a regular file");
}

TEST_CASE("a config.json that contradicts the weights is refused in one line naming both", "[errors]") {
    const Folder folder("gpt2-contradiction", small_gpt2());
    auto error = [&](const std::string& json) {
        testing::write_all(folder.config, json);
        return error_of([&] { models::load_gpt2(folder.weights); });
    };
    const std::string fits =
        R"("n_embd": 64, "n_head": 2, "n_layer": 2, "n_positions": 16, "n_inner": 96, "vocab_size": 61)";
    CHECK(error("{" + fits + "}") == "(no error)");
    const std::string says = "GPT-2: " + folder.config + " says ";
    CHECK(error(R"({"n_embd": 128, "n_head": 2, "n_layer": 2, "n_positions": 16, "n_inner": 96, "vocab_size": 61})") ==
          says + "n_embd 128, " + folder.weights + ": wte.weight is [61, 64]");
    CHECK(
        error(R"({"n_embd": 64, "n_head": 2, "n_layer": 2, "n_positions": 16, "n_inner": 96, "vocab_size": 50257})") ==
        says + "vocab_size 50257, " + folder.weights + ": wte.weight is [61, 64]");
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "n_layer": 2, "n_positions": 1024, "n_inner": 96, "vocab_size": 61})") ==
          says + "n_positions 1024, " + folder.weights + ": wpe.weight is [16, 64]");
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "n_layer": 2, "n_positions": 16, "vocab_size": 61})") ==
          says + "n_inner 256, " + folder.weights + ": h.0.mlp.c_fc.weight is [64, 96]");
    CHECK(error(R"({"n_embd": 64, "n_head": 2, "n_layer": 3, "n_positions": 16, "n_inner": 96, "vocab_size": 61})") ==
          says + "n_layer 3, " + folder.weights + " holds 2 layers (h.0 to h.1)");
    CHECK(error("{" + fits + R"(, "tie_word_embeddings": false})") ==
          says + "tie_word_embeddings false, " + folder.weights + " has no lm_head.weight");
    // The heads are what config.json alone can say: n_head 1 loads, and is another model.
    CHECK(error(R"({"n_embd": 64, "n_head": 1, "n_layer": 2, "n_positions": 16, "n_inner": 96, "vocab_size": 61})") ==
          "(no error)");
}

TEST_CASE("a crafted safetensors file is refused from its header, before any tensor is allocated", "[errors]") {
    const testing::TempDir dir("gpt2-crafted");
    // 1.5 KB of tensors and 64 empty layer names: D 256 from wte and d_ff 1 from layer 0
    // would build 64 layers of D 256, 17M parameters, had the names been believed.
    std::vector<std::pair<std::string, Shape>> crafted = {{"wte.weight", {1, 256}},
                                                          {"wpe.weight", {1, 256}},
                                                          {"h.0.mlp.c_fc.weight", {256, 1}}};
    for (int l = 0; l < 64; ++l) crafted.push_back({fmt::format("h.{}.ln_1.weight", l), {0}});
    write_f16(dir.file("crafted.safetensors"), crafted);
    std::size_t before = allocations();
    CHECK(
        error_of([&] { models::load_gpt2(dir.file("crafted.safetensors")); }) ==
        "GPT-2 weights: " + dir.file("crafted.safetensors") +
            ": holds 768 values, fewer than the 1.696e+07 parameters of a GPT-2 of vocab 1, context 1, d_model 256, 64 "
            "layers and d_ff 1");
    CHECK(allocations() == before);

    // A real model's file with one tensor of its last layer misshapen: refused, nothing allocated.
    const Folder folder("gpt2-last-tensor", small_gpt2());
    auto tensors = nn::read_safetensors(folder.weights);
    tensors["h.1.mlp.c_proj.weight"] = zeros({64, 96});  // stored [out, in], not Conv1D's [in, out]
    nn::write_safetensors(folder.weights, tensors);
    before = allocations();
    CHECK(error_of([&] { models::load_gpt2(folder.weights); }) ==
          "GPT-2 weights: " + folder.weights +
              ": tensor 'h.1.mlp.c_proj.weight' is [64, 96], the model needs [96, 64]");
    CHECK(allocations() == before);
    // A file from save_gpt2_weights holds exactly the parameters, and loads.
    tensors["h.1.mlp.c_proj.weight"] = zeros({96, 64});
    nn::write_safetensors(folder.weights, tensors);
    CHECK(models::load_gpt2(folder.weights)->parameter_count() == models::GPT(small_gpt2()).parameter_count());
}
