#include "lectern/nn/safetensors.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lectern/nn/checkpoint_format.h"
#include "lectern/nn/json.h"
#include "lectern/nn/output_file.h"
#include "lectern/autograd/printable.h"
#include "lectern/autograd/regular_file.h"

namespace nn {

using namespace autograd;

static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian; so must the host be");

namespace {

// Header lengths above this are refused before the header is read. GPT-2
// 1558M's header is 60 KB and one of 10,000 tensors about 1 MB. The JSON parser
// holds up to 17 bytes per header byte (8 MB of "[],[],..." held 140 MB), so
// the safetensors library's own limit, 100 MB, would cost 1.7 GB before a
// single field is checked.
constexpr std::uint64_t kMaxHeader = 8u << 20;
// The format's nesting: the header object, a tensor's object, its shape or offsets.
constexpr int kHeaderDepth = 3;
constexpr std::size_t kMaxRank = 16;

std::uint64_t element_size(const std::string& dtype) {
    if (dtype == "F32") return 4;
    if (dtype == "F16" || dtype == "BF16") return 2;
    if (dtype == "F64") return 8;
    return 0;
}

// IEEE half -> float: sign, 5-bit exponent (bias 15), 10-bit fraction; exact.
float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (fraction << 13);  // inf, NaN
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (fraction << 13);  // 112 = 127 - 15
    } else {
        float v = std::ldexp(static_cast<float>(fraction), -24);  // subnormal (or zero): fraction 2^-24
        return sign ? -v : v;
    }
    return std::bit_cast<float>(bits);
}

// bfloat16 is float32's upper half.
float bfloat16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

// float -> IEEE half, rounded to the nearest, ties to even. Of the 13 fraction bits a normal
// half drops, above half an ulp rounds up, exactly half rounds to the even neighbour (a carry
// into the exponent is right: 0x3bff + 1 is 1.0). Below 2^-14 the half is subnormal, a
// multiple of 2^-24, found by rounding v 2^24 (exact scaling) in the default rounding mode,
// which is to nearest even. From 65520, halfway past 65504, the result is infinite.
std::uint16_t float_to_half(float v) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(v), x = bits & 0x7fffffffu;
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    if (x > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN stays a (quiet) NaN
    if (x >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // infinity, or rounds to it
    if (x < 0x38800000u)
        return static_cast<std::uint16_t>(
            sign | static_cast<std::uint16_t>(std::nearbyint(std::ldexp(std::bit_cast<float>(x), 24))));
    std::uint32_t h = ((x >> 23) - 112) << 10 | (x & 0x7fffffu) >> 13;  // 112 = 127 - 15
    const std::uint32_t dropped = x & 0x1fffu;
    if (dropped > 0x1000u || (dropped == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

// float -> bfloat16, float32's upper half rounded to the nearest, ties to even: adding
// 0x7fff, plus 1 when the kept half is odd, carries into it exactly when it should round up.
std::uint16_t float_to_bfloat16(float v) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(v);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
    return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

// What tensor t is stored as, and its bytes per element.
std::string stored_dtype(const Tensor& t, SafetensorsStore store) {
    if (store == SafetensorsStore::f16) return "F16";
    if (store == SafetensorsStore::bf16) return "BF16";
    return t.dtype() == Dtype::float32 ? "F32" : "F64";
}

// t's elements as `dtype` (stored_dtype's), little-endian, at out.
void store_bytes(const Tensor& t, const std::string& dtype, char* out) {
    const std::int64_t n = t.numel();
    if (dtype == "F32" || dtype == "F64") {
        if (n) std::memcpy(out, t.raw_data(), static_cast<std::size_t>(n) * dtype_size(t.dtype()));
        return;
    }
    dispatch_floating(t.dtype(), [&](auto zero) {
        const auto* p = t.data<decltype(zero)>();
        for (std::int64_t i = 0; i < n; ++i) {
            const auto f = static_cast<float>(p[i]);
            const std::uint16_t h = dtype == "F16" ? float_to_half(f) : float_to_bfloat16(f);
            std::memcpy(out + 2 * i, &h, 2);
        }
    });
}

template <class T>
void convert(const std::string& dtype, const char* raw, std::int64_t n, T* out) {
    for (std::int64_t i = 0; i < n; ++i) {
        if (dtype == "F32") {
            float v;
            std::memcpy(&v, raw + 4 * i, 4);
            out[i] = static_cast<T>(v);
        } else if (dtype == "F64") {
            double v;
            std::memcpy(&v, raw + 8 * i, 8);
            out[i] = static_cast<T>(v);
        } else {
            std::uint16_t v;
            std::memcpy(&v, raw + 2 * i, 2);
            out[i] = static_cast<T>(dtype == "F16" ? half_to_float(v) : bfloat16_to_float(v));
        }
    }
}

struct Header {
    std::map<std::string, SafetensorsEntry> entries;
    std::uint64_t data_start = 0;
};

Header read_header(const std::string& path, std::ifstream& in) {
    auto fail = [&](const std::string& what) {
        return SafetensorsError(fmt::format("safetensors: {}: {}", path, what));
    };
    std::error_code ec;
    const std::uint64_t file_size = std::filesystem::file_size(path, ec);
    if (ec || !in) throw fail("cannot open it for reading");
    if (file_size < 8)
        throw fail(fmt::format("is truncated: {} bytes, shorter than the 8-byte header length", file_size));
    std::uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), 8);
    // A file that opens with Lectern's checkpoint magic is no safetensors file, whatever
    // its first 8 bytes would read as a header length.
    if (std::memcmp(&n, checkpoint_format::kMagic, sizeof n) == 0)
        throw fail("not a safetensors file (this is a Lectern checkpoint)");
    if (n > kMaxHeader)
        throw fail(
            fmt::format("the header is too large: {} bytes, more than the {} this reader allows", n, kMaxHeader));
    if (n > file_size - 8)
        throw fail(fmt::format("is truncated: the header needs {} bytes, {} follow", n, file_size - 8));
    std::string text(n, '\0');
    in.read(text.data(), static_cast<std::streamsize>(n));
    if (!in) throw fail("cannot read its header");

    nlohmann::json json;
    try {
        json = parse_json(text, kHeaderDepth);
    } catch (const JsonError& e) {
        throw fail(fmt::format("the header {}", e.what()));
    }
    if (!json.is_object()) throw fail("the header is not a JSON object");
    Header h;
    h.data_start = 8 + n;
    const std::uint64_t data_size = file_size - h.data_start;
    for (const auto& item : json.items()) {
        const std::string& name = item.key();  // not a structured binding: clang 14 (the fuzz build) cannot capture one
        const auto& value = item.value();
        if (name == "__metadata__") continue;
        auto bad = [&](const std::string& what) { return fail(fmt::format("tensor '{}': {}", printable(name), what)); };
        if (!value.is_object() || !value.contains("dtype") || !value.contains("shape") ||
            !value.contains("data_offsets"))
            throw bad("needs an object with dtype, shape and data_offsets");
        const auto &dtype = value["dtype"], &shape = value["shape"], &offsets = value["data_offsets"];
        if (!dtype.is_string() || element_size(dtype.get<std::string>()) == 0)
            throw bad(fmt::format("dtype {} is not one of F32, F16, BF16, F64", printable(dtype.dump())));
        if (!shape.is_array() || shape.size() > kMaxRank) throw bad("shape must be an array of at most 16 sizes");
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
            !offsets[1].is_number_unsigned())
            throw bad("data_offsets must be [begin, end], two non-negative integers");
        SafetensorsEntry e;
        e.dtype = dtype.get<std::string>();
        std::uint64_t bytes = element_size(e.dtype);
        for (const auto& s : shape) {
            if (!s.is_number_unsigned() ||
                s.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                throw bad(
                    fmt::format("shape {} holds a size that is not a non-negative integer", printable(shape.dump())));
            const std::uint64_t size = s.get<std::uint64_t>();
            if (size != 0 && bytes > std::numeric_limits<std::uint64_t>::max() / size)
                throw bad(fmt::format("shape {} overflows 64 bits", printable(shape.dump())));
            bytes *= size;
            e.shape.push_back(static_cast<std::int64_t>(size));
        }
        e.begin = offsets[0].get<std::uint64_t>();
        e.end = offsets[1].get<std::uint64_t>();
        if (e.begin > e.end || e.end > data_size)
            throw bad(
                fmt::format("data_offsets [{}, {}] fall outside the {} bytes of data", e.begin, e.end, data_size));
        if (e.end - e.begin != bytes)
            throw bad(fmt::format("{} {} needs {} bytes, data_offsets [{}, {}] hold {}", e.dtype,
                                  printable(shape.dump()), bytes, e.begin, e.end, e.end - e.begin));
        h.entries.emplace(name, std::move(e));
    }
    // The ranges must tile [0, data_size): sorted by begin, each starts where the last ended.
    std::vector<std::pair<std::uint64_t, const std::string*>> starts;
    for (const auto& [name, e] : h.entries) starts.emplace_back(e.begin, &name);
    std::sort(starts.begin(), starts.end(), [&](const auto& a, const auto& b) {
        const auto &ea = h.entries.at(*a.second), &eb = h.entries.at(*b.second);
        return ea.begin != eb.begin ? ea.begin < eb.begin : ea.end < eb.end;
    });
    std::uint64_t at = 0;
    for (const auto& [begin, name] : starts) {
        if (begin != at)
            throw fail(fmt::format("tensor '{}': data_offsets start at {}, where the tensors before end at {} ({})",
                                   printable(*name), begin, at, begin < at ? "overlap" : "a gap"));
        at = h.entries.at(*name).end;
    }
    if (at != data_size)
        throw fail(fmt::format("{} bytes of data follow the last tensor's end at {}", data_size - at, at));
    return h;
}

}  // namespace

SafetensorsFile::SafetensorsFile(std::string path) : path_(std::move(path)) {
    autograd::require_regular_file<SafetensorsError>(path_, "safetensors");
    std::ifstream in(path_, std::ios::binary);
    Header h = read_header(path_, in);
    entries_ = std::move(h.entries);
    data_start_ = h.data_start;
}

Tensor SafetensorsFile::read(const std::string& name, Dtype dtype) const {
    auto it = entries_.find(name);
    if (it == entries_.end())
        throw SafetensorsError(fmt::format("safetensors: {}: holds no tensor '{}'", path_, printable(name)));
    if (dtype != Dtype::float32 && dtype != Dtype::float64)
        throw SafetensorsError(
            fmt::format("safetensors: {}: tensor '{}' can be read as float32 or float64", path_, printable(name)));
    const SafetensorsEntry& e = it->second;
    Tensor t = Tensor::empty(e.shape, dtype);
    if (e.end == e.begin) return t;
    std::ifstream in(path_, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(data_start_ + e.begin));
    if (e.dtype == "F32" && dtype == Dtype::float32) {  // straight into the tensor
        in.read(reinterpret_cast<char*>(t.data<float>()), static_cast<std::streamsize>(e.end - e.begin));
    } else {
        std::vector<char> raw(e.end - e.begin);
        in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
        if (dtype == Dtype::float32) convert(e.dtype, raw.data(), t.numel(), t.data<float>());
        else convert(e.dtype, raw.data(), t.numel(), t.data<double>());
    }
    if (!in)
        throw SafetensorsError(fmt::format("safetensors: {}: tensor '{}': cannot read its data (changed since opened?)",
                                           path_, printable(name)));
    return t;
}

std::map<std::string, Tensor> read_safetensors(const std::string& path, Dtype dtype) {
    SafetensorsFile file(path);
    std::map<std::string, Tensor> out;
    for (const auto& [name, entry] : file.entries()) out.emplace(name, file.read(name, dtype));
    return out;
}

void write_safetensors(const std::string& path, const std::map<std::string, Tensor>& tensors, SafetensorsStore store) {
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    std::uint64_t at = 0;
    for (const auto& [name, t] : tensors) {
        if (name == "__metadata__" || name.empty())
            throw SafetensorsError(fmt::format("safetensors: {}: '{}' cannot name a tensor", path, name));
        if (t.dtype() != Dtype::float32 && t.dtype() != Dtype::float64)
            throw SafetensorsError(fmt::format("safetensors: {}: tensor '{}' is {}; float32 and float64 are written",
                                               path, name, dtype_name(t.dtype())));
        const std::string dtype = stored_dtype(t, store);
        const std::uint64_t bytes = static_cast<std::uint64_t>(t.numel()) * element_size(dtype);
        header[name] = {{"dtype", dtype}, {"shape", t.shape()}, {"data_offsets", {at, at + bytes}}};
        at += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string file(8 + text.size() + at, '\0');
    const std::uint64_t n = text.size();
    std::memcpy(file.data(), &n, 8);
    std::memcpy(file.data() + 8, text.data(), text.size());
    char* data = file.data() + 8 + text.size();
    for (const auto& [name, t] : tensors) {
        const std::string dtype = stored_dtype(t, store);
        store_bytes(t, dtype, data);
        data += static_cast<std::size_t>(t.numel()) * element_size(dtype);
    }
    write_file_atomically(path, file);
}

}  // namespace nn
