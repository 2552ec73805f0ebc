//===- QuantumAttrs.td - quantum dialect attributes -----------*- tablegen -*-===//

#ifndef QSHAPE_DIALECT_QUANTUM_ATTRS
#define QSHAPE_DIALECT_QUANTUM_ATTRS

include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"
include "qshape/Dialect/Quantum/IR/QuantumDialect.td"

def Quantum_NamedObservable : I32EnumAttr<"NamedObservable",
    "a named single-qubit observable", [
      I32EnumAttrCase<"Identity", 0>,
      I32EnumAttrCase<"PauliX", 1>,
      I32EnumAttrCase<"PauliY", 2>,
      I32EnumAttrCase<"PauliZ", 3>,
      I32EnumAttrCase<"Hadamard", 4>,
    ]> {
  let cppNamespace = "::qshape::quantum";
  let genSpecializedAttr = 0;
}

// Prints as `#quantum<named_observable PauliZ>` in generic form. The record
// is named as Catalyst's: its name is part of the parse error a bad
// observable gets ("failed to parse NamedObservableAttr parameter").
def NamedObservableAttr
    : EnumAttr<Quantum_Dialect, Quantum_NamedObservable, "named_observable">;

// A Pauli word such as ["X", "Z"]; letters are checked by the op verifier.
def Quantum_PauliWord
    : TypedArrayAttrBase<StrAttr, "Pauli word (array of single-letter strings)">;

// `param_map` / `qubit_map` of quantum.operator: frontend argument name ->
// positions, e.g. {wires = array<i64: 0, 1>}.
def Quantum_I64ArrayDict : ConfinedAttr<DictionaryAttr, [AttrConstraint<
    CPred<"::llvm::all_of(::llvm::cast<::mlir::DictionaryAttr>($_self).getValue(), "
          "[](const ::mlir::NamedAttribute &entry) { "
          "return ::llvm::isa<::mlir::DenseI64ArrayAttr>(entry.getValue()); })">,
    "dictionary with DenseI64ArrayAttr values">]>;

#endif // QSHAPE_DIALECT_QUANTUM_ATTRS
