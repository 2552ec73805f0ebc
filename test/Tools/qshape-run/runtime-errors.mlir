// A program that fails at run time (the runtime reports it through its
// error handler) gives one clear message and exit code 1, and nothing on
// stdout: no partial or made-up result. The same inputs in qshape-sim fail
// too. Cases: a register index out of range, more qubits than the simulator
// supports, more qubits than memory allows (27 qubits, 2 GiB of state, under
// a 1.5 GB address-space limit).

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-compile %s -o %t/lib.so
// RUN: qshape-run %t/lib.so --entry wire --args '[[1]]' | FileCheck %s --check-prefix=OK
// RUN: not qshape-run %t/lib.so --entry wire --args '[[7]]' > %t/wire.out 2> %t/wire.err
// RUN: FileCheck %s --check-prefix=WIRE < %t/wire.err
// RUN: count 0 < %t/wire.out
// RUN: not qshape-sim %s --entry wire --args '[[7]]' 2>&1 | FileCheck %s --check-prefix=SIM-WIRE
// RUN: not qshape-run %t/lib.so --entry qubits --args '[[40]]' > %t/big.out 2> %t/big.err
// RUN: FileCheck %s --check-prefix=BIG < %t/big.err
// RUN: count 0 < %t/big.out
// ASan reserves terabytes of address space, so the limit is not tested there.
// RUN: %if !asan %{ not prlimit --as=1500000000 %qshape_tools/qshape-run %t/lib.so --entry qubits --args '[[27]]' > %t/mem.out 2> %t/mem.err %}
// RUN: %if !asan %{ FileCheck %s --check-prefix=MEM < %t/mem.err %}
// RUN: %if !asan %{ count 0 < %t/mem.out %}

// OK: {"results": [-1.0]}
// WIRE: qshape-run: error: __catalyst__rt__array_get_element_ptr_1d: index 7 out of range for a register of 2 qubits
// WIRE-NOT: {{.}}
// SIM-WIRE: error: qshape-sim: index 7 out of range for a register of 2 qubits
// BIG: qshape-run: error: __catalyst__rt__qubit_allocate_array: allocating 40 qubits (0 already allocated) exceeds the simulator's 30
// MEM: qshape-run: error: __catalyst__qis__Hadamard: out of memory: cannot allocate the state of 27 qubits (2 GiB)
// MEM-NOT: {{.}}

func.func public @wire(%i: tensor<1xi64>) -> tensor<f64> attributes {qnode} {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %w = tensor.extract %i[%c0] : tensor<1xi64>
  %q = quantum.extract %r[%w] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "PauliX"() %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %t = tensor.from_elements %e : tensor<f64>
  quantum.device_release
  return %t : tensor<f64>
}

func.func public @qubits(%n: tensor<1xi64>) -> tensor<f64> attributes {qnode} {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %size = tensor.extract %n[%c0] : tensor<1xi64>
  %r = quantum.alloc(%size) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %t = tensor.from_elements %e : tensor<f64>
  quantum.device_release
  return %t : tensor<f64>
}
