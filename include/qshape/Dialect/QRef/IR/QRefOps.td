//===- QRefOps.td - qref dialect operations -------------------*- tablegen -*-===//
//
// Operand/attribute names, their order, types, constraints, traits, memory
// effects and assembly formats follow Catalyst's QRefOps.td op by op
// (PennyLaneAI/catalyst, 2026-08). As for `quantum`, Catalyst's C++
// interfaces (QuantumOperation, QuantumGate, ParametrizedGate, resource
// interfaces) are not declared: the rules they verify are in QRefOps.cpp.
// Catalyst gives gates, allocations and measurements no memory-effect trait
// (unknown effects: they stay ordered), `qref.get` none, observables Pure.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_DIALECT_QREF_OPS
#define QSHAPE_DIALECT_QREF_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "qshape/Dialect/Quantum/IR/QuantumAttrs.td"
include "qshape/Dialect/Quantum/IR/QuantumTypes.td"
include "qshape/Dialect/QRef/IR/QRefDialect.td"
include "qshape/Dialect/QRef/IR/QRefTypes.td"

defvar QubitRef = QRef_QubitType;
defvar QuregRef = QRef_QuregType;
defvar Obs = Quantum_ObservableType;
defvar NonNegI64Attr = ConfinedAttr<I64Attr, [IntNonNegative]>;

//===----------------------------------------------------------------------===//
// Qubit management.
//===----------------------------------------------------------------------===//

def QRef_AllocOp : QRef_Op<"alloc"> {
  let summary = "Allocate a register of qubits (static or dynamic size).";
  let description = [{
    A size given as an operand needs `!qref.reg<?>`, a constant size `N`
    needs `!qref.reg<N>`.

    ```mlir
    %r = qref.alloc(2) : !qref.reg<2>
    %d = qref.alloc(%n) : !qref.reg<?>
    ```
  }];
  let arguments = (ins Optional<I64>:$nqubits, OptionalAttr<NonNegI64Attr>:$nqubits_attr);
  let results = (outs QuregRef:$qreg);
  let assemblyFormat = [{
    `(` ($nqubits^):($nqubits_attr)? `)` attr-dict `:` type(results)
  }];
  let hasVerifier = 1;
}

def QRef_AllocQubitOp : QRef_Op<"alloc_qb"> {
  let summary = "Allocate a single qubit.";
  let results = (outs QubitRef:$qubit);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def QRef_DeallocQubitOp : QRef_Op<"dealloc_qb"> {
  let summary = "Release a single qubit.";
  let arguments = (ins QubitRef:$qubit);
  let assemblyFormat = "$qubit attr-dict `:` type(operands)";
}

def QRef_DeallocOp : QRef_Op<"dealloc"> {
  let summary = "Release a register.";
  let arguments = (ins QuregRef:$qreg);
  let assemblyFormat = "$qreg attr-dict `:` type(operands)";
}

def QRef_GetOp : QRef_Op<"get", [NoMemoryEffect]> {
  let summary = "A reference to the qubit at an index of a register.";
  let description = [{
    Unlike `quantum.extract`, the qubit is not taken out of the register and
    never has to be put back.

    ```mlir
    %q = qref.get %r[0] : !qref.reg<2> -> !qref.bit
    ```
  }];
  let arguments = (ins QuregRef:$qreg, Optional<I64>:$idx,
                   OptionalAttr<NonNegI64Attr>:$idx_attr);
  let results = (outs QubitRef:$qubit);
  let assemblyFormat = [{
    $qreg `[` ($idx^):($idx_attr)? `]` attr-dict `:` type(operands) `->` type(results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// State preparation.
//===----------------------------------------------------------------------===//

def QRef_SetStateOp : QRef_Op<"set_state"> {
  let summary = "Prepare the given qubits in a state vector.";
  let arguments = (ins 1DTensorOf<[Complex<F64>]>:$in_state, Variadic<QubitRef>:$qubits);
  let assemblyFormat = "`(` $in_state `)` $qubits attr-dict `:` type(operands)";
}

def QRef_SetBasisStateOp : QRef_Op<"set_basis_state"> {
  let summary = "Prepare the given qubits in a computational basis state.";
  let arguments = (ins 1DTensorOf<[I1]>:$basis_state, Variadic<QubitRef>:$qubits);
  let assemblyFormat = "`(` $basis_state `)` $qubits attr-dict `:` type(operands)";
}

//===----------------------------------------------------------------------===//
// Gates. Each verifies Catalyst's QuantumGate rules: one control value per
// control qubit, and all qubits (targets and controls) distinct.
//===----------------------------------------------------------------------===//

class QRef_GateOp<string mnemonic, list<Trait> traits = []>
    : QRef_Op<mnemonic, !listconcat(traits, [AttrSizedOperandSegments])> {
  let hasVerifier = 1;
}

def QRef_CustomOp : QRef_GateOp<"custom"> {
  let summary = "A named gate (PennyLane gate names).";
  let description = [{
    ```mlir
    qref.custom "RX"(%theta) %q : !qref.bit
    qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
    qref.custom "RX"(%x) %q adj ctrls(%c) ctrlvals(%true) : !qref.bit ctrls !qref.bit
    ```
  }];
  let arguments = (ins Variadic<F64>:$params, Variadic<QubitRef>:$qubits,
                   StrAttr:$gate_name, UnitAttr:$adjoint,
                   Variadic<QubitRef>:$ctrl_qubits, Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    $gate_name `(` $params `)` $qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    `:` type($qubits) (`ctrls` type($ctrl_qubits)^)?
  }];
}

// Catalyst's generic operator; its syntax is hand-written (QRefOps.cpp) and
// is quantum.operator's with reference types and a typed register.
def QRef_OperatorOp : QRef_GateOp<"operator"> {
  let summary = "A frontend operator with an arbitrary signature (qubit or register mode).";
  let description = [{
    As `quantum.operator`, but on references: nothing is returned, and the
    register of register mode is printed with its type.

    ```mlir
    qref.operator "MyOp"(%theta: f64) adj qubits(%q)
      static_data = {pauli_word = "XYZ"}
    qref.operator "MyOp"(%s: tensor<?xcomplex<f64>>)
      quregs(%r : !qref.reg<?>) indices(%w0: tensor<?xi64>, %w1: tensor<1xi64>)
      param_map = {state_vector = [0]} qubit_map = {wires = [0], precision_wire = [1]}
    ```
  }];
  let arguments = (ins
    StrAttr:$op_name,
    Variadic<AnyType>:$params,
    Variadic<AnyType>:$forward_args,
    Variadic<QubitRef>:$qubits,
    Variadic<QubitRef>:$ctrl_qubits,
    Variadic<I1>:$ctrl_values,
    Optional<QuregRef>:$qreg,
    Variadic<1DTensorOf<[I64]>>:$arr_qubit_indices,
    Optional<1DTensorOf<[I64]>>:$arr_ctrl_indices,
    Optional<1DTensorOf<[I1]>>:$arr_ctrl_values,
    UnitAttr:$adjoint,
    OptionalAttr<I64Attr>:$UID,
    DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$static_data,
    DefaultValuedOptionalAttr<Quantum_I64ArrayDict, "{}">:$param_map,
    DefaultValuedOptionalAttr<Quantum_I64ArrayDict, "{}">:$qubit_map);
  let hasCustomAssemblyFormat = 1;
}

def QRef_PauliRotOp : QRef_GateOp<"paulirot"> {
  let summary = "Pauli rotation exp(-i angle/2 P) for a Pauli word P.";
  let arguments = (ins F64:$angle, Quantum_PauliWord:$pauli_product,
                   Variadic<QubitRef>:$qubits, UnitAttr:$adjoint,
                   Variadic<QubitRef>:$ctrl_qubits, Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    $pauli_product `(` $angle `)` $qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    `:` type($qubits) (`ctrls` type($ctrl_qubits)^)?
  }];
}

def QRef_GlobalPhaseOp : QRef_GateOp<"gphase"> {
  let summary = "Global phase exp(-i angle), optionally controlled.";
  let arguments = (ins F64:$angle, UnitAttr:$adjoint,
                   Variadic<QubitRef>:$ctrl_qubits, Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    `(` $angle `)` (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    (`:` `ctrls` type($ctrl_qubits)^)?
  }];
}

def QRef_MultiRZOp : QRef_GateOp<"multirz"> {
  let summary = "Multi-qubit Z rotation.";
  let arguments = (ins F64:$theta, Variadic<QubitRef>:$qubits, UnitAttr:$adjoint,
                   Variadic<QubitRef>:$ctrl_qubits, Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    `(` $theta `)` $qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    `:` type($qubits) (`ctrls` type($ctrl_qubits)^)?
  }];
}

def QRef_PCPhaseOp : QRef_GateOp<"pcphase"> {
  let summary = "Projector-controlled phase.";
  let arguments = (ins F64:$theta, I64Attr:$dim, Variadic<QubitRef>:$qubits,
                   UnitAttr:$adjoint, Variadic<QubitRef>:$ctrl_qubits,
                   Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    `(` $theta `,` `dim` `:` $dim `)` $qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    `:` type($qubits) (`ctrls` type($ctrl_qubits)^)?
  }];
}

def QRef_QubitUnitaryOp : QRef_GateOp<"unitary"> {
  let summary = "Apply a 2^n x 2^n unitary matrix to n qubits.";
  let arguments = (ins 2DTensorOf<[Complex<F64>]>:$matrix, Variadic<QubitRef>:$qubits,
                   UnitAttr:$adjoint, Variadic<QubitRef>:$ctrl_qubits,
                   Variadic<I1>:$ctrl_values);
  let assemblyFormat = [{
    `(` $matrix `:` type($matrix) `)` $qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $ctrl_qubits^ `)`)? (`ctrlvals` `(` $ctrl_values^ `)`)?
    `:` type($qubits) (`ctrls` type($ctrl_qubits)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Region ops: one block, no terminator, no block arguments (the region uses
// the references of the enclosing code).
//===----------------------------------------------------------------------===//

def QRef_AdjointOp : QRef_Op<"adjoint", [NoTerminator]> {
  let summary = "The adjoint (inverse) of the gates in the region.";
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "attr-dict-with-keyword $region";
  let hasVerifier = 1;
}

def QRef_CtrlOp : QRef_Op<"ctrl", [NoTerminator, AttrSizedOperandSegments]> {
  let summary = "The gates in the region, controlled on extra qubits.";
  let arguments = (ins Variadic<QubitRef>:$ctrl_qubits, Variadic<I1>:$ctrl_values);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    `(` $ctrl_qubits `)` `ctrlvals` `(` $ctrl_values `)` attr-dict-with-keyword $region
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Observables (pure: they only name what a measurement process measures).
//===----------------------------------------------------------------------===//

def QRef_ComputationalBasisOp : QRef_Op<"compbasis", [Pure, AttrSizedOperandSegments]> {
  let summary = "Computational-basis observable on qubits or a register.";
  let arguments = (ins Variadic<QubitRef>:$qubits, Optional<QuregRef>:$qreg);
  let results = (outs Obs:$obs);
  let assemblyFormat = [{
    (`qubits` $qubits^)? (`(` `qreg` $qreg `:` type($qreg)^ `)`)? attr-dict `:` type(results)
  }];
  let hasVerifier = 1;
}

def QRef_NamedObsOp : QRef_Op<"namedobs", [Pure]> {
  let summary = "A named single-qubit observable.";
  let arguments = (ins QubitRef:$qubit, NamedObservableAttr:$type);
  let results = (outs Obs:$obs);
  let assemblyFormat = "$qubit `[` $type `]` attr-dict `:` type(results)";
}

def QRef_HermitianOp : QRef_Op<"hermitian", [Pure]> {
  let summary = "A Hermitian matrix observable on n qubits.";
  let arguments = (ins 2DTensorOf<[Complex<F64>]>:$matrix, Variadic<QubitRef>:$qubits);
  let results = (outs Obs:$obs);
  let assemblyFormat = "`(` $matrix `:` type($matrix) `)` $qubits attr-dict `:` type(results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Measurement.
//===----------------------------------------------------------------------===//

def QRef_MeasureOp : QRef_Op<"measure"> {
  let summary = "Mid-circuit measurement in the computational basis.";
  let arguments = (ins QubitRef:$in_qubit,
      OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<1>]>>:$postselect);
  let results = (outs I1:$mres);
  let assemblyFormat = "$in_qubit (`postselect` $postselect^)? attr-dict `:` type(results)";
}

#endif // QSHAPE_DIALECT_QREF_OPS
