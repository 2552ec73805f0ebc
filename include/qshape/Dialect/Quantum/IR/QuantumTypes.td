//===- QuantumTypes.td - quantum dialect types ----------------*- tablegen -*-===//

#ifndef QSHAPE_DIALECT_QUANTUM_TYPES
#define QSHAPE_DIALECT_QUANTUM_TYPES

include "mlir/IR/AttrTypeBase.td"
include "qshape/Dialect/Quantum/IR/QuantumDialect.td"

class Quantum_Type<string name, string typeMnemonic, string doc>
    : TypeDef<Quantum_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
}

def Quantum_QubitType : Quantum_Type<"Qubit", "bit", "a single qubit value">;
def Quantum_QuregType : Quantum_Type<"Qureg", "reg", "a register of qubits">;
def Quantum_ObservableType
    : Quantum_Type<"Observable", "obs", "a quantum observable">;
def Quantum_ResultType
    : Quantum_Type<"Result", "res", "a handle to a measurement result">;

def Quantum_QubitOrReg : AnyTypeOf<[Quantum_QubitType, Quantum_QuregType]>;

#endif // QSHAPE_DIALECT_QUANTUM_TYPES
