// libFuzzer target: any bytes as a safetensors file given to gpt2 --weights:
// the header checked, every tensor read (each dtype converted), then the
// tensors mapped onto a tiny GPT-2. A clean rejection is a typed exception
// with one printable line naming the file; a crash, a hang, a sanitizer report
// or an allocation sized by an unchecked field is a finding.
#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_models.h"
#include "lectern/models/gpt2.h"
#include "lectern/nn/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static auto model = fuzz::tiny_gpt2();
    const std::string path = fuzz::write_scratch(data, size);
    fuzz::require_clean_rejection(path, [&] {
        nn::SafetensorsFile file(path);
        for (const auto& [name, entry] : file.entries()) file.read(name, autograd::Dtype::float64);
        models::load_gpt2_weights(*model, file);
    });
    fuzz::require_clean_rejection(path, [&] { models::gpt2_config_from_weights(nn::SafetensorsFile(path)); });
    return 0;
}
