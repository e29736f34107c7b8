#include "nn/checkpoint.h"

#include <unistd.h>
#include <zlib.h>

#include <bit>
#include <cstdio>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

namespace {

static_assert(std::endian::native == std::endian::little, "the checkpoint format is little-endian");

constexpr char kMagic[8] = {'L', 'E', 'C', 'T', 'E', 'R', 'N', '\0'};
constexpr std::uint32_t kVersion = 1;
enum Kind : std::uint8_t { kParameter = 0, kOptimizerState = 1 };

std::uint8_t dtype_code(Dtype d) { return d == Dtype::float32 ? 0 : d == Dtype::float64 ? 1 : 2; }

// ---- writing ---------------------------------------------------------------

struct Writer {
    std::string bytes;
    template <class T> void put(T v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void put_bytes(const void* p, std::size_t n) { bytes.append(static_cast<const char*>(p), n); }
    void put_tensor(Kind kind, const std::string& name, const Tensor& t) {
        put<std::uint8_t>(kind);
        put<std::uint32_t>(static_cast<std::uint32_t>(name.size()));
        put_bytes(name.data(), name.size());
        put<std::uint8_t>(dtype_code(t.dtype()));
        put<std::uint32_t>(static_cast<std::uint32_t>(t.dim()));
        for (auto d : t.shape()) put<std::int64_t>(d);
        put_bytes(t.raw_data(), static_cast<std::size_t>(t.numel()) * dtype_size(t.dtype()));
    }
};

// ---- reading ---------------------------------------------------------------

struct Record {
    Kind kind;
    std::string name;
    Tensor tensor;
};

struct Reader {
    const std::string& bytes;
    const std::string& path;
    std::size_t pos = 0;
    std::size_t end;  // where the records must stop (the checksum follows)

    void need(std::size_t n, const char* what) const {
        if (pos + n > end)
            throw CheckpointError(fmt::format("load_checkpoint: {} is truncated: {} needs {} bytes at offset {}, {} remain",
                                              path, what, n, pos, end - pos));
    }
    template <class T> T get(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, bytes.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    }
    Record record(std::uint32_t index) {
        Record r;
        auto kind = get<std::uint8_t>("a record's kind");
        if (kind > kOptimizerState)
            throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: record {} has kind {}", path, index, kind));
        r.kind = static_cast<Kind>(kind);
        auto len = get<std::uint32_t>("a name's length");
        need(len, "a name");
        r.name.assign(bytes.data() + pos, len);
        pos += len;
        auto code = get<std::uint8_t>("a dtype");
        if (code > 2)
            throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: '{}' has dtype code {}", path, r.name, code));
        Dtype dtype = code == 0 ? Dtype::float32 : code == 1 ? Dtype::float64 : Dtype::int64;
        auto ndim = get<std::uint32_t>("a rank");
        if (ndim > 16)
            throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: '{}' has {} dims", path, r.name, ndim));
        Shape shape(ndim);
        std::size_t count = 1;
        for (auto& d : shape) {
            d = get<std::int64_t>("a size");
            if (d < 0 || d > (std::int64_t{1} << 40))
                throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: '{}' has size {}", path, r.name, d));
            count *= static_cast<std::size_t>(d);
        }
        std::size_t n = count * dtype_size(dtype);
        need(n, "tensor data");
        r.tensor = Tensor::empty(shape, dtype);
        std::memcpy(r.tensor.raw_data(), bytes.data() + pos, n);
        pos += n;
        return r;
    }
};

std::string read_file(const std::string& path) {
    if (std::filesystem::exists(path) && !std::filesystem::is_regular_file(path))
        throw CheckpointError(fmt::format("load_checkpoint: cannot open {}: not a regular file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CheckpointError(fmt::format("load_checkpoint: cannot open {}: {}", path, std::strerror(errno)));
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t crc_of(const std::string& bytes, std::size_t from, std::size_t to) {
    return static_cast<std::uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(bytes.data() + from), static_cast<uInt>(to - from)));
}

}  // namespace

void save_checkpoint(const std::string& path, const Module& module, const optim::Optimizer* optimizer) {
    auto params = module.named_parameters();
    std::vector<std::pair<std::string, Tensor>> state;
    if (optimizer) state = optimizer->named_state();
    Writer w;
    w.put_bytes(kMagic, sizeof kMagic);
    w.put<std::uint32_t>(kVersion);
    w.put<std::uint32_t>(optimizer ? 1u : 0u);
    w.put<std::int64_t>(optimizer ? optimizer->step_count() : 0);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(params.size() + state.size()));
    for (const auto& [name, t] : params) w.put_tensor(kParameter, name, t);
    for (const auto& [name, t] : state) w.put_tensor(kOptimizerState, name, t);
    w.put<std::uint32_t>(crc_of(w.bytes, sizeof kMagic, w.bytes.size()));

    // Write and sync the temporary file, then rename it over the old one: the
    // previous checkpoint survives a crash or power loss at any point.
    std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw CheckpointError(fmt::format("save_checkpoint: cannot write {}: {}", tmp, std::strerror(errno)));
    bool ok = std::fwrite(w.bytes.data(), 1, w.bytes.size(), f) == w.bytes.size() && std::fflush(f) == 0 &&
              ::fsync(::fileno(f)) == 0;
    int err = errno;
    ok = std::fclose(f) == 0 && ok;
    if (!ok) {
        std::filesystem::remove(tmp);
        throw CheckpointError(fmt::format("save_checkpoint: writing {} failed: {}", tmp, std::strerror(err)));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp);
        throw CheckpointError(fmt::format("save_checkpoint: cannot rename {} to {}: {}", tmp, path, ec.message()));
    }
}

void load_checkpoint(const std::string& path, Module& module, optim::Optimizer* optimizer) {
    std::string bytes = read_file(path);
    constexpr std::size_t kHeader = sizeof kMagic + 4 + 4 + 8 + 4;
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw CheckpointError(fmt::format("load_checkpoint: {} is not a Lectern checkpoint (wrong magic)", path));
    if (bytes.size() < kHeader + 4)
        throw CheckpointError(fmt::format("load_checkpoint: {} is truncated: {} bytes, a header needs {}", path,
                                          bytes.size(), kHeader + 4));
    Reader r{bytes, path, sizeof kMagic, bytes.size() - 4};
    auto version = r.get<std::uint32_t>("the version");
    if (version != kVersion)
        throw CheckpointError(fmt::format("load_checkpoint: {} has format version {}; this build reads version {}", path,
                                          version, kVersion));
    auto flags = r.get<std::uint32_t>("the flags");
    auto step = r.get<std::int64_t>("the step count");
    auto count = r.get<std::uint32_t>("the record count");
    std::vector<Record> records;
    for (std::uint32_t i = 0; i < count; ++i) records.push_back(r.record(i));
    if (r.pos != r.end)
        throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: {} unexpected bytes after the records", path,
                                          r.end - r.pos));
    std::uint32_t stored;
    std::memcpy(&stored, bytes.data() + r.end, sizeof stored);
    if (stored != crc_of(bytes, sizeof kMagic, r.end))
        throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: checksum mismatch", path));

    // Validate against the module before touching it.
    std::map<std::string, Tensor> saved;
    std::vector<std::pair<std::string, Tensor>> state;
    for (Record& rec : records) {
        if (rec.kind == kOptimizerState) {
            state.emplace_back(rec.name, rec.tensor);
        } else if (!saved.emplace(rec.name, rec.tensor).second) {
            throw CheckpointError(fmt::format("load_checkpoint: {} is corrupted: parameter '{}' appears twice", path, rec.name));
        }
    }
    auto params = module.named_parameters();
    for (const auto& [name, p] : params) {
        auto it = saved.find(name);
        if (it == saved.end())
            throw CheckpointError(fmt::format("load_checkpoint: {} has no parameter '{}'", path, name));
        if (it->second.shape() != p.shape())
            throw CheckpointError(fmt::format("load_checkpoint: parameter '{}' is {} in {} but {} in the model", name,
                                              shape_str(it->second.shape()), path, shape_str(p.shape())));
        if (it->second.dtype() != p.dtype())
            throw CheckpointError(fmt::format("load_checkpoint: parameter '{}' is {} in {} but {} in the model", name,
                                              dtype_name(it->second.dtype()), path, dtype_name(p.dtype())));
    }
    if (saved.size() != params.size()) {
        for (const auto& [name, t] : saved) {
            bool known = false;
            for (const auto& [pname, p] : params) known = known || pname == name;
            if (!known)
                throw CheckpointError(fmt::format("load_checkpoint: {} has unexpected parameter '{}'", path, name));
        }
    }
    if (optimizer) {
        if (!(flags & 1u)) throw CheckpointError(fmt::format("load_checkpoint: {} holds no optimizer state", path));
        try {
            optimizer->load_state(state, step);  // validates everything before changing the optimizer
        } catch (const Error& e) {
            throw CheckpointError(fmt::format("load_checkpoint: {}: optimizer state does not fit: {}", path, e.what()));
        }
    }
    NoGradGuard no_grad;
    for (auto& [name, p] : params) p.copy_(saved.at(name));
}

}  // namespace nn
