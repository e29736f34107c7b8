#pragma once
// Debian's emscripten 3.1.6 ships libc++ 13, whose <bit> lacks C++20's std::bit_cast
// (libc++ 14 has it). The web build includes this header before every file (meson.build,
// the web block) so the core's std::bit_cast compiles there as it does natively: the
// same compiler builtin libc++ 14 defines it with.
#include <bit>
#include <type_traits>

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000
namespace std {
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>) constexpr To
    bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif
