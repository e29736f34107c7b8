#pragma once
// Greedy decoding per token, with the key/value cache (models::greedy_decode)
// or without it (greedy_decode_recompute, which re-decodes the whole prefix at
// every step), on the copy task's small model (untrained: the time does not
// depend on the weights, and without an end symbol every run decodes all the
// tokens). One sequence at a time, as a user waiting for an answer; its source
// is a start symbol and `tokens` random symbols, and `tokens` are decoded. The
// two ways are two workloads, so that each one's peak RSS is its own.
#include <cstdint>
#include <vector>

#include "benchmarks/workload.h"

namespace benchmarks {

enum class Decoding { cached, recompute };

std::vector<std::int64_t> decode_lengths(bool quick);  // 16, 64, 256 (quick: 16)

// One record per length: milliseconds per decoded token, the encoder's one
// pass included, the median of whole decodings (80 runs at 16 tokens, 20 at
// 64, 5 at 256).
std::vector<Record> bench_decode(Decoding way, const RunSettings& run);

}  // namespace benchmarks
