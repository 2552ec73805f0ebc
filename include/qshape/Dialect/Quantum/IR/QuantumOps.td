//===- QuantumOps.td - quantum dialect operations -------------*- tablegen -*-===//
//
// Operand/attribute names, their order, types, constraints, traits, memory
// effects and assembly formats follow Catalyst's QuantumOps.td op by op
// (PennyLaneAI/catalyst, 2026-08); qshape's passes depend only on these
// names, never on the C++ classes. Catalyst's C++ interfaces (QuantumGate,
// MeasurementProcess, ...) are not declared: their verifiers are in
// QuantumOps.cpp, and passes read ops through the gate view instead.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_DIALECT_QUANTUM_OPS
#define QSHAPE_DIALECT_QUANTUM_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "qshape/Dialect/Quantum/IR/QuantumDialect.td"
include "qshape/Dialect/Quantum/IR/QuantumTypes.td"
include "qshape/Dialect/Quantum/IR/QuantumAttrs.td"

defvar Qubit = Quantum_QubitType;
defvar Qureg = Quantum_QuregType;
defvar Obs = Quantum_ObservableType;
defvar NonNegI64Attr = ConfinedAttr<I64Attr, [IntNonNegative]>;

//===----------------------------------------------------------------------===//
// Execution context. These ops are ordered: they carry unknown side effects.
//===----------------------------------------------------------------------===//

def Quantum_InitOp : Quantum_Op<"init"> {
  let summary = "Initialize the quantum runtime.";
  let assemblyFormat = "attr-dict";
}

def Quantum_FinalizeOp : Quantum_Op<"finalize"> {
  let summary = "Tear down the quantum runtime.";
  let assemblyFormat = "attr-dict";
}

def Quantum_DeviceOp : Quantum_Op<"device"> {
  let summary = "Select and initialize a quantum device.";
  let arguments = (ins Optional<I64>:$shots, UnitAttr:$auto_qubit_management,
                   StrAttr:$lib, StrAttr:$device_name, StrAttr:$kwargs);
  let assemblyFormat = [{
    (`shots` `(` $shots^ `)`)? `[` $lib `,` $device_name `,` $kwargs `]` attr-dict
  }];
}

def Quantum_DeviceReleaseOp : Quantum_Op<"device_release"> {
  let summary = "Release the current quantum device.";
  let assemblyFormat = "attr-dict";
}

def Quantum_NumQubitsOp : Quantum_Op<"num_qubits", [MemoryEffects<[MemRead]>]> {
  let summary = "Number of qubits currently allocated on the device.";
  let results = (outs I64:$num_qubits);
  let assemblyFormat = "attr-dict `:` type(results)";
}

//===----------------------------------------------------------------------===//
// Qubit management.
//===----------------------------------------------------------------------===//

def Quantum_AllocOp : Quantum_Op<"alloc"> {
  let summary = "Allocate a register of qubits (static or dynamic size).";
  let arguments = (ins Optional<I64>:$nqubits,
                   OptionalAttr<NonNegI64Attr>:$nqubits_attr);
  let results = (outs Qureg:$qreg);
  let assemblyFormat = [{
    `(` ($nqubits^):($nqubits_attr)? `)` attr-dict `:` type(results)
  }];
  let hasVerifier = 1;
}

def Quantum_AllocQubitOp : Quantum_Op<"alloc_qb"> {
  let summary = "Allocate a single qubit.";
  let results = (outs Qubit:$qubit);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Quantum_DeallocQubitOp : Quantum_Op<"dealloc_qb"> {
  let summary = "Release a single qubit.";
  let arguments = (ins Qubit:$qubit);
  let assemblyFormat = "$qubit attr-dict `:` type(operands)";
}

def Quantum_DeallocOp : Quantum_Op<"dealloc"> {
  let summary = "Release a register.";
  let arguments = (ins Qureg:$qreg);
  let assemblyFormat = "$qreg attr-dict `:` type(operands)";
}

def Quantum_ExtractOp : Quantum_Op<"extract", [NoMemoryEffect]> {
  let summary = "Take the qubit at an index out of a register.";
  let arguments = (ins Qureg:$qreg, Optional<I64>:$idx,
                   OptionalAttr<NonNegI64Attr>:$idx_attr);
  let results = (outs Qubit:$qubit);
  let assemblyFormat = [{
    $qreg `[` ($idx^):($idx_attr)? `]` attr-dict `:` type($qreg) `->` type(results)
  }];
  let hasVerifier = 1;
}

def Quantum_InsertOp : Quantum_Op<"insert", [NoMemoryEffect]> {
  let summary = "Put a qubit back into a register at an index.";
  let arguments = (ins Qureg:$in_qreg, Optional<I64>:$idx,
                   OptionalAttr<NonNegI64Attr>:$idx_attr, Qubit:$qubit);
  let results = (outs Qureg:$out_qreg);
  let assemblyFormat = [{
    $in_qreg `[` ($idx^):($idx_attr)? `]` `,` $qubit attr-dict `:` type($in_qreg) `,` type($qubit)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// State preparation (ordered).
//===----------------------------------------------------------------------===//

def Quantum_SetStateOp : Quantum_Op<"set_state"> {
  let summary = "Prepare the given qubits in a state vector.";
  let arguments = (ins AnyTypeOf<[1DTensorOf<[Complex<F64>]>,
                                  MemRefRankOf<[Complex<F64>], [1]>]>:$in_state,
                   Variadic<Qubit>:$in_qubits);
  let results = (outs Variadic<Qubit>:$out_qubits);
  let assemblyFormat = [{
    `(` $in_state `)` $in_qubits attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Quantum_SetBasisStateOp : Quantum_Op<"set_basis_state"> {
  let summary = "Prepare the given qubits in a computational basis state.";
  let arguments = (ins AnyTypeOf<[1DTensorOf<[I1]>, MemRefRankOf<[I1], [1]>]>:$basis_state,
                   Variadic<Qubit>:$in_qubits);
  let results = (outs Variadic<Qubit>:$out_qubits);
  let assemblyFormat = [{
    `(` $basis_state `)` $in_qubits attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gates. Value semantics: no memory effects; order is carried by qubits.
//===----------------------------------------------------------------------===//

class Quantum_GateOp<string mnemonic, list<Trait> traits = []>
    : Quantum_Op<mnemonic, !listconcat(traits, [NoMemoryEffect,
          AttrSizedOperandSegments, AttrSizedResultSegments])> {
  let hasVerifier = 1;
}

def Quantum_CustomOp : Quantum_GateOp<"custom"> {
  let summary = "A named gate (PennyLane gate names).";
  let description = [{
    ```mlir
    %o = quantum.custom "RX"(%theta) %q : !quantum.bit
    %o:2 = quantum.custom "CNOT"() %q0, %q1 : !quantum.bit, !quantum.bit
    %o = quantum.custom "S"() %q adj : !quantum.bit
    %o, %c = quantum.custom "RX"(%x) %q ctrls(%c0) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    ```
  }];
  let arguments = (ins Variadic<F64>:$params, Variadic<Qubit>:$in_qubits,
                   StrAttr:$gate_name, UnitAttr:$adjoint,
                   Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    $gate_name `(` $params `)` $in_qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    `:` type($out_qubits) (`ctrls` type($out_ctrl_qubits)^)?
  }];
}

def Quantum_PauliRotOp : Quantum_GateOp<"paulirot"> {
  let summary = "Pauli rotation exp(-i angle/2 P) for a Pauli word P.";
  let arguments = (ins F64:$angle, Quantum_PauliWord:$pauli_product,
                   Variadic<Qubit>:$in_qubits, UnitAttr:$adjoint,
                   Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    $pauli_product `(` $angle `)` $in_qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    `:` type($out_qubits) (`ctrls` type($out_ctrl_qubits)^)?
  }];
}

// A global phase acts on the whole state, so it is ordered like a side effect.
def Quantum_GlobalPhaseOp : Quantum_Op<"gphase", [AttrSizedOperandSegments]> {
  let summary = "Global phase exp(-i angle), optionally controlled.";
  let arguments = (ins F64:$angle, UnitAttr:$adjoint,
                   Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    `(` $angle `)` (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    (`:` `ctrls` type($out_ctrl_qubits)^)?
  }];
  let hasVerifier = 1;
}

def Quantum_MultiRZOp : Quantum_GateOp<"multirz"> {
  let summary = "Multi-qubit Z rotation.";
  let arguments = (ins F64:$theta, Variadic<Qubit>:$in_qubits, UnitAttr:$adjoint,
                   Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    `(` $theta `)` $in_qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    `:` type($out_qubits) (`ctrls` type($out_ctrl_qubits)^)?
  }];
}

def Quantum_PCPhaseOp : Quantum_GateOp<"pcphase"> {
  let summary = "Projector-controlled phase.";
  let arguments = (ins F64:$theta, I64Attr:$dim, Variadic<Qubit>:$in_qubits,
                   UnitAttr:$adjoint, Variadic<Qubit>:$in_ctrl_qubits,
                   Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    `(` $theta `,` `dim` `:` $dim `)` $in_qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    `:` type($out_qubits) (`ctrls` type($out_ctrl_qubits)^)?
  }];
}

def Quantum_QubitUnitaryOp : Quantum_GateOp<"unitary"> {
  let summary = "Apply a 2^n x 2^n unitary matrix to n qubits.";
  let arguments = (ins AnyTypeOf<[2DTensorOf<[Complex<F64>]>,
                                  MemRefRankOf<[Complex<F64>], [2]>]>:$matrix,
                   Variadic<Qubit>:$in_qubits, UnitAttr:$adjoint,
                   Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits);
  let assemblyFormat = [{
    `(` $matrix `:` type($matrix) `)` $in_qubits (`adj` $adjoint^)? attr-dict
    (`ctrls` `(` $in_ctrl_qubits^ `)`)? (`ctrlvals` `(` $in_ctrl_values^ `)`)?
    `:` type($out_qubits) (`ctrls` type($out_ctrl_qubits)^)?
  }];
}

// Catalyst's generic operator: a frontend operation (a template, an operator
// with Python data) that has no dedicated op and no semantics of its own
// until a decomposition rule replaces it. It is free of memory effects like
// the other gates: its qubits or its register carry its order.
def Quantum_OperatorOp : Quantum_Op<"operator", [NoMemoryEffect,
    AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "A frontend operator with an arbitrary signature (qubit or register mode).";
  let description = [{
    Acts either on qubits (qubit mode: `qubits(...)`, optionally controlled
    with `ctrls(...) ctrl_vals(...)`, one result per qubit and per control)
    or on a register and index tensors (register mode: `quregs(...)
    indices(...)`, controls as index and value tensors, one register
    result). Parameters are typed values of any type. `static_data` holds
    compile-time data, `UID(n)` summarizes frontend data the compiler cannot
    see (with `forward(...)` values passed on to the decomposition rules),
    `param_map` and `qubit_map` name the parameter and qubit positions of
    the frontend signature.

    ```mlir
    %o = quantum.operator "MyOp"(%theta: f64) adj qubits(%q)
      static_data = {pauli_word = "XYZ"}
    %o, %oc:2 = quantum.operator "MyOp"() qubits(%q)
      ctrls(%c0, %c1) ctrl_vals(%true, %false)
    %r1 = quantum.operator "MyOp"(%s: tensor<?xcomplex<f64>>)
      quregs(%r0) indices(%w0: tensor<?xi64>, %w1: tensor<1xi64>)
      param_map = {state_vector = [0]} qubit_map = {wires = [0], precision_wire = [1]}
    %o:3 = quantum.operator "MyOp"(%s: tensor<8xcomplex<f64>>) qubits(%q0, %q1, %q2)
      UID(324958) forward(%phi: f64, %delta: f64)
    ```
  }];
  let arguments = (ins
    StrAttr:$op_name,
    Variadic<AnyType>:$params,
    Variadic<AnyType>:$forward_args,
    Variadic<Qubit>:$in_qubits,
    Variadic<Qubit>:$in_ctrl_qubits,
    Variadic<I1>:$in_ctrl_values,
    Optional<Qureg>:$in_qreg,
    Variadic<1DTensorOf<[I64]>>:$arr_qubit_indices,
    Optional<1DTensorOf<[I64]>>:$arr_ctrl_indices,
    Optional<1DTensorOf<[I1]>>:$arr_ctrl_values,
    UnitAttr:$adjoint,
    OptionalAttr<I64Attr>:$UID,
    DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$static_data,
    DefaultValuedOptionalAttr<Quantum_I64ArrayDict, "{}">:$param_map,
    DefaultValuedOptionalAttr<Quantum_I64ArrayDict, "{}">:$qubit_map);
  let results = (outs Variadic<Qubit>:$out_qubits, Variadic<Qubit>:$out_ctrl_qubits,
                 Optional<Qureg>:$out_qreg);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Region ops.
//===----------------------------------------------------------------------===//

// Catalyst declares both region ops free of memory effects (value semantics:
// the region's qubits flow in and out through the op). qshape's passes do not
// rely on that: the op table marks them FromRegion, so an ordered op inside
// still orders the whole region.
def Quantum_AdjointOp : Quantum_Op<"adjoint", [NoMemoryEffect,
    SingleBlockImplicitTerminator<"YieldOp">, AllTypesMatch<["args", "results"]>]> {
  let summary = "The adjoint (inverse) of the gates in the region.";
  let arguments = (ins Variadic<Quantum_QubitOrReg>:$args);
  let results = (outs Variadic<Quantum_QubitOrReg>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "`(` $args `)` (`:` type($results)^)? $region attr-dict";
  let hasVerifier = 1;
}

def Quantum_CtrlOp : Quantum_Op<"ctrl", [NoMemoryEffect,
    AttrSizedOperandSegments, AttrSizedResultSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    AllTypesMatch<["in_ctrl_qubits", "out_ctrl_qubits"]>,
    AllTypesMatch<["args", "results"]>]> {
  let summary = "The gates in the region, controlled on extra qubits.";
  let arguments = (ins Variadic<Qubit>:$in_ctrl_qubits, Variadic<I1>:$in_ctrl_values,
                   Variadic<Quantum_QubitOrReg>:$args);
  let results = (outs Variadic<Qubit>:$out_ctrl_qubits,
                 Variadic<Quantum_QubitOrReg>:$results);
  let regions = (region SizedRegion<1>:$region);
  // Either type list may be empty (no controls, or no targets, as when the
  // region holds only a global phase); Catalyst prints nothing for it, and
  // the custom directive reads that back.
  let assemblyFormat = [{
    `(` $in_ctrl_qubits `)` `ctrlvals` `(` $in_ctrl_values `)` `(` $args `)`
    attr-dict `:` custom<OptionalTypeList>(type($out_ctrl_qubits)) `->`
    custom<OptionalTypeList>(type($results)) $region
  }];
  let hasVerifier = 1;
}

def Quantum_YieldOp : Quantum_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["AdjointOp", "CtrlOp"]>]> {
  let summary = "Terminator of `quantum.adjoint` and `quantum.ctrl` regions.";
  let arguments = (ins Variadic<Quantum_QubitOrReg>:$retvals);
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
  let assemblyFormat = "attr-dict ($retvals^ `:` type($retvals))?";
}

//===----------------------------------------------------------------------===//
// Observables (pure).
//===----------------------------------------------------------------------===//

def Quantum_ComputationalBasisOp : Quantum_Op<"compbasis", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "Computational-basis observable on qubits or a register.";
  let arguments = (ins Variadic<Qubit>:$qubits, Optional<Qureg>:$qreg);
  let results = (outs Obs:$obs);
  let assemblyFormat = "(`qubits` $qubits^)? (`qreg` $qreg^)? attr-dict `:` type(results)";
  let hasVerifier = 1;
}

def Quantum_NamedObsOp : Quantum_Op<"namedobs", [Pure]> {
  let summary = "A named single-qubit observable.";
  let arguments = (ins Qubit:$qubit, NamedObservableAttr:$type);
  let results = (outs Obs:$obs);
  let assemblyFormat = "$qubit `[` $type `]` attr-dict `:` type(results)";
}

def Quantum_MCMObsOp : Quantum_Op<"mcmobs", [Pure]> {
  let summary = "Observable over mid-circuit measurement results.";
  let arguments = (ins Variadic<I1>:$mcms);
  let results = (outs Obs:$obs);
  let assemblyFormat = "$mcms attr-dict `:` type(results)";
}

def Quantum_HermitianOp : Quantum_Op<"hermitian", [Pure]> {
  let summary = "A Hermitian matrix observable on n qubits.";
  let arguments = (ins AnyTypeOf<[2DTensorOf<[Complex<F64>]>,
                                  MemRefRankOf<[Complex<F64>], [2]>]>:$matrix,
                   Variadic<Qubit>:$qubits);
  let results = (outs Obs:$obs);
  let assemblyFormat = "`(` $matrix `:` type($matrix) `)` $qubits attr-dict `:` type(results)";
  let hasVerifier = 1;
}

def Quantum_TensorOp : Quantum_Op<"tensor", [Pure]> {
  let summary = "Tensor product of observables.";
  let arguments = (ins Variadic<Obs>:$terms);
  let results = (outs Obs:$obs);
  let assemblyFormat = "$terms attr-dict `:` type(results)";
}

def Quantum_HamiltonianOp : Quantum_Op<"hamiltonian", [Pure]> {
  let summary = "Linear combination of observables.";
  let arguments = (ins AnyTypeOf<[1DTensorOf<[F64]>, MemRefRankOf<[F64], [1]>]>:$coeffs,
                   Variadic<Obs>:$terms);
  let results = (outs Obs:$obs);
  let assemblyFormat = "`(` $coeffs `:` type($coeffs) `)` $terms attr-dict `:` type(results)";
}

//===----------------------------------------------------------------------===//
// Measurements (ordered).
//===----------------------------------------------------------------------===//

def Quantum_MeasureOp : Quantum_Op<"measure"> {
  let summary = "Mid-circuit measurement in the computational basis.";
  let arguments = (ins Qubit:$in_qubit,
      OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<1>]>>:$postselect);
  let results = (outs I1:$mres, Qubit:$out_qubit);
  let assemblyFormat = "$in_qubit (`postselect` $postselect^)? attr-dict `:` type(results)";
}

def Quantum_ExpvalOp : Quantum_Op<"expval"> {
  let summary = "Expectation value of an observable.";
  let arguments = (ins Obs:$obs);
  let results = (outs F64:$expval);
  let assemblyFormat = "$obs attr-dict `:` type(results)";
  let hasVerifier = 1;
}

def Quantum_VarianceOp : Quantum_Op<"var"> {
  let summary = "Variance of an observable.";
  let arguments = (ins Obs:$obs);
  let results = (outs F64:$variance);
  let assemblyFormat = "$obs attr-dict `:` type(results)";
  let hasVerifier = 1;
}

def Quantum_ProbsOp : Quantum_Op<"probs", [AttrSizedOperandSegments]> {
  let summary = "Computational-basis probabilities.";
  let arguments = (ins Obs:$obs, Optional<I64>:$dynamic_shape,
                   Optional<MemRefRankOf<[F64], [1]>>:$state_in);
  let results = (outs Optional<1DTensorOf<[F64]>>:$probabilities);
  let assemblyFormat = [{
    $obs (`shape` $dynamic_shape^)? (`in` `(` $state_in^ `:` type($state_in) `)`)?
    attr-dict (`:` type($probabilities)^)?
  }];
  let hasVerifier = 1;
}

def Quantum_StateOp : Quantum_Op<"state", [AttrSizedOperandSegments]> {
  let summary = "The state vector.";
  let arguments = (ins Obs:$obs, Optional<I64>:$dynamic_shape,
                   Optional<MemRefRankOf<[Complex<F64>], [1]>>:$state_in);
  let results = (outs Optional<1DTensorOf<[Complex<F64>]>>:$state);
  let assemblyFormat = [{
    $obs (`shape` $dynamic_shape^)? (`in` `(` $state_in^ `:` type($state_in) `)`)?
    attr-dict (`:` type($state)^)?
  }];
  let hasVerifier = 1;
}

def Quantum_SampleOp : Quantum_Op<"sample", [AttrSizedOperandSegments]> {
  let summary = "Shot samples of an observable.";
  let arguments = (ins Obs:$obs, Variadic<I64>:$dynamic_shape,
                   Optional<AnyTypeOf<[MemRefRankOf<[F64], [1]>,
                                       MemRefRankOf<[F64], [2]>]>>:$in_data);
  let results = (outs Optional<AnyTypeOf<[1DTensorOf<[F64]>, 2DTensorOf<[F64]>]>>:$samples);
  let assemblyFormat = [{
    $obs (`shape` $dynamic_shape^)? (`in` `(` $in_data^ `:` type($in_data) `)`)?
    attr-dict (`:` type($samples)^)?
  }];
  let hasVerifier = 1;
}

def Quantum_CountsOp : Quantum_Op<"counts", [AttrSizedOperandSegments,
    SameVariadicResultSize]> {
  let summary = "Shot counts per eigenvalue of an observable.";
  let arguments = (ins Obs:$obs, Optional<I64>:$dynamic_shape,
                   Optional<MemRefRankOf<[F64], [1]>>:$in_eigvals,
                   Optional<MemRefRankOf<[I64], [1]>>:$in_counts);
  let results = (outs Optional<1DTensorOf<[F64]>>:$eigvals,
                 Optional<1DTensorOf<[I64]>>:$counts);
  let assemblyFormat = [{
    $obs (`shape` $dynamic_shape^)?
    (`in` `(` $in_eigvals^ `:` type($in_eigvals) `,` $in_counts `:` type($in_counts) `)`)?
    attr-dict (`:` type($eigvals)^ `,` type($counts))?
  }];
  let hasVerifier = 1;
}

#endif // QSHAPE_DIALECT_QUANTUM_OPS
