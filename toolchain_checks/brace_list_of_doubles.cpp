// GCC 12.2 with AVX-512 enabled (-march=native on Zen 4 and recent Intel CPUs,
// -march=x86-64-v4) compiles this brace list into a broadcast of its first
// value: the vector arrives as eight ones. The configure step compiles and runs
// this with the chosen -march and optimisation, and builds without AVX-512 if it
// fails. Exit 0 when the list arrives intact.
#include <vector>

__attribute__((noinline)) int count_ones(const std::vector<double>& v) {
    int ones = 0;
    for (double x : v) ones += x == 1.0;
    return ones;
}

int main() { return count_ones({1, 1, 0, 0, 0, 0, 0, 0}) == 2 ? 0 : 1; }
