#!/usr/bin/env python3
"""A pipeline shaped like Catalyst's default one, runnable in qshape-opt.

Catalyst's default stages (python/qshape/_catalyst_default.py, commit
CATALYST_COMMIT) with every pass that upstream MLIR or qshape has kept in
place, Catalyst's own quantum passes replaced by qshape's (inline-nested-module
-> qshape-flatten-modules, ctrl/adjoint-lowering -> qshape-lower-ctrl/-adjoint,
mark-entry-point-args-non-writable -> qshape-catalyst-entry-points,
convert-quantum-to-llvm -> qshape-convert-quantum-to-llvm, ...), the bridge
qshape's bufferization needs (qshape-bufferize-quantum, qshape-free-local-buffers)
added, and the stablehlo, gradient and mitigation passes left out (a QNode
without them has nothing for them to do). It lowers a Catalyst-shaped module
to the LLVM dialect, as Catalyst's stages do, for the staged-cache test and
benchmark.

    catalyst_standin.py --form staged  [--cache-options 'dir=... emit-remarks']
    catalyst_standin.py --form wrapped [--cache-options ...]
    catalyst_standin.py --form plain

prints the --pass-pipeline text (builtin.module(...)).
"""
import argparse
import sys

STAGES = [
    ("QuantumCompilationStage", [
        "canonicalize", "qshape-flatten-modules", "qshape-lower-ctrl", "qshape-lower-adjoint",
        "symbol-dce",
    ]),
    ("HLOLoweringStage", ["canonicalize", "cse", "canonicalize", "symbol-dce"]),
    ("BufferizationStage", [
        "qshape-catalyst-entry-points", "qshape-bufferize-quantum",
        "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
        "function-boundary-type-conversion=identity-layout-map "
        "unknown-type-conversion=identity-layout-map}",
        "canonicalize", "func.func(buffer-hoisting)", "func.func(buffer-loop-hoisting)",
        "convert-bufferization-to-memref", "canonicalize", "qshape-free-local-buffers",
    ]),
    ("MLIRToLLVMDialectConversion", [
        "func.func(convert-linalg-to-loops)", "convert-scf-to-cf", "expand-strided-metadata",
        "lower-affine", "arith-expand", "convert-complex-to-standard", "convert-complex-to-llvm",
        "convert-math-to-llvm", "convert-math-to-libm", "convert-arith-to-llvm",
        "finalize-memref-to-llvm", "convert-index-to-llvm", "convert-ub-to-llvm",
        "qshape-convert-quantum-to-llvm", "qshape-emit-catalyst-pyface", "canonicalize",
        "reconcile-unrealized-casts",
    ]),
]


def passes():
    return [p for _, ps in STAGES for p in ps]


def pipeline(form, cache_options=""):
    body = ",".join(passes())
    opts = (" " + cache_options.strip()) if cache_options.strip() else ""
    if form == "plain":
        return f"builtin.module({body})"
    if form == "wrapped":
        return f'builtin.module(qshape-cache{{pipeline="{body}"{opts}}})'
    if form == "staged":
        # What the entry stands for is named by pipeline=, as for the wrapper:
        # the two forms share entries.
        return (f'builtin.module(qshape-cache-lookup{{pipeline="{body}"{opts}}},{body},'
                f'qshape-cache-store{{{cache_options.strip()}}})')
    raise ValueError(form)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--form", choices=["plain", "wrapped", "staged"], default="plain")
    ap.add_argument("--cache-options", default="",
                    help="options for the cache passes, e.g. 'dir=/tmp/c emit-remarks'")
    a = ap.parse_args(argv)
    print(pipeline(a.form, a.cache_options))


if __name__ == "__main__":
    sys.exit(main())
