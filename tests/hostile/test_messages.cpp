// Messages that misled, at the layer that says them: each names
// what is wrong, in figures that add up.
#include <string>

#include <catch2/catch.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/safetensors.h"
#include "lectern/run/shell/memory_budget.h"
#include "temp_files.h"

TEST_CASE("the memory refusal's weights and activations add up to what it says the run needs", "[run][hostile]") {
    // 25e9 weights, each with its gradient and Adam's two moments: 400 GB; 100 GB of activations
    const run::MemoryEstimate e{25e9, 25e9};
    REQUIRE(run::available_memory_bytes() < e.bytes(true));
    CHECK_THROWS_WITH(run::require_memory("--batch", e, true),
                      Catch::Contains("needs about 500 GB (400 GB of weights with their gradients and Adam's moments, "
                                      "100 GB of activations)"));
    CHECK_THROWS_WITH(run::require_memory("--batch", {250e9, 25e9}, false),
                      Catch::Contains("needs about 1.1e+03 GB (1e+03 GB of weights, 100 GB of activations)"));
}

TEST_CASE("a Lectern checkpoint given as safetensors is named for what it is", "[io][hostile]") {
    testing::TempDir dir("hostile-messages");
    nn::Linear model(2, 2);
    nn::save_checkpoint(dir.file("model.ckpt"), model);
    CHECK_THROWS_WITH(nn::SafetensorsFile(dir.file("model.ckpt")),
                      "safetensors: " + dir.file("model.ckpt") +
                          ": not a safetensors file (this is a Lectern checkpoint)");
}
