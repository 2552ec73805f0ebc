//===- Passes.td - qshape passes --------------------------------*- tablegen -*-===//
//
// Every pass argument carries the `qshape-` prefix so it never collides with
// upstream `canonicalize` or Catalyst's passes when loaded as a plugin.
// Passes read quantum ops through the name-based gate view (GateView.h) and
// never depend on qshape's op classes.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_PASSES
#define QSHAPE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def QShapeStats : Pass<"qshape-stats", "mlir::ModuleOp"> {
  let summary = "Report quantum resource statistics (ops, gates, qubits, loops).";
  let description = [{
    Counts what a user wants to know before and after a transformation:
    total ops, quantum ops, gates by name (with adjoint and controlled
    counts), qubits allocated, `scf.for` loops and their nesting depth, and
    the *static* gate count, i.e. the number of gates executed when loops
    with constant bounds are expanded, so that a rolled and an unrolled
    program can be compared. The IR is not changed.

    Results go to a JSON file (`output=<file>`, `-` for stdout) and, with
    `emit-remark`, to a remark on the module:

    ```
    $ qshape-opt --qshape-stats=output=- circuit.mlir -o /dev/null
    {"ops": 58, "quantum_ops": 45, "gates": 40, "static_gates": 40, ...}
    ```

    Quantum ops are recognised by name, so the pass also counts unregistered
    `quantum` ops (upstream `mlir-opt` with `--allow-unregistered-dialect`)
    and Catalyst's own op classes.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Write the statistics as JSON to this file ('-' for stdout)">,
    Option<"emitRemark", "emit-remark", "bool", /*default=*/"false",
           "Emit a one-line summary remark on the module">,
  ];
  let statistics = [
    Statistic<"numOps", "ops", "Number of operations in the module">,
    Statistic<"numGates", "gates", "Number of gate operations">,
    Statistic<"numStaticGates", "static-gates",
              "Gates executed with constant-bound loops expanded">,
    Statistic<"numLoops", "loops", "Number of scf.for loops">,
  ];
}

def QShapeCanonicalize : Pass<"qshape-canonicalize", "mlir::ModuleOp"> {
  let summary = "Put quantum modules in qshape's canonical form.";
  let description = [{
    Rewrites every function so that programs that differ only in SSA names,
    locations, attribute order, constant spelling or the order of independent
    gates become identical text. The rules, applied to a fixpoint:

    1. A constant index operand of `quantum.extract`/`quantum.insert` and a
       constant size operand of `quantum.alloc` become the static attribute
       (`%r[%c3]` becomes `%r[ 3]`).
    2. Constants move to the top of the function, equal ones merged, sorted
       by value (floating-point constants last).
    3. Equal pure non-quantum ops are merged (a scoped CSE).
    4. Register accesses are forwarded: `extract(insert(r, i, q), i)` is `q`;
       an extract at a different static index reads past the insert;
       `insert(r, i, extract(r, i))` is `r`.
    5. Dead ops without side effects are erased.
    6. Every block gets one topological order derived from the program's
       structure alone: ops without side effects first, each qubit's chain of
       gates kept together (the op whose producer was scheduled last goes
       next), ties broken by op name, ascending static wire index and a
       structural key. Side-effecting ops (device, alloc, measure, expval,
       gphase, unknown ops, ...) keep their relative order.

    Ops are read by name (gate view), so unknown ops are never moved across
    side effects and regions of unknown ops are left alone. Running the pass
    twice changes nothing.

    Before:
    ```mlir
    %c1 = arith.constant 1 : i64
    %q1 = quantum.extract %r[%c1] : !quantum.reg -> !quantum.bit
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %a = quantum.custom "Hadamard"() %q1 : !quantum.bit
    %b = quantum.custom "Hadamard"() %q0 : !quantum.bit
    ```
    After:
    ```mlir
    %0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %out_qubits = quantum.custom "Hadamard"() %0 : !quantum.bit
    %1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits_0 = quantum.custom "Hadamard"() %1 : !quantum.bit
    ```
  }];
  let options = [
    Option<"stripLocations", "strip-locations", "bool", /*default=*/"false",
           "Replace every location with loc(unknown)">,
    Option<"reorder", "reorder", "bool", /*default=*/"true",
           "Put independent ops in the canonical order (rule 6)">,
  ];
  let statistics = [
    Statistic<"numStaticIndices", "static-indices", "Index operands made static">,
    Statistic<"numConstantsMerged", "constants-merged", "Duplicate constants merged">,
    Statistic<"numOpsMerged", "ops-merged", "Equal pure ops merged">,
    Statistic<"numAccessesForwarded", "accesses-forwarded",
              "Register extract/insert accesses forwarded">,
    Statistic<"numDeadOps", "dead-ops", "Dead ops erased">,
    Statistic<"numBlocksReordered", "blocks-reordered", "Blocks whose order changed">,
  ];
}

def QShapeFingerprint : Pass<"qshape-fingerprint", "mlir::ModuleOp"> {
  let summary = "Annotate the module and its functions with structural fingerprints.";
  let description = [{
    Computes two process-stable BLAKE3 digests (`blake3:<hex>`) of the
    module and of every function, on a canonicalized clone (so the result is
    the same whether or not `qshape-canonicalize` ran first), and stores them
    as string attributes `qshape.fingerprint` (exact) and
    `qshape.shape_fingerprint` (floating-point constant values abstracted:
    equal for circuits that differ only in baked angles). Nothing else in the
    IR changes; the annotations themselves are ignored by later fingerprints.

    The exact digest ignores SSA names, locations, attribute order,
    pretty-vs-generic printing, duplicated constants, constant-operand vs
    static indices and the order of independent ops; it changes with anything
    else (gate names, a parameter changed by one ulp, -0.0 vs 0.0, wiring,
    control values, adjoint, side-effect order, signatures, symbol names,
    attributes of unknown ops).

    ```
    $ qshape-opt --qshape-fingerprint=emit-remarks circuit.mlir
    circuit.mlir:2:3: remark: qshape-fingerprint @circuit: blake3:5a1f... shape blake3:09c2...
    ```
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark with the digests of the module and each function">,
    Option<"annotate", "annotate", "bool", /*default=*/"true",
           "Store the digests as qshape.fingerprint / qshape.shape_fingerprint">,
  ];
  let statistics = [
    Statistic<"numFunctions", "functions", "Functions fingerprinted">,
  ];
}

#endif // QSHAPE_TRANSFORMS_PASSES
