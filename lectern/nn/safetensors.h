#pragma once
// safetensors: the file format of tensors that Hugging Face and most tools
// read and write (huggingface/safetensors, "Format"). Layout:
//   n        u64 little-endian, the header's length in bytes
//   header   n bytes of JSON: {"<name>": {"dtype": "F32", "shape": [768, 2304],
//            "data_offsets": [begin, end]}, ..., "__metadata__": {"k": "v"}}
//   data     the tensors' bytes, row-major, little-endian; offsets count from
//            the data's start, and the tensors tile it exactly: no gap, no overlap
//
// Reading validates every field before it allocates or reads data: the header
// length against the file, the JSON, each dtype (F32, F16, BF16, F64 are read),
// each shape (sizes multiplied with overflow checks) against its byte range,
// the ranges against each other and the data's length. A failure is a
// SafetensorsError, one line naming the file and the tensor.
#include <map>
#include <string>

#include "lectern/autograd/autograd.h"

namespace nn {

struct SafetensorsError : autograd::Error {
    using autograd::Error::Error;
};

// What a file's header says of one tensor, checked.
struct SafetensorsEntry {
    std::string dtype;  // "F32", "F16", "BF16" or "F64"
    autograd::Shape shape;
    std::uint64_t begin = 0, end = 0;  // byte range within the data
};

// An open file whose header has been checked: tensors are then read one at a
// time, so loading a model holds one tensor beside it, not the whole file. A
// path that is not a regular file (a FIFO, a device, a folder) is refused
// before it is opened.
class SafetensorsFile {
public:
    explicit SafetensorsFile(std::string path);
    // tensor name -> entry (__metadata__ is skipped)
    const std::map<std::string, SafetensorsEntry>& entries() const { return entries_; }
    // The tensor `name` converted to `dtype` (float32 or float64): F16 and BF16
    // widen exactly, F64 rounds to float32 when asked for float32.
    autograd::Tensor read(const std::string& name, autograd::Dtype dtype = autograd::Dtype::float32) const;
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::map<std::string, SafetensorsEntry> entries_;
    std::uint64_t data_start_ = 0;
};

// Every tensor of `path`, converted to `dtype` as SafetensorsFile::read.
std::map<std::string, autograd::Tensor> read_safetensors(const std::string& path,
                                                         autograd::Dtype dtype = autograd::Dtype::float32);

// How write_safetensors stores the tensors: as they are (float32 as F32, float64 as F64), or
// every one as F16 or as BF16 (half precision, PyTorch's .half() and .bfloat16() weights), each
// element rounded from float32 to the nearest half, ties to even (a float64 tensor is
// rounded to float32 first). F16 values past its largest, 65504, become infinities.
enum class SafetensorsStore { as_is, f16, bf16 };

// Any dict of tensors (torch.save of a dict): names sorted, the header padded with spaces
// to a multiple of 8 bytes so the data stays aligned; the file is replaced atomically
// (nn::write_file_atomically). read_safetensors reads it back, widening F16 and BF16 exactly.
void write_safetensors(const std::string& path, const std::map<std::string, autograd::Tensor>& tensors,
                       SafetensorsStore store = SafetensorsStore::as_is);

}  // namespace nn
