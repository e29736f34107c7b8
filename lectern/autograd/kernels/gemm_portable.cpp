// Lectern's own GEMM (gemm_portable.h): C[m, n] = op(A) op(B) + beta C, blocked as in
// GotoBLAS and BLIS (Goto and van de Geijn, "Anatomy of High-Performance Matrix
// Multiplication", 2008). A product does 2 m n k flops on m k + k n + m n numbers, so each
// number loaded can feed many multiply-adds; the work is to keep the core fed from the caches
// and the registers rather than from memory. Five loops around one small kernel:
//
//   for jc over n in blocks of NC columns            B's block [KC, NC] stays in the L3 cache
//     for pc over k in blocks of KC                  each C element gets its k terms in order
//       pack op(B)[pc.., jc..] [kc, nc] into panels of NR columns
//       for ic over m in blocks of MC rows           A's block [MC, KC] stays in the L2 cache
//         pack op(A)[ic.., pc..] [mc, kc] into panels of MR rows
//         for jr over nc in steps of NR              one B panel [kc, NR] stays in the L1 cache
//           for ir over mc in steps of MR
//             micro_kernel: C[MR, NR] (+)= A panel [MR, kc] x B panel [kc, NR], in registers
//
// Packing copies each operand's block once into the order the micro-kernel reads it, one
// contiguous stream per panel, whatever the transposes and row strides of the operands: the
// transposes cost nothing after the copy, and edge panels are padded with zeros so that the
// micro-kernel is the same for every tile. An edge tile (fewer than MR rows or NR columns
// left) is computed whole and only its part inside C is stored.
//
// Order of the sums: element C[i][j] adds its k products in the order p = 0, 1, .., k - 1,
// in blocks of KC summed from zero and then added to C (beta 0 writes the first block, never
// reading C). That order depends on k alone: not on where the element sits in its tile, nor
// on m, nor on how C's rows are split between calls. gemm.h's threads split C's rows, so a
// product is the same to the bit on any number of threads.
#include "lectern/autograd/kernels/gemm_portable.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "lectern/autograd/allocator.h"

namespace autograd::detail {
namespace {

// The one choice made per target: the width of a vector register. AVX2 (x86-64-v3, the default
// isa) has 16 registers of 32 bytes; SSE (x86-64-v2), NEON and WebAssembly's SIMD128
// (-msimd128) have 16-byte ones (NEON has 32 of them, SSE and SIMD128 as run on x86 16).
// Everything below follows from it and is written once with GCC's and Clang's vector extension;
// a compiler without the instructions splits the vectors into what it has.
#if defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

using FloatVector [[gnu::vector_size(kVectorBytes)]] = float;
using DoubleVector [[gnu::vector_size(kVectorBytes)]] = double;
template <class T>
struct VectorOf;
template <>
struct VectorOf<float> {
    using type = FloatVector;
};
template <>
struct VectorOf<double> {
    using type = DoubleVector;
};

template <class V, class T>
V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}
template <class V, class T>
void store(T* p, V v) {
    std::memcpy(p, &v, sizeof(v));
}

// The tile and block sizes for element type T.
template <class T>
struct Blocking {
    static constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(T));  // 8 floats, 4 doubles on AVX2
    // The micro-kernel's tile of C, MR x NR, lives in registers: MR rows of NR / kLanes = 2
    // vectors each, 12 accumulators, beside the 2 vectors of a row of the B panel and the
    // broadcast element of A: 15 of the 16 registers. Each step of p loads 2 vectors and MR
    // elements and does 12 vector multiply-adds into 12 independent sums: an FMA's result is
    // ready 4 or 5 cycles after it starts and two start per cycle, so at least 8 to 10 sums must
    // be in flight to keep the FMA units busy.
    static constexpr int kMR = 6;
    static constexpr int kNR = 2 * kLanes;  // 16 floats, 8 doubles on AVX2
    // A B panel [KC, NR] (16 KiB with AVX2) and an A panel [MR, KC] (6 KiB of floats) fit in a
    // 32 KiB L1 cache together.
    static constexpr std::int64_t kKC = 256;
    // A's block [MC, KC], about 120 KiB, stays in the L2 cache (256 KiB to 1 MiB per core)
    // while every B panel passes it; MC is a multiple of MR.
    static constexpr std::int64_t kMC = (std::int64_t{120} << 10) / (kKC * std::int64_t{sizeof(T)}) / kMR * kMR;
    // B's block [KC, NC], 4 MiB, stays in the L3 cache, read again for every block of A.
    static constexpr std::int64_t kNC = (std::int64_t{4} << 20) / (kKC * std::int64_t{sizeof(T)}) / kNR * kNR;
};

std::int64_t round_up(std::int64_t x, std::int64_t step) { return (x + step - 1) / step * step; }

// Packing, the same for both operands: a block X [extent, kc] into panels of W along its first
// dimension, each panel [kc][W]: for every p, the panel's W elements X[x][p] side by side, as the
// micro-kernel reads them; x past extent is zero. X is op(A)'s block (x its rows, W = MR) or
// op(B)'s block turned on its side (x its columns, W = NR), read from src (its first element)
// either way round:
//   x_major:  X[x][p] = src[x ld + p]   (A, or B^T: along p in a row of the operand)
//   else:     X[x][p] = src[p ld + x]   (A^T, or B: W neighbours x in a row of the operand)
// Each loop nest reads the operand along its rows. The x_major case (the forward x W^T of every
// Linear) goes in strips of 8 elements of each row, so that a strip's writes stay in a few lines
// of the panel: on GPT-2's and the annotated copy task's forward products that ran 5 to 15%
// faster than whole rows at a time (benchmarks/bench_gemm).
template <int W, class T>
void pack_panels(bool x_major, const T* src, std::int64_t ld, std::int64_t extent, std::int64_t kc, T* dst) {
    for (std::int64_t x0 = 0; x0 < extent; x0 += W, dst += W * kc) {
        const std::int64_t width = std::min<std::int64_t>(W, extent - x0);
        if (width < W) std::fill(dst, dst + W * kc, T(0));
        if (x_major)  // in strips of 8 columns p: a strip reads 32 bytes of each row, writes 8 rows of dst
            for (std::int64_t p0 = 0; p0 < kc; p0 += 8)
                for (std::int64_t x = 0; x < width; ++x)
                    for (std::int64_t p = p0; p < std::min(kc, p0 + 8); ++p) dst[p * W + x] = src[(x0 + x) * ld + p];
        else
            for (std::int64_t p = 0; p < kc; ++p)
                for (std::int64_t x = 0; x < width; ++x) dst[p * W + x] = src[p * ld + x0 + x];
    }
}

// The micro-kernel: the tile T[MR, NR] = sum over p < kc of ap's column p times bp's row p (an
// outer product per p: MR broadcast elements of A times NR elements of B), summed in registers,
// then C[0..rows)[0..cols) = T, or C + T when `add`. C's rows are ldc apart.
//
// Contraction: `acc += a * b` is one expression, and GCC (in C++ its default is
// -ffp-contract=fast) and Clang (-ffp-contract=on) both compile it to a fused multiply-add
// wherever the target has one (x86-64-v3, NEON): each product is then added unrounded. Without
// FMA (x86-64-v2, WebAssembly's SIMD128) the product is rounded first. So one build gives the
// same bits on any machine and thread count, but an FMA build and a build without FMA differ in
// the last bits of a sum; both are within the bound tests/autograd/test_gemm.cpp holds them to.
template <class T>
void micro_kernel(std::int64_t kc, const T* ap, const T* bp, T* c, std::int64_t ldc, std::int64_t rows,
                  std::int64_t cols, bool add) {
    using V = typename VectorOf<T>::type;
    constexpr int MR = Blocking<T>::kMR, NR = Blocking<T>::kNR, L = Blocking<T>::kLanes, NV = NR / L;
    V acc[MR][NV] = {};
    for (std::int64_t p = 0; p < kc; ++p, ap += MR, bp += NR) {
        V bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bv[v] = load<V>(bp + v * L);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
            const T ai = ap[i];
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) acc[i][v] += ai * bv[v];
        }
    }
    if (rows == MR && cols == NR) {
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) {
                T* cv = c + i * ldc + v * L;
                store(cv, add ? acc[i][v] + load<V>(cv) : acc[i][v]);
            }
        return;
    }
    // An edge tile: the same sums, stored element by element inside C (addition commutes, so
    // C + T here has the bits of T + C above).
    T tile[MR][NR];
    std::memcpy(tile, acc, sizeof(tile));
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) c[i * ldc + j] = add ? c[i * ldc + j] + tile[i][j] : tile[i][j];
}

// A packing buffer from Lectern's caching allocator (64-byte aligned), returned on scope exit.
template <class T>
class PackBuffer {
public:
    explicit PackBuffer(std::int64_t size)
        : data_(static_cast<T*>(allocate(static_cast<std::size_t>(size) * sizeof(T)))) {}
    ~PackBuffer() { deallocate(data_); }
    PackBuffer(const PackBuffer&) = delete;
    PackBuffer& operator=(const PackBuffer&) = delete;
    T* data() const { return data_; }

private:
    T* data_;
};

}  // namespace

template <class T>
void portable_gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
                   const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta) {
    assert(beta == T(0) || beta == T(1));
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {  // op(A) op(B) is zero
        for (std::int64_t i = 0; beta == T(0) && i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
        return;
    }
    using B = Blocking<T>;
    const std::int64_t kc_max = std::min(B::kKC, k);
    PackBuffer<T> ap(round_up(std::min(B::kMC, m), B::kMR) * kc_max);
    PackBuffer<T> bp(kc_max * round_up(std::min(B::kNC, n), B::kNR));
    for (std::int64_t jc = 0; jc < n; jc += B::kNC) {
        const std::int64_t nc = std::min(B::kNC, n - jc);
        for (std::int64_t pc = 0; pc < k; pc += B::kKC) {
            const std::int64_t kc = std::min(B::kKC, k - pc);
            const bool add = pc > 0 || beta != T(0);  // the first block of k overwrites C under beta 0
            pack_panels<B::kNR>(tb, tb ? b + jc * ldb + pc : b + pc * ldb + jc, ldb, nc, kc, bp.data());
            for (std::int64_t ic = 0; ic < m; ic += B::kMC) {
                const std::int64_t mc = std::min(B::kMC, m - ic);
                pack_panels<B::kMR>(!ta, ta ? a + pc * lda + ic : a + ic * lda + pc, lda, mc, kc, ap.data());
                for (std::int64_t jr = 0; jr < nc; jr += B::kNR)
                    for (std::int64_t ir = 0; ir < mc; ir += B::kMR)
                        micro_kernel(kc, ap.data() + ir * kc, bp.data() + jr * kc, c + (ic + ir) * ldc + jc + jr, ldc,
                                     std::min<std::int64_t>(B::kMR, mc - ir), std::min<std::int64_t>(B::kNR, nc - jr),
                                     add);
            }
        }
    }
}

template void portable_gemm<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const float*, std::int64_t,
                                   const float*, std::int64_t, float*, std::int64_t, float);
template void portable_gemm<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const double*, std::int64_t,
                                    const double*, std::int64_t, double*, std::int64_t, double);

}  // namespace autograd::detail
