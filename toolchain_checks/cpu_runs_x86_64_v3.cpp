// Exit 0 when this CPU can run x86-64-v3 code (AVX2, FMA, BMI2, ...): the
// configure step compiles it without -march, so it runs on any x86-64 CPU.
int main() { return __builtin_cpu_supports("x86-64-v3") ? 0 : 1; }
