#!/usr/bin/env bash
# `make demo`: qshape's main jobs on the bundled examples (examples/), which
# are the two user reports' circuits: W1 (the batch user's report: 140 batch jobs, written
# with and without autograph) and W2 (the QPE user's report: Trotterized QPE of H2).
set -euo pipefail
BUILD=${1:-build}
BIN=$BUILD/bin
EX=examples
PY=${PYTHON:-/usr/bin/python3}

stats() { # one line per file from qshape-stats' JSON
  for f in "$@"; do
    "$BIN/qshape-opt" "$f" --qshape-stats=output=- -o /dev/null |
      "$PY" -c 'import json,sys; s=json.load(sys.stdin); print("  %-28s %6d ops %6d gates %6d static gates %3d qubits %2d loops" % (sys.argv[1], s["ops"], s["gates"], s["static_gates"], s["qubits"], s["loops"]))' "$(basename "$f")"
  done
}

echo "== Quantum resource statistics (qshape-stats) =="
stats $EX/w1-unrolled.mlir $EX/w1-loop.mlir $EX/qpe-h2-native.mlir $EX/qpe-h2-decomposed.mlir
echo
echo "== Canonical form shrinks the unrolled traces (qshape-canonicalize) =="
for f in $EX/w1-unrolled.mlir $EX/qpe-h2-native.mlir; do
  "$BIN/qshape-opt" "$f" --qshape-canonicalize > "$BUILD/demo-$(basename "$f")"
  stats "$BUILD/demo-$(basename "$f")"
done
echo
echo "== Fingerprints (qshape-fingerprint: <exact> <shape> <file>) =="
echo "random3-rewritten.mlir is random3.mlir with renamed values, locations,"
echo "shuffled attributes, generic printing, duplicated constants, constant"
echo "indices and a different order of independent gates:"
(cd $EX && "../$BIN/qshape-fingerprint" random3.mlir random3-rewritten.mlir) | sed 's/^/  /'
echo "The four W1 jobs differ only in one gate name, so they are four topologies:"
for op in PauliX PauliY PauliZ Hadamard; do
  "$PY" utils/gen/workloads.py w1 --op $op --form unrolled -o "$BUILD/demo-w1-$op.mlir"
done
(cd "$BUILD" && "../$BIN/qshape-fingerprint" demo-w1-PauliX.mlir demo-w1-PauliY.mlir demo-w1-PauliZ.mlir demo-w1-Hadamard.mlir) | sed 's/^/  /'
if [ -x "$BIN/qshape-sim" ]; then
  echo
  echo "== The oracle (qshape-sim): both W1 forms compute the same expectation value =="
  for f in w1-unrolled w1-loop; do
    printf '  %-16s ' "$f"; "$BIN/qshape-sim" $EX/$f.mlir --args "$(cat $EX/w1.args.json)"
  done
fi
echo
echo "== Loop rolling (qshape-roll-loops): unrolled traces become loops again =="
echo "W1 as traced without autograph, and W2 (QPE of H2) with 10 Trotter steps,"
echo "generated into $BUILD/ (verify-roundtrip on: the loops unroll back to the input):"
"$PY" utils/gen/workloads.py w2 --n-trotter 10 --variant native --prep standard -o "$BUILD/demo-qpe10-native.mlir" --args-out "$BUILD/demo-qpe10.args.json"
"$PY" utils/gen/workloads.py w2 --n-trotter 10 --variant decomposed --prep standard -o "$BUILD/demo-qpe10-decomposed.mlir"
for f in $EX/w1-unrolled.mlir "$BUILD/demo-qpe10-native.mlir" "$BUILD/demo-qpe10-decomposed.mlir"; do
  out="$BUILD/demo-rolled-$(basename "$f")"
  "$BIN/qshape-opt" "$f" '--qshape-roll-loops=verify-roundtrip' -o "$out"
  before=$("$BIN/qshape-opt" "$f" --qshape-stats=output=- -o /dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["ops"])')
  after=$("$BIN/qshape-opt" "$out" --qshape-stats=output=- -o /dev/null | "$PY" -c 'import json,sys; s=json.load(sys.stdin); print("%d ops, %d loops, %d static gates" % (s["ops"], s["loops"], s["static_gates"]))')
  printf '  %-28s %5d ops -> %s\n' "$(basename "$f")" "$before" "$after"
done
echo "The oracle agrees (qshape-sim, before -> after):"
printf '  %-28s ' w1-unrolled.mlir
"$BIN/qshape-sim" $EX/w1-unrolled.mlir --args @$EX/w1.args.json | tr -d '\n'; printf ' -> '
"$BIN/qshape-sim" "$BUILD/demo-rolled-w1-unrolled.mlir" --args @$EX/w1.args.json
for v in native decomposed; do
  a=$("$BIN/qshape-sim" "$BUILD/demo-qpe10-$v.mlir" --args @"$BUILD/demo-qpe10.args.json")
  b=$("$BIN/qshape-sim" "$BUILD/demo-rolled-demo-qpe10-$v.mlir" --args @"$BUILD/demo-qpe10.args.json")
  if echo "$a" > "$BUILD/demo-a.json" && echo "$b" > "$BUILD/demo-b.json" &&
     "$PY" utils/compare-results.py "$BUILD/demo-a.json" "$BUILD/demo-b.json" --tol 1e-9; then
    printf '  %-28s probabilities of the 4 estimation qubits agree to 1e-9: %s\n' "demo-qpe10-$v.mlir" "$(echo "$b" | cut -c1-60)..."
  else
    echo "  ERROR: demo-qpe10-$v.mlir: results differ after rolling"; exit 1
  fi
done
echo
echo "== Loop rolling at scale: W2 with a 100-term Hamiltonian (8 system qubits, 10 Trotter steps) =="
# Real chemistry Hamiltonians have hundreds of terms: a Trotter step is then
# hundreds of ops, the four controlled blocks become loops of loops.
"$PY" utils/gen/workloads.py w2 --variant decomposed --hamiltonian synthetic --terms 100 --qubits 8 \
  --n-trotter 10 -o "$BUILD/demo-w2-100.mlir"
"$BIN/qshape-opt" "$BUILD/demo-w2-100.mlir" --qshape-roll-loops --mlir-timing \
  -o "$BUILD/demo-w2-100.rolled.mlir" 2> "$BUILD/demo-w2-100.timing"
parse=$(grep -E '^ +[0-9.]+ \( *[0-9.]+%\) +Parser$' "$BUILD/demo-w2-100.timing" | awk '{print $1}')
roll=$(grep -E 'QShapeRollLoops$' "$BUILD/demo-w2-100.timing" | awk '{print $1}')
before=$("$BIN/qshape-opt" "$BUILD/demo-w2-100.mlir" --qshape-stats=output=- -o /dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["ops"])')
after=$("$BIN/qshape-opt" "$BUILD/demo-w2-100.rolled.mlir" --qshape-stats=output=- -o /dev/null | "$PY" -c 'import json,sys; s=json.load(sys.stdin); print("%d ops, %d loops" % (s["ops"], s["loops"]))')
printf '  demo-w2-100.mlir %d ops -> %s\n' "$before" "$after"
printf '  qshape-opt --mlir-timing: parse %s s, qshape-roll-loops %s s\n' "$parse" "$roll"
echo
echo "== Compile cache (qshape-cache): the same circuit compiled in two processes =="
# A deliberately expensive upstream pipeline stands in for Catalyst's
# lowering (which qshape does not ship): 400 rounds of cleanup passes.
CACHE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/qshape-demo-cache.XXXXXX")
trap 'rm -rf "$CACHE_DIR"' EXIT
ROUND="func.func(canonicalize,cse,sccp),inline,symbol-dce"
PIPELINE=$ROUND
for _ in $(seq 2 400); do PIPELINE="$PIPELINE,$ROUND"; done
echo "nested pipeline: 400 x \"$ROUND\"; cache directory: a fresh temporary one"
for run in 1 2; do
  t0=$(date +%s%N)
  "$BIN/qshape-opt" $EX/qpe-h2-native.mlir \
    --qshape-cache="dir=$CACHE_DIR pipeline=$PIPELINE emit-remarks" \
    -o "$BUILD/demo-cache-$run.mlir" 2> "$BUILD/demo-cache-$run.err"
  t1=$(date +%s%N)
  remark=$(grep -o 'qshape-cache: [a-z]* blake3:[0-9a-f]*' "$BUILD/demo-cache-$run.err" | head -1)
  ms=$(( (t1 - t0) / 1000000 ))
  printf '  process %d: %-84s %3d.%03d s\n' "$run" "$remark" $((ms / 1000)) $((ms % 1000))
done
if cmp -s "$BUILD/demo-cache-1.mlir" "$BUILD/demo-cache-2.mlir"; then
  echo "  the hit's output is identical to the miss's"
else
  echo "  ERROR: the hit's output differs from the miss's"; exit 1
fi
echo "  qshape-cache stats --dir <cache>:"
"$BIN/qshape-cache" stats --dir "$CACHE_DIR" | grep -E '^(Entries|Cache size|Hits|Misses|Hit rate|Compile time saved)' | sed 's/^/    /'
if [ -x "$BIN/qshape-compile" ] && [ -x "$BIN/qshape-run" ]; then
  echo
  echo "== Native compilation (qshape-compile, qshape-run): W2 as written and rolled =="
  echo "demo-qpe10-decomposed.mlir (QPE of H2, 10 Trotter steps, decomposed) compiled to a shared"
  echo "library at -O2, as written (--no-roll) and rolled (the default); qshape-run runs both on"
  echo "qshape's runtime (Catalyst's runtime C ABI on qshape's simulator):"
  for form in unrolled rolled; do
    flags=""
    [ "$form" = unrolled ] && flags="--no-roll"
    lib="$BUILD/demo-qpe10-$form.so"
    t0=$(date +%s%N)
    "$BIN/qshape-compile" "$BUILD/demo-qpe10-decomposed.mlir" -o "$lib" --opt-level=2 --cache=off $flags
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    printf '  %-9s qshape-compile %3d.%03d s, %5d KiB library\n' "$form" $((ms / 1000)) $((ms % 1000)) \
      $(( $(stat -c %s "$lib") / 1024 ))
    "$BIN/qshape-run" "$lib" --args @"$BUILD/demo-qpe10.args.json" > "$BUILD/demo-native-$form.json"
  done
  "$BIN/qshape-sim" "$BUILD/demo-qpe10-decomposed.mlir" --args @"$BUILD/demo-qpe10.args.json" > "$BUILD/demo-native-sim.json"
  for form in unrolled rolled; do
    if "$PY" utils/compare-results.py "$BUILD/demo-native-sim.json" "$BUILD/demo-native-$form.json" --tol 1e-9; then
      printf '  qshape-run %-9s == qshape-sim to 1e-9: %s...\n' "$form" "$(cut -c1-60 "$BUILD/demo-native-$form.json")"
    else
      echo "  ERROR: the $form library's results differ from qshape-sim's"; exit 1
    fi
  done
fi
if [ -x "$BIN/qshape-compile" ] && [ -x "$BIN/qshape-run" ]; then
  echo
  echo "== Compile once (the artifact cache of qshape-compile): two Python sessions =="
  echo "Each session is a new Python process that calls qshape.compile on demo-qpe10-decomposed.mlir"
  echo "and runs the library (cache directory: a fresh temporary one). Session 1 compiles;"
  echo "session 2 finds the library before any lowering and copies it: no MLIR pass, LLVM or linker."
  ART_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/qshape-demo-artifacts.XXXXXX")
  trap 'rm -rf "$CACHE_DIR" "$ART_CACHE"' EXIT
  for session in 1 2; do
    t0=$(date +%s%N)
    PYTHONPATH=python QSHAPE_BUILD="$BUILD" "$PY" -c '
import json, sys, qshape
art = qshape.compile(sys.argv[1], sys.argv[2], cache_dir=sys.argv[3])
results = art.run(json.load(open(sys.argv[4])))
json.dump({"results": results}, open(sys.argv[5], "w"))
print("%s %s qshape-compile %.3f s" % (art.status, art.key, art.seconds))
' "$BUILD/demo-qpe10-decomposed.mlir" "$BUILD/demo-session-$session.so" "$ART_CACHE" \
      "$BUILD/demo-qpe10.args.json" "$BUILD/demo-session-$session.json" > "$BUILD/demo-session.txt"
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    printf '  session %d: %s; whole session (Python start, compile, run) %d.%03d s\n' "$session" \
      "$(cat "$BUILD/demo-session.txt")" $((ms / 1000)) $((ms % 1000))
  done
  if "$PY" utils/compare-results.py "$BUILD/demo-native-sim.json" "$BUILD/demo-session-2.json" --tol 1e-9 &&
     cmp -s "$BUILD/demo-session-1.so" "$BUILD/demo-session-2.so"; then
    echo "  session 2's library is session 1's, byte for byte; its results == qshape-sim's to 1e-9"
  else
    echo "  ERROR: session 2's library or results differ"; exit 1
  fi
  echo "  qshape-cache list --dir <cache> (the library, and the index of the input's bytes):"
  "$BIN/qshape-cache" list --dir "$ART_CACHE" | sed 's/^/    /'
  echo
  echo "== Session 3: other baked angles, the same topology (qshape-compile --share-topology) =="
  echo "QPE of H2 with the Hamiltonian baked in (the QPE user's H_fixed), at two stand-in geometries:"
  echo "the baked angles differ, the topology does not. --share-topology lifts the angles into a"
  echo "parameter table before the key, so both programs have one key: the second geometry hits the"
  echo "first one's library (same cache as above), found by its text without a parse, and each"
  echo "output holds its own program's values:"
  for g in 0 5; do
    src="$BUILD/demo-qpe-baked-g$g.mlir"
    "$PY" utils/gen/workloads.py w2 --n-trotter 10 --variant decomposed --prep standard --coeffs baked \
      --geometry $g -o "$src"
    "$BIN/qshape-compile" --share-topology --cache-dir "$ART_CACHE" "$src" -o "$BUILD/demo-qpe-baked-g$g.so" -v --timing 2> "$BUILD/demo-topo-g$g.err"
    printf '  geometry %d: %s\n' $g "$(grep -E -o 'qshape-compile: (hit|miss) .*' "$BUILD/demo-topo-g$g.err")"
    if grep -q 'hit (topology index)' "$BUILD/demo-topo-g$g.err"; then
      echo "    found by the topology index (the text with its float literals blanked out): not even parsed"
    fi
    "$BIN/qshape-run" "$BUILD/demo-qpe-baked-g$g.so" > "$BUILD/demo-topo-run-g$g.json"
    "$BIN/qshape-sim" "$src" > "$BUILD/demo-topo-sim-g$g.json"
    if "$PY" utils/compare-results.py "$BUILD/demo-topo-sim-g$g.json" "$BUILD/demo-topo-run-g$g.json" --tol 1e-9; then
      printf '    qshape-run == qshape-sim to 1e-9: %s...\n' "$(cut -c1-60 "$BUILD/demo-topo-run-g$g.json")"
    else
      echo "  ERROR: geometry $g: the shared library's results differ from qshape-sim's"; exit 1
    fi
  done
  k0=$(grep -o 'blake3:[0-9a-f]*' "$BUILD/demo-topo-g0.err"); k5=$(grep -o 'blake3:[0-9a-f]*' "$BUILD/demo-topo-g5.err")
  if [ "$k0" = "$k5" ]; then echo "  one key for both geometries"; else echo "  ERROR: the geometries have different keys"; exit 1; fi
fi
