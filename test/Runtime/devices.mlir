// The runtime runs the device that quantum.device names, or refuses it:
// lightning.qubit (by its device name or Catalyst's short library name) and
// qshape's own QShapeSimulator run on the simulator, with qshape-sim's
// results; null.qubit runs as Catalyst's NullQubit (gates do nothing,
// expval 0, measurements 0 whatever the postselection, probs/counts/sample
// of |0...0>); any other device is one clear error, exit code 1 and nothing
// on stdout, never a run on the simulator.

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-compile %s -o %t/lib.so
// RUN: qshape-sim %s --entry lightning --args '[0.5]' > %t/sim.json
// RUN: qshape-run %t/lib.so --entry lightning --args '[0.5]' > %t/lightning.json
// RUN: qshape-run %t/lib.so --entry short_name --args '[0.5]' > %t/short.json
// RUN: qshape-run %t/lib.so --entry own --args '[0.5]' > %t/own.json
// RUN: diff %t/sim.json %t/lightning.json
// RUN: diff %t/sim.json %t/short.json
// RUN: diff %t/sim.json %t/own.json
// RUN: FileCheck %s --check-prefix=SIM < %t/sim.json
// SIM: {"results": [0.8775825618903{{[0-9]*}}, [0.9387912809451{{[0-9]*}}, 0.0, 0.0, 0.0612087190548{{[0-9]*}}]]}

// RUN: qshape-run %t/lib.so --entry null --args '[0.5]' | FileCheck %s --check-prefix=NULL
// NULL: {"results": [0.0, [1.0, 0.0, 0.0, 0.0]]}
// RUN: qshape-run %t/lib.so --entry null_shots | FileCheck %s --check-prefix=NULL-SHOTS
// NULL-SHOTS: {"results": [false, [5, 0, 0, 0], {{\[}}[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]}

// RUN: not qshape-run %t/lib.so --entry gpu --args '[0.5]' > %t/gpu.out 2> %t/gpu.err
// RUN: count 0 < %t/gpu.out
// RUN: FileCheck %s --check-prefix=GPU < %t/gpu.err
// GPU: qshape-run: error: __catalyst__rt__device_init: the device 'LightningGPUSimulator' (library '/path/liblightning_gpu_catalyst.so') cannot run on qshape's runtime, which runs only lightning.qubit (LightningSimulator), null.qubit (NullQubit) and its own QShapeSimulator; run the library on Catalyst's runtime (librt_capi.so) instead (docs/runtime.md, "Devices")
// GPU-NOT: {{.}}
// RUN: not qshape-run %t/lib.so --entry braket --args '[0.5]' 2>&1 | FileCheck %s --check-prefix=BRAKET
// BRAKET: qshape-run: error: __catalyst__rt__device_init: the device 'OpenQasmDevice' (library 'braket.aws.qubit') cannot run on qshape's runtime
// RUN: not qshape-run %t/lib.so --entry null_tracking --args '[0.5]' 2>&1 | FileCheck %s --check-prefix=TRACKING
// TRACKING: qshape-run: error: __catalyst__rt__device_init: null.qubit (NullQubit) with track_resources: qshape's runtime does not track resources; run the library on Catalyst's runtime (librt_capi.so) instead

// RX(x), CNOT: <Z> of wire 1 and the probabilities of both wires.
func.func public @lightning(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

// Catalyst's runtime replaces the name of a short library name.
func.func public @short_name(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["lightning.qubit", "", "{}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

func.func public @own(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["", "QShapeSimulator", "{}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

func.func public @null(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["/path/librtd_null_qubit.so", "NullQubit", "{'shots': 0}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

func.func public @null_tracking(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["/path/librtd_null_qubit.so", "NullQubit", "{'track_resources': True}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

func.func public @gpu(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["/path/liblightning_gpu_catalyst.so", "LightningGPUSimulator", "{}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

func.func public @braket(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  quantum.device shots(%c0_i64) ["braket.aws.qubit", "", "{'device_arn': 'arn:aws:braket:::device/quantum-simulator/amazon/sv1'}"]
  %e, %p = call @body(%arg0) : (tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  quantum.device_release
  return %e, %p : tensor<f64>, tensor<4xf64>
}

// With shots, on null.qubit: H then a measurement postselected on 1 (0 on
// NullQubit), counts and samples of both wires.
func.func public @null_shots() -> (i1, tensor<4xi64>, tensor<5x2xf64>) attributes {qnode} {
  %shots = arith.constant 5 : i64
  quantum.device shots(%shots) ["/path/librtd_null_qubit.so", "NullQubit", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %m, %h2 = quantum.measure %h postselect 1 : i1, !quantum.bit
  %all = quantum.compbasis qubits %h2, %q1 : !quantum.obs
  %eig, %n = quantum.counts %all : tensor<4xf64>, tensor<4xi64>
  %s = quantum.sample %all : tensor<5x2xf64>
  quantum.device_release
  return %m, %n, %s : i1, tensor<4xi64>, tensor<5x2xf64>
}

func.func private @body(%arg0: tensor<f64>) -> (tensor<f64>, tensor<4xf64>) {
  %x = tensor.extract %arg0[] : tensor<f64>
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "RX"(%x) %q0 : !quantum.bit
  %b:2 = quantum.custom "CNOT"() %a, %q1 : !quantum.bit, !quantum.bit
  %z = quantum.namedobs %b#1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %all = quantum.compbasis qubits %b#0, %b#1 : !quantum.obs
  %p = quantum.probs %all : tensor<4xf64>
  %t = tensor.from_elements %e : tensor<f64>
  quantum.dealloc %r : !quantum.reg
  return %t, %p : tensor<f64>, tensor<4xf64>
}
