module {
  func.func @single() -> f64 {
    "fuzz.barrier"() : () -> ()
    %cst = arith.constant 2.0943951023931953 : f64
    %0 = quantum.alloc( 1) : !quantum.reg
    "fuzz.barrier"() : () -> ()
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = "fuzz.opaque"(%1) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %out_qubits = quantum.paulirot ["X"](%cst) %2 : !quantum.bit
    %3 = quantum.namedobs %out_qubits[ PauliZ] : !quantum.obs
    %4 = quantum.expval %3 : f64
    return %4 : f64
  }
  func.func @word_order() -> (f64, f64) {
    %cst = arith.constant 0.52359877559829882 : f64
    %0 = quantum.alloc( 4) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %3 = quantum.extract %0[ 2] : !quantum.reg -> !quantum.bit
    %4 = quantum.extract %0[ 3] : !quantum.reg -> !quantum.bit
    %out_qubits:2 = quantum.paulirot ["Z", "X"](%cst) %1, %2 : !quantum.bit, !quantum.bit
    %5 = call @fuzz_opaque(%3) : (!quantum.bit) -> !quantum.bit
    %out_qubits_0 = quantum.custom "SX"() %5 : !quantum.bit
    %out_qubits_1:2 = quantum.paulirot ["Z", "X"](%cst) %out_qubits_0, %4 : !quantum.bit, !quantum.bit
    %6 = quantum.namedobs %out_qubits#1[ PauliY] : !quantum.obs
    %7 = quantum.expval %6 : f64
    %8 = quantum.namedobs %out_qubits_1#1[ PauliY] : !quantum.obs
    %9 = quantum.expval %8 : f64
    return %7, %9 : f64, f64
  }
  func.func @adjoint() -> f64 {
    %cst = arith.constant 0.52359877559829882 : f64
    %0 = quantum.alloc( 1) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %out_qubits = quantum.paulirot ["Y"](%cst) %1 adj : !quantum.bit
    %2 = quantum.namedobs %out_qubits[ PauliX] : !quantum.obs
    %3 = quantum.expval %2 : f64
    return %3 : f64
  }
  func.func @controlled() -> (f64, f64) {
    %cst = arith.constant 3.1415926535897931 : f64
    %true = arith.constant true
    %false = arith.constant false
    %0 = quantum.alloc( 3) : !quantum.reg
    %1 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %2 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %3 = quantum.extract %0[ 2] : !quantum.reg -> !quantum.bit
    %4 = call @fuzz_opaque(%2) : (!quantum.bit) -> !quantum.bit
    %out_qubits, %out_ctrl_qubits = quantum.paulirot ["X"](%cst) %4 ctrls(%1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %out_qubits_0, %out_ctrl_qubits_1 = quantum.paulirot ["X"](%cst) %3 ctrls(%out_ctrl_qubits) ctrlvals(%false) : !quantum.bit ctrls !quantum.bit
    %5 = quantum.namedobs %out_qubits[ PauliZ] : !quantum.obs
    %6 = quantum.expval %5 : f64
    %7 = quantum.namedobs %out_qubits_0[ PauliZ] : !quantum.obs
    %8 = quantum.expval %7 : f64
    return %6, %8 : f64, f64
  }
  func.func private @fuzz_opaque(!quantum.bit) -> !quantum.bit
}
