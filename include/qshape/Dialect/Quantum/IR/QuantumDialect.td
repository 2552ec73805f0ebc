//===- QuantumDialect.td - Catalyst-compatible quantum dialect -*- tablegen -*-===//
//
// The `quantum` dialect reads and writes exactly the text that PennyLane
// Catalyst emits, so that qshape's tools accept Catalyst's IR as it is.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_DIALECT_QUANTUM_DIALECT
#define QSHAPE_DIALECT_QUANTUM_DIALECT

include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def Quantum_Dialect : Dialect {
  let name = "quantum";
  let cppNamespace = "::qshape::quantum";
  let summary = "Quantum programs with value semantics (Catalyst-compatible text).";
  let description = [{
    Qubits (`!quantum.bit`) and registers (`!quantum.reg`) are SSA values:
    a gate consumes its input qubits and produces new ones, so the order of
    gates is carried by dataflow alone. Device, allocation and measurement
    ops have side effects and keep their order.

    The dialect's printed form is PennyLane Catalyst's: op names, operand
    order, attribute names (`gate_name`, `adjoint`, `idx_attr`,
    `nqubits_attr`, `pauli_product`, `dim`, `postselect`, `type`, and
    `op_name`, `UID`, `static_data`, `param_map`, `qubit_map` of
    `quantum.operator`) and segment sizes match, so the same text parses in
    both and qshape's passes, which read ops by name, run on either. The
    verifiers check what Catalyst's check (2026-08), with its messages,
    including the dialect attribute `quantum.node`: a unit attribute that
    marks a QNode function, valid on `func.func` only.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `quantum.node` marks a QNode function (a unit attribute on func.func).
  let hasOperationAttrVerify = 1;
}

class Quantum_Op<string mnemonic, list<Trait> traits = []>
    : Op<Quantum_Dialect, mnemonic, traits>;

#endif // QSHAPE_DIALECT_QUANTUM_DIALECT
