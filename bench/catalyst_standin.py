#!/usr/bin/env python3
"""A pipeline shaped like Catalyst's default one, runnable in qshape-opt.

Derived from Catalyst's default stages (python/qshape/_catalyst_default.py,
commit CATALYST_COMMIT), pass by pass: every pass that upstream MLIR has is
kept where Catalyst runs it, as often as Catalyst runs it; each of Catalyst's
own passes becomes its qshape counterpart (SUBSTITUTES: inline-nested-module
-> qshape-flatten-modules, ctrl/adjoint-lowering -> qshape-lower-ctrl/-adjoint,
mark-entry-point-args-non-writable -> qshape-catalyst-entry-points,
convert-quantum-to-llvm -> qshape-convert-quantum-to-llvm, ...) or nothing
(the stablehlo, gradient, mitigation and tape passes: a QNode without them
has nothing for them to do); and the bridges qshape's lowering needs are
added (BRIDGES). It lowers a Catalyst-shaped module to the LLVM dialect, as
Catalyst's stages do, for the staged-cache test and benchmark.

    catalyst_standin.py --form staged  [--cache-options 'dir=... emit-remarks']
                                       [--lookup-options 'native runtime-lib=...']
    catalyst_standin.py --form wrapped [--cache-options ...]
    catalyst_standin.py --form plain   [--roll]
    catalyst_standin.py --list

prints the --pass-pipeline text (builtin.module(...)), or with --list each
pass of Catalyst's stages and what stands in for it.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from qshape._catalyst_default import DEFAULT_PIPELINE  # noqa: E402

# Catalyst's own passes: what runs in their place (an empty list: nothing).
# Any pass not listed here is upstream MLIR's and runs as Catalyst runs it.
SUBSTITUTES = {
    "verify-no-quantum-use-after-free": [],
    "convert-to-value-semantics": [],  # qshape's input is already value-semantic
    "split-multiple-tapes": [],
    "builtin.module(apply-transform-sequence)": [],  # the module holds no sequence
    "inline-nested-module": ["qshape-flatten-modules"],
    "lower-mitigation": [],
    "ctrl-lowering": ["qshape-lower-ctrl"],
    "adjoint-lowering": ["qshape-lower-adjoint"],
    "lower-pbc-init-ops": [],
    "func.func(chlo-legalize-to-stablehlo)": [],
    "func.func(stablehlo-legalize-control-flow)": [],
    "builtin.module(func.func(stablehlo-legalize-control-flow))": [],
    "func.func(stablehlo-aggressive-simplification)": [],
    "stablehlo-legalize-to-linalg": [],
    "func.func(stablehlo-legalize-to-std)": [],
    "func.func(stablehlo-legalize-sort)": [],
    "stablehlo-convert-to-signless": [],
    "scatter-lowering": [],
    "hlo-custom-call-lowering": [],
    "detensorize-scf": [],
    "detensorize-function-boundary": [],
    "annotate-invalid-gradient-functions": [],
    "lower-gradients": [],
    "gradient-preprocess": [],
    "mark-entry-point-args-non-writable": ["qshape-catalyst-entry-points"],
    "gradient-postprocess": [],
    # Upstream MLIR 22 no longer has it; qshape-free-local-buffers (a bridge,
    # below) frees the lowering's local buffers instead.
    "func.func(buffer-deallocation)": [],
    "convert-arraylist-to-memref": [],
    "cp-global-memref": ["qshape-copy-unowned-results"],
    "convert-gradient-to-llvm": [],
    "memrefcpy-to-linalgcpy": [],
    "memref-to-llvm-tbaa": [],
    "convert-executor-to-llvm": [],
    "convert-catalyst-to-llvm": [],
    "convert-pbc-to-llvm": [],
    "convert-quantum-to-llvm": ["qshape-convert-quantum-to-llvm"],
    "emit-catalyst-py-interface": ["qshape-emit-catalyst-pyface"],
    "gep-inbounds": [],
    "register-inactive-callback": [],
}

# Passes qshape's lowering adds: (stage, the Catalyst pass they follow,
# their position among that pass's occurrences in the stage, the passes).
BRIDGES = [
    # The quantum register's buffers, before one-shot-bufferize meets them.
    ("BufferizationStage", "mark-entry-point-args-non-writable", 0, ["qshape-bufferize-quantum"]),
    ("BufferizationStage", "canonicalize", 1, ["qshape-free-local-buffers"]),
    # ub.poison from the lowering (Catalyst's LLVM conversions include these patterns).
    ("MLIRToLLVMDialectConversion", "convert-index-to-llvm", 0, ["convert-ub-to-llvm"]),
]


def stages():
    """[(stage, [passes])]: Catalyst's stages with the stand-ins in place."""
    out = []
    for stage, catalyst_passes in DEFAULT_PIPELINE:
        seen = {}
        ps = []
        for p in catalyst_passes:
            ps += SUBSTITUTES.get(p, [p])
            k = seen.get(p, 0)
            seen[p] = k + 1
            for s, after, at, added in BRIDGES:
                if s == stage and after == p and at == k:
                    ps += added
        out.append((stage, ps))
    return out


# What qshape.catalyst.pipeline() adds to the quantum stage (first in the stage
# here: the stand-in has no convert-to-value-semantics to follow).
ROLL = ["qshape-canonicalize", "qshape-roll-loops"]


def passes(roll=False):
    return (ROLL if roll else []) + [p for _, ps in stages() for p in ps]


def pipeline(form, cache_options="", lookup_options="", roll=False):
    body = ",".join(passes(roll))
    opts = " ".join(o.strip() for o in (cache_options, lookup_options) if o.strip())
    opts = (" " + opts) if opts else ""
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
    ap.add_argument("--lookup-options", default="",
                    help="options for qshape-cache-lookup (or qshape-cache) only, e.g. "
                         "'native runtime-lib=/path/librt_capi.so'")
    ap.add_argument("--roll", action="store_true",
                    help="qshape-canonicalize and qshape-roll-loops first, as qshape.catalyst "
                         "puts them in the quantum stage")
    ap.add_argument("--list", action="store_true",
                    help="print each pass of Catalyst's stages and what stands in for it")
    a = ap.parse_args(argv)
    if a.list:
        for stage, catalyst_passes in DEFAULT_PIPELINE:
            print(f"{stage}:")
            for p in catalyst_passes:
                print(f"  {p} -> {', '.join(SUBSTITUTES.get(p, [p])) or '(nothing)'}")
        for stage, after, at, added in BRIDGES:
            print(f"added in {stage} after {after} #{at + 1}: {', '.join(added)}")
        print(f"{len(passes())} passes")
        return 0
    print(pipeline(a.form, a.cache_options, a.lookup_options, a.roll))


if __name__ == "__main__":
    sys.exit(main())
