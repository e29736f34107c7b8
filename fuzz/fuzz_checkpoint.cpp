// libFuzzer target: any bytes as a checkpoint given to --load or --resume,
// run record included. A clean
// rejection is a typed exception with one printable line naming the file; a
// crash, a hang, a sanitizer report or an allocation sized by an unchecked
// field (std::bad_alloc, or libFuzzer's -malloc_limit_mb) is a finding.
#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_models.h"
#include "lectern/nn/checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static auto model = fuzz::tiny_transformer();
    static nn::optim::Adam adam(model->parameters());
    const std::string path = fuzz::write_scratch(data, size);
    fuzz::require_clean_rejection(path, [&] {
        nn::RunRecord run;
        nn::load_checkpoint(path, *model, &adam, &run);
    });
    return 0;
}
