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

#endif // QSHAPE_TRANSFORMS_PASSES
