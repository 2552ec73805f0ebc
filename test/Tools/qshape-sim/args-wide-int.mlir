// Integer arguments up to i64: i63's range reaches INT64_MAX, and computing
// its bound must not overflow int64_t (UBSan under make check-sanitize; found
// by qshape-args-fuzzer, input test/Fuzz/Inputs/args/i63-bound.txt).

// RUN: qshape-sim %s --args '[-3, 9223372036854775807, -9223372036854775808]' | FileCheck %s
// CHECK: {"results": [-3, -1, -9223372036854775808]}

// RUN: not qshape-sim %s --args '[-4611686018427387905, 0, 0]' 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: qshape-sim: error: --args: argument #0 (i63): -4611686018427387905 does not fit i63

func.func @echo(%a: i63, %b: i63, %c: i64) -> (i63, i63, i64) {
  return %a, %b, %c : i63, i63, i64
}
