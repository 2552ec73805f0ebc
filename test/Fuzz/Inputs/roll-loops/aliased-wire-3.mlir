module {
  func.func @catalyst_print(%arg0: !quantum.reg) -> !quantum.reg {
    %0 = quantum.extract %arg0[ 0] : !quantum.reg -> !quantum.bit
    %1 = quantum.extract %arg0[ 1] : !quantum.reg -> !quantum.bit
    %2 = quantum.extract %arg0[ 2] : !quantum.reg -> !quantum.bit
    %3 = quantum.extract %arg0[ 3] : !quantum.reg -> !quantum.bit
    %4 = quantum.extract %arg0[ 0] : !quantum.reg -> !quantum.bit
    %5 = quantum.extract %arg0[ 5] : !quantum.reg -> !quantum.bit
    %6 = quantum.extract %arg0[ 6] : !quantum.reg -> !quantum.bit
    %7 = quantum.extract %arg0[ 7] : !quantum.reg -> !quantum.bit
    %out_qubits = quantum.custom "Hadamard"() %0 : !quantum.bit
    %8 = quantum.insert %arg0[ 0], %out_qubits : !quantum.reg, !quantum.bit
    %out_qubits_0 = quantum.custom "Hadamard"() %1 : !quantum.bit
    %9 = quantum.insert %8[ 1], %out_qubits_0 : !quantum.reg, !quantum.bit
    %out_qubits_1 = quantum.custom "Hadamard"() %2 : !quantum.bit
    %10 = quantum.insert %9[ 2], %out_qubits_1 : !quantum.reg, !quantum.bit
    %out_qubits_2 = quantum.custom "PauliZ"() %3 adj : !quantum.bit
    %11 = quantum.insert %10[ 3], %out_qubits_2 : !quantum.reg, !quantum.bit
    "catalyst.print"() <{const_val = "half way"}> : () -> ()
    %out_qubits_3 = quantum.custom "Hadamard"() %4 : !quantum.bit
    %12 = quantum.insert %11[ 4], %out_qubits_3 : !quantum.reg, !quantum.bit
    %13 = "fuzz.opaque"(%5) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %14 = "fuzz.opaque"(%13) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %out_qubits_4 = quantum.custom "Hadamard"() %14 : !quantum.bit
    %15 = quantum.insert %12[ 5], %out_qubits_4 : !quantum.reg, !quantum.bit
    %out_qubits_5 = quantum.custom "Hadamard"() %6 : !quantum.bit
    %16 = quantum.insert %15[ 6], %out_qubits_5 : !quantum.reg, !quantum.bit
    %out_qubits_6 = quantum.custom "Hadamard"() %7 : !quantum.bit
    %17 = quantum.insert %16[ 7], %out_qubits_6 : !quantum.reg, !quantum.bit
    return %17 : !quantum.reg
  }
}
