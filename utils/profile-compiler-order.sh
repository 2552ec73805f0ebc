#!/usr/bin/env bash
# Regenerates cmake/qshape-compile-full.order.gz: the functions a compile
# executes, in first-call order, for lld's --symbol-ordering-file
# (cmake/QShapeStaticLLVM.cmake). Placed together, they fill a few
# megabytes of pages instead of touching pages all over the ~50 MB of
# text, which cut the compile's peak RSS by nearly half (docs/native.md,
# "How qshape-compile is linked"). A stale list (another LLVM) is harmless:
# lld skips the names it does not find and the layout is only less tight.
#
#   utils/profile-compiler-order.sh [BUILD]    (needs valgrind; ~1 min)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
compiler=$build/libexec/qshape/qshape-compile-full
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read clang's DWARF 5; the symbol table is enough.
cp "$compiler" "$work/qcf"
/usr/lib/llvm-22/bin/llvm-strip -g "$work/qcf"
python3 "$root/utils/gen/workloads.py" w2 --variant decomposed --n-trotter 10 -o "$work/w2d10.mlir"
python3 "$root/utils/gen/workloads.py" w2 --variant decomposed --n-trotter 1 -o "$work/w2d1.mlir"
run() {
  valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/cg.$1" "$work/qcf" "${@:2}" --cache=off >/dev/null 2>&1
}
# The compiles the benchmarks and users run: rolled at -O2, unrolled at
# -O2 (a small input: the same code paths), the default -O0, and the text
# emits.
run 1 "$work/w2d10.mlir" -o "$work/r.so" --opt-level=2
run 2 "$work/w2d1.mlir" -o "$work/u.so" --opt-level=2 --no-roll
run 3 "$root/test/Tools/qshape-compile/Inputs/bell.mlir" -o "$work/b.so"
run 4 "$root/test/Tools/qshape-compile/Inputs/bell.mlir" -o "$work/b.ll" --emit=llvm
# Every function of the binary that ran (fn= and cfn= lines), first seen
# first; addresses without a symbol are dropped.
nm --defined-only "$work/qcf" | awk '{print $3}' | sort -u > "$work/defined"
cat "$work"/cg.[1-4] | sed -nE 's/^c?fn=(\([0-9]+\) )?//p' | awk '!seen[$0]++' |
  awk 'NR==FNR {defined[$0]=1; next} ($0 in defined)' "$work/defined" - |
  gzip -9n > "$root/cmake/qshape-compile-full.order.gz"
echo "cmake/qshape-compile-full.order.gz: $(gzip -dc "$root/cmake/qshape-compile-full.order.gz" | wc -l) functions"
