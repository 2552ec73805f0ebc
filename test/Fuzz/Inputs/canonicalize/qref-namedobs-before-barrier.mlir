module {
  func.func public @main(%arg0: f64) -> (f64, f64, f64) attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %c2_i64 = arith.constant 2 : i64
    %0 = qref.alloc( 3) : !qref.reg<3>
    %1 = qref.get %0[ 0] : !qref.reg<3> -> !qref.bit
    %2 = qref.get %0[ 1] : !qref.reg<3> -> !qref.bit
    %3 = qref.get %0[ 2] : !qref.reg<3> -> !qref.bit
    qref.custom "Hadamard"() %3 : !qref.bit
    qref.custom "RX"(%arg0) %1 : !qref.bit
    qref.custom "CNOT"() %1, %2 : !qref.bit, !qref.bit
    qref.custom "RY"(%arg0) %3 : !qref.bit
    %4 = arith.mulf %arg0, %arg0 : f64
    qref.custom "RX"(%4) %1 : !qref.bit
    qref.custom "RY"(%4) %3 : !qref.bit
    %5 = qref.get %0[%c2_i64] : !qref.reg<3>, i64 -> !qref.bit
    qref.custom "CNOT"() %1, %2 : !qref.bit, !qref.bit
    qref.custom "Hadamard"() %5 : !qref.bit
    %6 = qref.namedobs %1[ PauliZ] : !quantum.obs
    %7 = quantum.expval %6 : f64
    %8 = qref.namedobs %2[ PauliZ] : !quantum.obs
    %9 = quantum.expval %8 : f64
    %10 = qref.namedobs %3[ PauliX] : !quantum.obs
    "fuzz.barrier"() : () -> ()
    %11 = quantum.expval %10 : f64
    qref.dealloc %0 : !qref.reg<3>
    quantum.device_release
    return %7, %9, %11 : f64, f64, f64
  }
}
