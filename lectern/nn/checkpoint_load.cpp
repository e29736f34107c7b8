// Loading a checkpoint: every size, the layout and the checksum checked before
// anything is allocated or changed.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "lectern/nn/checkpoint.h"

#include "lectern/autograd/printable.h"
#include "lectern/autograd/regular_file.h"
#include "lectern/nn/checkpoint_checksum.h"
#include "lectern/nn/checkpoint_format.h"
#include "lectern/nn/checkpoint_migration.h"

namespace nn {

using namespace autograd;
using namespace checkpoint_format;
using checkpoint_migration::kOldestVersion;

namespace {

// Where a tensor record's data lies in the file; nothing is allocated for it
// until the whole file has been checked.
struct Record {
    Kind kind;
    std::string name;
    bool text;  // a run record's text (dtype code 3): bytes, not a tensor
    Dtype dtype;
    Shape shape;
    std::size_t offset;
    std::size_t bytes;
};

// The smallest record: kind, name length, dtype, rank; empty name, rank 0, no data.
constexpr std::size_t kMinRecord = 1 + 4 + 1 + 4;

struct Reader {
    const std::string& bytes;
    const std::string& path;
    std::size_t pos = 0;
    std::size_t end;  // where the records must stop (the checksum follows); pos <= end always
    std::uint32_t version;

    std::size_t remaining() const { return end - pos; }
    void need(std::size_t n, const char* what) const {
        if (n > remaining())  // not pos + n > end, which wraps for a huge n
            throw CheckpointError(
                fmt::format("load_checkpoint: {} is truncated: {} needs {} bytes at offset {}, {} remain", path, what,
                            n, pos, remaining()));
    }
    template <class T>
    T get(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, bytes.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    }
    [[noreturn]] void corrupt(const std::string& what) const {
        throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: {}", path, what));
    }
    Record record(std::uint32_t index) {
        Record r;
        auto kind = get<std::uint8_t>("a record's kind");
        if (kind > checkpoint_migration::last_kind(version)) corrupt(fmt::format("record {} has kind {}", index, kind));
        r.kind = static_cast<Kind>(kind);
        auto len = get<std::uint32_t>("a name's length");
        need(len, "a name");
        r.name.assign(bytes.data() + pos, len);
        pos += len;
        auto code = get<std::uint8_t>("a dtype");
        r.text = code == kTextCode && r.kind == kRunRecord;
        if (code > 2 && !r.text) corrupt(fmt::format("'{}' has dtype code {}", printable(r.name, 64), code));
        r.dtype = code == 0 ? Dtype::float32 : code == 1 ? Dtype::float64 : Dtype::int64;
        auto ndim = get<std::uint32_t>("a rank");
        if (ndim > 16 || (r.text && ndim != 1)) corrupt(fmt::format("'{}' has {} dims", printable(r.name, 64), ndim));
        r.shape.resize(ndim);
        for (auto& d : r.shape) d = get<std::int64_t>("a size");
        // The element and byte counts, every product checked and compared with
        // the bytes there: sizes from a file may be anything, e.g.
        // [2186255, 1054699936290] float64 is 2^64 - 16 bytes, which wrapped
        // when rounded up to the allocator's size class.
        std::int64_t extent = 1;  // the product with 0 read as 1 bounds every stride (autograd::numel)
        std::size_t count = 1;
        for (auto d : r.shape) {
            if (d < 0)
                corrupt(
                    fmt::format("'{}' has shape {} with a negative size", printable(r.name, 64), shape_str(r.shape)));
            if (__builtin_mul_overflow(extent, std::max<std::int64_t>(d, 1), &extent))
                corrupt(
                    fmt::format("'{}' has shape {}, too large to index", printable(r.name, 64), shape_str(r.shape)));
            count *= static_cast<std::size_t>(d);  // <= extent, cannot wrap
        }
        const std::size_t element = r.text ? 1 : dtype_size(r.dtype);
        if (count > remaining() / element)  // divided, not multiplied: cannot wrap
            throw CheckpointError(fmt::format(
                "load_checkpoint: {} is truncated: '{}' of shape {} needs {} {} elements at offset {}, {} bytes remain",
                path, printable(r.name, 64), shape_str(r.shape), count, r.text ? "text" : dtype_name(r.dtype), pos,
                remaining()));
        r.bytes = count * element;
        r.offset = pos;
        pos += r.bytes;
        return r;
    }
};

std::string read_file(const std::string& path) {
    autograd::require_regular_file<CheckpointError>(path, "load_checkpoint");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CheckpointError(fmt::format("load_checkpoint: cannot open {}: {}", path, std::strerror(errno)));
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw CheckpointError(fmt::format("load_checkpoint: reading {} failed", path));
    return bytes;
}

// A checkpoint file whose layout and checksum have been verified; its tensors
// are still bytes in `bytes`.
struct CheckedFile {
    std::string bytes;
    std::uint32_t version, flags;
    std::int64_t step;
    std::vector<Record> records;
};

// Reads the file and checks its header, every record's layout and the
// checksum, in that order: a corrupt file costs no allocation beyond its size.
CheckedFile read_checked(const std::string& path) {
    CheckedFile f{read_file(path), 0, 0, 0, {}};
    const std::string& bytes = f.bytes;
    constexpr std::size_t kHeader = sizeof kMagic + 4 + 4 + 8 + 4;
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw CheckpointError(fmt::format("load_checkpoint: {} is not a Lectern checkpoint (wrong magic)", path));
    if (bytes.size() < kHeader + 4)
        throw CheckpointError(fmt::format("load_checkpoint: {} is truncated: {} bytes, a header needs {}", path,
                                          bytes.size(), kHeader + 4));
    Reader r{bytes, path, sizeof kMagic, bytes.size() - 4, 0};
    f.version = r.get<std::uint32_t>("the version");
    if (f.version < kOldestVersion || f.version > kVersion)
        throw CheckpointError(
            fmt::format("load_checkpoint: {} has format version {}; this build reads versions {} to {}", path,
                        f.version, kOldestVersion, kVersion));
    r.version = f.version;
    f.flags = r.get<std::uint32_t>("the flags");
    f.step = r.get<std::int64_t>("the step count");
    auto count = r.get<std::uint32_t>("the record count");
    if (count > r.remaining() / kMinRecord)
        r.corrupt(fmt::format("{} records cannot fit in the {} bytes that remain", count, r.remaining()));
    f.records.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) f.records.push_back(r.record(i));
    if (r.pos != r.end) r.corrupt(fmt::format("{} unexpected bytes after the records", r.remaining()));
    std::uint32_t stored;
    std::memcpy(&stored, bytes.data() + r.end, sizeof stored);
    if (stored != crc_of(bytes, sizeof kMagic, r.end)) r.corrupt("checksum mismatch");
    return f;
}

// Every parameter (or saved buffer: `what`) of the model is in the file with its shape and
// dtype, and the file has no other.
void check_tensors(const char* what, const std::map<std::string, Tensor>& saved,
                   const std::vector<std::pair<std::string, Tensor>>& params, const std::string& path) {
    for (const auto& [name, p] : params) {
        auto it = saved.find(name);
        if (it == saved.end())
            throw CheckpointMismatch(fmt::format("load_checkpoint: {} has no {} '{}'", path, what, name));
        if (it->second.shape() != p.shape())
            throw CheckpointMismatch(fmt::format("load_checkpoint: {} '{}' is {} in {} but {} in the model", what, name,
                                                 shape_str(it->second.shape()), path, shape_str(p.shape())));
        if (it->second.dtype() != p.dtype())
            throw CheckpointMismatch(fmt::format("load_checkpoint: {} '{}' is {} in {} but {} in the model", what, name,
                                                 dtype_name(it->second.dtype()), path, dtype_name(p.dtype())));
    }
    std::set<std::string> known;
    for (const auto& [name, p] : params) known.insert(name);
    for (const auto& [name, t] : saved)
        if (!known.contains(name))
            throw CheckpointMismatch(
                fmt::format("load_checkpoint: {} has unexpected {} '{}'", path, what, printable(name, 64)));
}

Tensor tensor_of(const CheckedFile& file, const Record& rec) {
    Tensor t = Tensor::empty(rec.shape, rec.dtype);
    std::memcpy(t.raw_data(), file.bytes.data() + rec.offset, rec.bytes);
    return t;
}

// The run records of a checked file; a name may appear once.
RunRecord run_record_of(const CheckedFile& file, const std::string& path) {
    RunRecord run;
    run.current_format = file.version >= checkpoint_migration::kCompleteRecords;
    for (const Record& rec : file.records) {
        if (rec.kind != kRunRecord) continue;
        bool fresh = !run.text.contains(rec.name) && !run.tensors.contains(rec.name);
        if (!fresh)
            throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: record '{}' appears twice", path,
                                              printable(rec.name, 64)));
        if (rec.text) {
            run.text.emplace(rec.name, file.bytes.substr(rec.offset, rec.bytes));
        } else {
            run.tensors.emplace(rec.name, tensor_of(file, rec));
        }
    }
    return run;
}

// The parameters, buffers and optimizer state of a checked file, validated
// against the module and optimizer before either is touched, then copied in.
void load_checked(const CheckedFile& file, const std::string& path, Module& module, optim::Optimizer* optimizer) {
    std::map<std::string, Tensor> saved, saved_buffers;
    std::vector<std::pair<std::string, Tensor>> state;
    for (const Record& rec : file.records) {
        if (rec.kind == kRunRecord) continue;
        if (rec.kind == kOptimizerState) {
            state.emplace_back(rec.name, tensor_of(file, rec));
        } else if (rec.kind == kBuffer) {
            if (!saved_buffers.emplace(rec.name, tensor_of(file, rec)).second)
                throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: buffer '{}' appears twice", path,
                                                  printable(rec.name, 64)));
        } else {
            const std::string name = checkpoint_migration::parameter_name(file.version, rec.name);
            if (!saved.emplace(name, tensor_of(file, rec)).second)
                throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: parameter '{}' appears twice",
                                                  path, printable(rec.name, 64)));
        }
    }
    auto params = module.named_parameters();
    auto buffers = module.named_buffers();
    check_tensors("parameter", saved, params, path);
    check_tensors("buffer", saved_buffers, buffers, path);
    if (optimizer) {
        if (!(file.flags & 1u))
            throw CheckpointMismatch(fmt::format("load_checkpoint: {} holds no optimizer state", path));
        checkpoint_migration::upgrade_optimizer_state(file.version, file.step, state);
        try {
            optimizer->load_state(state, file.step);  // validates everything before changing the optimizer
        } catch (const Error& e) {
            // The message may quote state names from the file.
            throw CheckpointMismatch(
                fmt::format("load_checkpoint: {}: optimizer state does not fit: {}", path, printable(e.what(), 512)));
        }
    }
    NoGradGuard no_grad;
    for (auto& [name, p] : params) p.copy_(saved.at(name));
    for (auto& [name, b] : buffers) b.copy_(saved_buffers.at(name));
}

}  // namespace

struct CheckpointFile::Checked {
    std::string path;
    CheckedFile file;
    RunRecord run;
};

CheckpointFile::CheckpointFile(const std::string& path) {
    CheckedFile file = read_checked(path);
    RunRecord run = run_record_of(file, path);
    file_ = std::make_unique<Checked>(Checked{path, std::move(file), std::move(run)});
}
CheckpointFile::~CheckpointFile() = default;
CheckpointFile::CheckpointFile(CheckpointFile&&) noexcept = default;
CheckpointFile& CheckpointFile::operator=(CheckpointFile&&) noexcept = default;

const std::string& CheckpointFile::path() const { return file_->path; }
const RunRecord& CheckpointFile::run_record() const { return file_->run; }

void CheckpointFile::load(Module& module, optim::Optimizer* optimizer) const {
    load_checked(file_->file, file_->path, module, optimizer);
}

void load_checkpoint(const std::string& path, Module& module, optim::Optimizer* optimizer, RunRecord* run) {
    const CheckpointFile file(path);
    file.load(module, optimizer);
    if (run) *run = file.run_record();
}

RunRecord read_run_record(const std::string& path) { return CheckpointFile(path).run_record(); }

}  // namespace nn
