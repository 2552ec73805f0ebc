// Found by the roll-loops fuzz target (CI, 2026-12-02): a register inserted
// into and then used by two chains that both overwrite that wire. The roll
// was right, but verify-roundtrip compared the input's folded copy with the
// rolled side, which had gone through the canonical form first; the rules
// reach two forms from those two. It now gives both the canonical form first.
module {
  func.func @branching_chain(%arg0: !quantum.reg) -> (!quantum.reg, !quantum.reg) {
    %0 = quantum.extract %arg0[ 0] : !quantum.reg -> !quantum.bit
    %1 = quantum.extract %arg0[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits = quantum.custom "Hadamard"() %0 : !quantum.bit
    %out_qubits_0 = quantum.custom "Hadamard"() %1 : !quantum.bit
    %2 = quantum.insert %arg0[ 0], %out_qubits : !quantum.reg, !quantum.bit
    %3 = quantum.insert %2[ 1], %out_qubits_0 : !quantum.reg, !quantum.bit
    %4 = quantum.extract %3[ 0] : !quantum.reg -> !quantum.bit
    %5 = "fuzz.opaque"(%4) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %out_qubits_1 = quantum.custom "PauliX"() %5 : !quantum.bit
    %6 = quantum.insert %3[ 0], %out_qubits_1 : !quantum.reg, !quantum.bit
    %7 = quantum.insert %3[ 2], %out_qubits_1 : !quantum.reg, !quantum.bit
    %8 = quantum.extract %6[ 0] : !quantum.reg -> !quantum.bit
    %out_qubits_2 = quantum.custom "PauliZ"() %8 : !quantum.bit
    %9 = quantum.insert %6[ 1], %out_qubits_2 : !quantum.reg, !quantum.bit
    %10 = quantum.extract %7[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits_3 = quantum.custom "PauliY"() %10 adj : !quantum.bit
    %out_qubits_4 = quantum.custom "PauliY"() %out_qubits_3 : !quantum.bit
    %out_qubits_5 = quantum.custom "PauliY"() %out_qubits_4 : !quantum.bit
    %out_qubits_6 = quantum.custom "PauliY"() %out_qubits_5 adj : !quantum.bit
    %out_qubits_7 = quantum.custom "PauliY"() %out_qubits_6 : !quantum.bit
    %out_qubits_8 = quantum.custom "PauliY"() %out_qubits_7 : !quantum.bit
    %out_qubits_9 = quantum.custom "PauliY"() %out_qubits_8 adj : !quantum.bit
    %out_qubits_10 = quantum.custom "PauliY"() %out_qubits_9 : !quantum.bit
    %out_qubits_11 = quantum.custom "PauliY"() %out_qubits_10 : !quantum.bit
    %11 = quantum.insert %7[ 1], %out_qubits_11 : !quantum.reg, !quantum.bit
    return %9, %11 : !quantum.reg, !quantum.reg
  }
}
