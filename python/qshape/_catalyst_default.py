"""Catalyst's default compilation pipeline, as data, for when Catalyst is not installed.

What ``catalyst.pipelines.default_pipeline()`` returns (``CompileOptions()``
defaults: ``disable_assertions=False``, ``async_qnodes=False``) at
PennyLaneAI/catalyst commit ``663cf5a3f070f06498fdfbbc8502a9a353e07df2``: the stage names
of frontend/catalyst/pipelines.py (``CompileOptions.get_stages``) and the pass
lists of mlir/include/Driver/DefaultPipelines/DefaultPipelines.h, with the
defaults' filters applied (no ``disable-assertion``, no async passes, the
bufferization options on ``one-shot-bufferize``). When ``catalyst`` is
importable, qshape.catalyst asks it instead.
"""

CATALYST_COMMIT = "663cf5a3f070f06498fdfbbc8502a9a353e07df2"

DEFAULT_PIPELINE = [
    ("QuantumCompilationStage", [
        "canonicalize",
        "verify-no-quantum-use-after-free",
        "convert-to-value-semantics",
        "canonicalize",
        "split-multiple-tapes",
        "builtin.module(apply-transform-sequence)",
        "inline-nested-module",
        "lower-mitigation",
        "ctrl-lowering",
        "adjoint-lowering",
        "ctrl-lowering",
        "adjoint-lowering",
        "lower-pbc-init-ops",
        "symbol-dce",
    ]),
    ("HLOLoweringStage", [
        "canonicalize",
        "func.func(chlo-legalize-to-stablehlo)",
        "func.func(stablehlo-legalize-control-flow)",
        "builtin.module(func.func(stablehlo-legalize-control-flow))",
        "func.func(stablehlo-aggressive-simplification)",
        "stablehlo-legalize-to-linalg",
        "func.func(stablehlo-legalize-to-std)",
        "func.func(stablehlo-legalize-sort)",
        "stablehlo-convert-to-signless",
        "canonicalize",
        "scatter-lowering",
        "hlo-custom-call-lowering",
        "cse",
        "func.func(linalg-detensorize{aggressive-mode})",
        "detensorize-scf",
        "detensorize-function-boundary",
        "canonicalize",
        "symbol-dce",
    ]),
    ("GradientLoweringStage", [
        "annotate-invalid-gradient-functions",
        "lower-gradients",
    ]),
    ("BufferizationStage", [
        "convert-tensor-to-linalg",
        "convert-elementwise-to-linalg",
        "gradient-preprocess",
        "mark-entry-point-args-non-writable",
        "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map unknown-type-conversion=identity-layout-map}",
        "canonicalize",
        "gradient-postprocess",
        "func.func(buffer-hoisting)",
        "func.func(buffer-loop-hoisting)",
        "func.func(buffer-deallocation)",
        "convert-arraylist-to-memref",
        "convert-bufferization-to-memref",
        "canonicalize",
        "cp-global-memref",
    ]),
    ("MLIRToLLVMDialectConversion", [
        "expand-realloc",
        "convert-gradient-to-llvm",
        "memrefcpy-to-linalgcpy",
        "func.func(convert-linalg-to-loops)",
        "convert-scf-to-cf",
        "expand-strided-metadata",
        "lower-affine",
        "arith-expand",
        "convert-complex-to-standard",
        "convert-complex-to-llvm",
        "convert-math-to-llvm",
        "convert-math-to-libm",
        "convert-arith-to-llvm",
        "memref-to-llvm-tbaa",
        "finalize-memref-to-llvm{use-generic-functions}",
        "convert-index-to-llvm",
        "convert-executor-to-llvm",
        "convert-catalyst-to-llvm",
        "convert-pbc-to-llvm",
        "convert-quantum-to-llvm",
        "emit-catalyst-py-interface",
        "canonicalize",
        "reconcile-unrealized-casts",
        "gep-inbounds",
        "register-inactive-callback",
    ]),
]
