// Saving a checkpoint: the records in memory, then one atomic write.
#include <fmt/format.h>

#include "lectern/nn/checkpoint.h"
#include "lectern/nn/checkpoint_checksum.h"
#include "lectern/nn/checkpoint_format.h"
#include "lectern/nn/output_file.h"

namespace nn {

using namespace autograd;
using namespace checkpoint_format;

namespace {

// The whole file, built in memory before anything touches the disk.
struct Writer {
    std::string bytes;
    template <class T>
    void put(T v) {
        bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void put_bytes(const void* p, std::size_t n) { bytes.append(static_cast<const char*>(p), n); }
    void put_header(Kind kind, const std::string& name, std::uint8_t dtype, const Shape& shape) {
        put<std::uint8_t>(kind);
        put<std::uint32_t>(static_cast<std::uint32_t>(name.size()));
        put_bytes(name.data(), name.size());
        put<std::uint8_t>(dtype);
        put<std::uint32_t>(static_cast<std::uint32_t>(shape.size()));
        for (auto d : shape) put<std::int64_t>(d);
    }
    void put_tensor(Kind kind, const std::string& name, const Tensor& t) {
        put_header(kind, name, dtype_code(t.dtype()), t.shape());
        put_bytes(t.raw_data(), static_cast<std::size_t>(t.numel()) * dtype_size(t.dtype()));
    }
    void put_text(const std::string& name, const std::string& text) {
        put_header(kRunRecord, name, kTextCode, {static_cast<std::int64_t>(text.size())});
        put_bytes(text.data(), text.size());
    }
};

}  // namespace

void save_checkpoint(const std::string& path, const Module& module, const optim::Optimizer* optimizer,
                     const RunRecord* run) {
    auto params = module.named_parameters();
    auto buffers = module.named_buffers();
    std::vector<std::pair<std::string, Tensor>> state;
    if (optimizer) state = optimizer->named_state();
    const std::size_t extras = run ? run->text.size() + run->tensors.size() : 0;
    Writer w;
    w.put_bytes(kMagic, sizeof kMagic);
    w.put<std::uint32_t>(kVersion);
    w.put<std::uint32_t>(optimizer ? 1u : 0u);
    w.put<std::int64_t>(optimizer ? optimizer->step_count() : 0);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(params.size() + buffers.size() + state.size() + extras));
    for (const auto& [name, t] : params) w.put_tensor(kParameter, name, t);
    for (const auto& [name, t] : buffers) w.put_tensor(kBuffer, name, t);
    for (const auto& [name, t] : state) w.put_tensor(kOptimizerState, name, t);
    if (run) {
        for (const auto& [name, text] : run->text) w.put_text(name, text);
        for (const auto& [name, t] : run->tensors) w.put_tensor(kRunRecord, name, t);
    }
    w.put<std::uint32_t>(crc_of(w.bytes, sizeof kMagic, w.bytes.size()));
    try {
        write_file_atomically(path, w.bytes);
    } catch (const OutputError& e) {
        throw CheckpointError(fmt::format("save_checkpoint: {}", e.what()));
    }
}

}  // namespace nn
