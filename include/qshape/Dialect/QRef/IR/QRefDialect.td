//===- QRefDialect.td - Catalyst-compatible qref dialect ------*- tablegen -*-===//
//
// The `qref` dialect reads and writes exactly the text that PennyLane
// Catalyst's reference-semantics dialect emits, as `quantum` does for its
// value-semantics dialect.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_DIALECT_QREF_DIALECT
#define QSHAPE_DIALECT_QREF_DIALECT

include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def QRef_Dialect : Dialect {
  let name = "qref";
  let cppNamespace = "::qshape::qref";
  let summary = "Quantum programs with reference semantics (Catalyst-compatible text).";
  let description = [{
    Qubits (`!qref.bit`) and registers (`!qref.reg<N>`, `!qref.reg<?>`) are
    references: a gate takes the qubits it acts on and produces nothing, and
    a reference may be used any number of times. Gates, allocations and
    measurements carry side effects and keep their order; `qref.get` and
    observables do not.

    Op names, operand order, attribute names, segment sizes, assembly formats
    and verifier messages are Catalyst's (2026-08). Observables are
    `!quantum.obs`, measured by `quantum.expval` and the other measurement
    processes of the `quantum` dialect.
  }];
  let dependentDialects = ["::qshape::quantum::QuantumDialect"];
  let useDefaultTypePrinterParser = 1;
}

class QRef_Op<string mnemonic, list<Trait> traits = []>
    : Op<QRef_Dialect, mnemonic, traits>;

#endif // QSHAPE_DIALECT_QREF_DIALECT
