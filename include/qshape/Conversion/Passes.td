//===- Passes.td - qshape's passes to native code --------*- tablegen -*-===//
//
// The passes that take a Catalyst-shaped module (tensor level, `quantum`
// dialect) to an LLVM-dialect module that calls Catalyst's runtime C ABI,
// and the `qshape-lower-to-llvm` pipeline that runs them. They are declared
// here, apart from include/qshape/Transforms/Passes.td, so they form one
// library (QShapeConversion) that a compile driver links. Like every qshape
// pass they read quantum ops by name through the op table, never by
// dyn_cast to qshape's op classes.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CONVERSION_PASSES
#define QSHAPE_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def QShapeToValueSemantics : Pass<"qshape-to-value-semantics", "mlir::ModuleOp"> {
  let summary = "Rewrite Catalyst's reference-semantics qref ops into the quantum dialect.";
  let description = [{
    Catalyst's capture frontend emits `qref`: gates act in place on qubit
    references (`qref.get %r[0]`) and return nothing. qshape's passes, its
    simulator and its lowering work on the value-semantics `quantum`
    dialect. Each function that uses `qref` is rewritten region by region:
    a qubit at a static wire is extracted at its first use and threaded
    through the gates, and inserted back when its register is needed whole
    (dealloc, a register observable, a region that uses it, a dynamic
    index into it); a qubit at a dynamic index is extracted from the whole
    register and inserted back right after its op. `scf.for` and `scf.if`
    carry the registers and qubits their bodies use as iter_args and
    results; `qref.adjoint` and `qref.ctrl` become `quantum.adjoint` and
    `quantum.ctrl` whose regions take and yield them.

    Not converted yet, each a located error that fails the pass: functions that take or return qubit references (calls),
    `scf.while`, `qref.operator`, and references that do not come from
    `qref.get` or `qref.alloc_qb` in the same function.

    ```mlir
    %a = qref.alloc(2) : !qref.reg<2>
    %q0 = qref.get %a[0] : !qref.reg<2> -> !qref.bit
    qref.custom "Hadamard"() %q0 : !qref.bit
    qref.dealloc %a : !qref.reg<2>
    ```
    becomes
    ```mlir
    %0 = quantum.alloc( 2) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = quantum.custom "Hadamard"() %1 : !quantum.bit
    %3 = quantum.insert %0[ 0], %2 : !quantum.reg, !quantum.bit
    quantum.dealloc %3 : !quantum.reg
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::func::FuncDialect"];
}

def QShapeLowerCtrl : Pass<"qshape-lower-ctrl", "mlir::ModuleOp"> {
  let summary = "Push the controls of quantum.ctrl regions into the gates they hold.";
  let description = [{
    Every `quantum.ctrl` region is replaced by its body, each gate of which
    gains the region's control qubits and control values (after its own
    controls). The control qubits are threaded through the body: each gate
    consumes the current control values and produces the next ones, and the
    region's `out_ctrl_qubits` are the last ones. Nested regions are lowered
    innermost first. Control flow inside the region carries the controls as
    extra values: `scf.for` as extra `iter_args`, `scf.if` as extra results.
    A `quantum.adjoint` region inside takes the controls as extra arguments
    and results (ctrl(adjoint(U)) = adjoint(ctrl(U))), so the two lowerings
    may run in either order. Register accesses, allocations and classical
    ops are copied unchanged.

    Rejected with a located error (the region is left as it was): a
    measurement or another quantum op that is not a gate inside the
    region, `scf.while`/`scf.index_switch` or an op the pass does not know
    that takes or yields qubits.

    Before:
    ```mlir
    %c1, %q1 = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
    ^bb0(%a: !quantum.bit):
      %h = quantum.custom "Hadamard"() %a : !quantum.bit
      quantum.yield %h : !quantum.bit
    }
    ```
    After:
    ```mlir
    %h, %c1 = quantum.custom "Hadamard"() %q ctrls(%c) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numRegions", "regions", "quantum.ctrl regions lowered">,
    Statistic<"numGates", "gates", "Gates that gained controls">,
  ];
}

def QShapeLowerAdjoint : Pass<"qshape-lower-adjoint", "mlir::ModuleOp"> {
  let summary = "Replace quantum.adjoint regions by their reversed, inverted gates.";
  let description = [{
    Every `quantum.adjoint` region is replaced by its inverse: the gates in
    reverse order, each with its `adjoint` flag flipped, so that
    adjoint(U_n ... U_1) = U_1^dagger ... U_n^dagger. The qubits and
    registers flow backwards: the values the region yields are the inputs of
    the reversed circuit, and what the reversed circuit produces for the
    region's arguments are the results. `quantum.extract` and
    `quantum.insert` swap roles; `quantum.alloc`/`alloc_qb` and their
    deallocations swap too. Classical ops of the region (angle arithmetic,
    `tensor.extract`) are copied first, in their order, because the reversed
    gates need their values.

    Structured control flow is reversed as well: an `scf.for` that carries
    qubits or registers becomes a loop over the same iteration space whose
    induction variable runs backwards (`lb + last - iv`, with `last` the
    final value of the original induction variable, computed from the bounds
    when they are dynamic), its body reversed; an `scf.if` keeps its
    condition and reverses both branches. A `quantum.ctrl` region inside
    becomes a `quantum.ctrl` region around the reversed body. Nested
    `quantum.adjoint` regions are lowered innermost first.

    Rejected with a located error (the region is left as it was):
    measurements, mid-circuit measurements and device ops inside the region,
    `scf.while`/`scf.index_switch` or a call that takes or yields qubits, an
    `scf.for` that carries classical values alongside qubits, and a
    deallocation whose allocation is not in the region.

    Before:
    ```mlir
    %r1 = quantum.adjoint(%r0) : !quantum.reg {
    ^bb0(%r: !quantum.reg):
      %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
      %a = quantum.custom "RX"(%t) %q : !quantum.bit
      %b = quantum.custom "S"() %a : !quantum.bit
      %r2 = quantum.insert %r[ 0], %b : !quantum.reg, !quantum.bit
      quantum.yield %r2 : !quantum.reg
    }
    ```
    After:
    ```mlir
    %q = quantum.extract %r0[ 0] : !quantum.reg -> !quantum.bit
    %b = quantum.custom "S"() %q adj : !quantum.bit
    %a = quantum.custom "RX"(%t) %b adj : !quantum.bit
    %r1 = quantum.insert %r0[ 0], %a : !quantum.reg, !quantum.bit
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numRegions", "regions", "quantum.adjoint regions lowered">,
    Statistic<"numGates", "gates", "Gates inverted">,
    Statistic<"numLoops", "loops", "scf.for loops reversed">,
  ];
}

def QShapeBufferizeQuantum : Pass<"qshape-bufferize-quantum", "mlir::ModuleOp"> {
  let summary = "Give the quantum ops with tensor operands or results their memref forms.";
  let description = [{
    One-shot bufferization only converts ops that implement
    `BufferizableOpInterface`, and qshape's passes must work on quantum ops
    they did not define (Catalyst's classes, unregistered ops). This pass
    therefore rewrites those ops by name, before `one-shot-bufferize`, into
    the bufferized forms Catalyst's runtime lowering reads, using only
    bufferization ops that one-shot bufferization knows:

    - a tensor operand (the matrix of `quantum.unitary` and
      `quantum.hermitian`, the coefficients of `quantum.hamiltonian`, the
      state of `quantum.set_state` and `quantum.set_basis_state`) becomes
      `bufferization.to_buffer %t read_only`;
    - a tensor result (`quantum.probs`, `quantum.state`, `quantum.sample`,
      both results of `quantum.counts`) becomes a `memref.alloc` (sized by
      the op's dynamic shape operands) passed as the op's `state_in` /
      `in_data` / `in_eigvals` + `in_counts` operand, and
      `bufferization.to_tensor %buf restrict writable` of it replaces the
      result.

    Ops already in memref form are left alone.

    Before:
    ```mlir
    %p = quantum.probs %obs : tensor<4xf64>
    ```
    After:
    ```mlir
    %alloc = memref.alloc() : memref<4xf64>
    quantum.probs %obs in(%alloc : memref<4xf64>)
    %p = bufferization.to_tensor %alloc restrict writable : memref<4xf64> to tensor<4xf64>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numOperands", "operands", "Tensor operands given as buffers">,
    Statistic<"numResults", "results", "Tensor results written into new buffers">,
  ];
}

def QShapeLowerArgumentReads : Pass<"qshape-lower-argument-reads", "mlir::ModuleOp"> {
  let summary = "Read function arguments' tensor elements through one buffer, before one-shot bufferization.";
  let description = [{
    One-shot bufferization's analysis checks each tensor operand against
    every read of the values it may alias, so N `tensor.extract`s of one
    tensor cost N^2: an unrolled circuit with runtime angles reads each
    angle from the argument once (docs/benchmarks.md, "Unrolled compiles
    against argument reads").
    This pass gives each such argument one `bufferization.to_buffer
    read_only` at the function's entry and turns its `tensor.extract`s
    into `memref.load`s of it, so the analysis sees one read.

    Only arguments of `func.func` that are ranked tensors and that nothing
    but `tensor.extract` and read-only `to_buffer` (what
    `qshape-bufferize-quantum` gives quantum ops) uses are rewritten: an
    argument that another op may write in place is left to the analysis,
    which would otherwise not see the loads after the write.

    Before:
    ```mlir
    func.func @f(%w: tensor<2x3xf64>) {
      %a = tensor.extract %w[%c0, %c1] : tensor<2x3xf64>
      %b = tensor.extract %w[%c1, %c2] : tensor<2x3xf64>
    ```
    After:
    ```mlir
    func.func @f(%w: tensor<2x3xf64>) {
      %buf = bufferization.to_buffer %w read_only : tensor<2x3xf64> to memref<2x3xf64>
      %a = memref.load %buf[%c0, %c1] : memref<2x3xf64>
      %b = memref.load %buf[%c1, %c2] : memref<2x3xf64>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numArguments", "arguments", "Arguments read through one buffer">,
    Statistic<"numReads", "reads", "tensor.extract ops turned into memref.load">,
  ];
}

def QShapeFreeLocalBuffers : Pass<"qshape-free-local-buffers", "mlir::ModuleOp"> {
  let summary = "Free the buffers a function allocates and uses only itself.";
  let description = [{
    After bufferization nothing frees the buffers a function allocates for
    its own use (the tables `qshape-roll-loops` gathers with
    `tensor.from_elements`, temporaries), so every call of the library
    would leak them. Upstream `ownership-based-buffer-deallocation` rejects
    every op with unknown memory effects, which each quantum op has. This
    pass frees what provably stays local: a `memref.alloc` whose aliases
    (views) are only loaded, stored, copied or passed to quantum ops (the
    runtime uses a buffer during the call and keeps no pointer to it), or
    passed to a function of the module that uses its argument the same way,
    gets a `memref.dealloc` after its last use in its block. A buffer that
    is returned, yielded, passed to an external function or to any other op
    is left alone.

    Before:
    ```mlir
    %t = memref.alloc() : memref<3xf64>
    memref.store %x, %t[%c0] : memref<3xf64>
    %v = memref.load %t[%i] : memref<3xf64>
    %q1 = quantum.custom "RX"(%v) %q0 : !quantum.bit
    ```
    After:
    ```mlir
    %t = memref.alloc() : memref<3xf64>
    memref.store %x, %t[%c0] : memref<3xf64>
    %v = memref.load %t[%i] : memref<3xf64>
    memref.dealloc %t : memref<3xf64>
    %q1 = quantum.custom "RX"(%v) %q0 : !quantum.bit
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numFreed", "freed", "Buffers freed after their last use">,
  ];
}

def QShapeCopyUnownedResults : Pass<"qshape-copy-unowned-results", "mlir::ModuleOp"> {
  let summary = "Return a fresh copy of every entry-point result buffer the function did not allocate.";
  let description = [{
    Catalyst's `CompiledFunction` takes each result buffer of an entry
    point (a function with `llvm.emit_c_interface`) with
    `_mlir_memory_transfer`, which succeeds only for a buffer the runtime
    allocated (`finalize-memref-to-llvm{use-generic-functions}`). A result
    that is not provably a `memref.alloc` of the function (through
    `memref.cast`) is replaced by a fresh allocation holding its elements:
    constants (`memref.get_global`, whose descriptor has no allocation),
    arguments returned as they are, buffers that come through control flow.
    This is Catalyst's `cp-global-memref`, decided statically.
    `qshape-lower-to-llvm{generic-alloc-functions}` runs it.

    Before:
    ```mlir
    %0 = memref.get_global @__constant_xf64 : memref<f64>
    return %0 : memref<f64>
    ```
    After:
    ```mlir
    %0 = memref.get_global @__constant_xf64 : memref<f64>
    %alloc = memref.alloc() : memref<f64>
    memref.copy %0, %alloc : memref<f64> to memref<f64>
    return %alloc : memref<f64>
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numCopied", "copied", "Result buffers returned as fresh copies">,
  ];
}

def QShapeConvertQuantumToLLVM : Pass<"qshape-convert-quantum-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower the quantum dialect to calls of Catalyst's runtime C ABI.";
  let description = [{
    Stands where Catalyst's `convert-quantum-to-llvm` stands: after the
    other dialects have been lowered to LLVM, it converts every quantum op
    to calls of the runtime functions of Catalyst's `RuntimeCAPI.h`, with
    exactly their signatures, and (like Catalyst's pass) also converts
    `func` and `cf` to the LLVM dialect, because qubits, registers and
    observables cross function signatures and block arguments. Functions
    with `llvm.emit_c_interface` get their `_mlir_ciface_` wrapper.

    Types: `!quantum.bit`, `!quantum.reg`, `!quantum.res` become `!llvm.ptr`,
    `!quantum.obs` becomes `i64` (the runtime's observable id).

    - `init`/`finalize`, `device` (strings as NUL-terminated internal
      globals) and `device_release`, `num_qubits`;
    - `alloc`/`alloc_qb`/`dealloc`/`dealloc_qb`; `extract` calls
      `__catalyst__rt__array_get_element_ptr_1d` and loads the qubit;
      `insert` lowers to nothing (qubit handles are references);
    - gates call `__catalyst__qis__<Gate>(params..., qubits..., Modifiers*)`
      (`Identity`, `MultiRZ`, `PCPhase`, `PauliRot`, `QubitUnitary`: a count,
      then the qubits as varargs). The `Modifiers` struct
      `{i1 adjoint, i64 num_controlled, ptr wires, ptr values}` lives on the
      stack; a null pointer is passed without adjoint and controls. `SX`,
      which has no runtime function, becomes `RX(pi/2)` and
      `GlobalPhase(-pi/4)` with the same modifiers;
    - `gphase`, controlled included (its `out_ctrl_qubits` are its control
      qubits), calls `__catalyst__qis__GlobalPhase`;
    - observables return ids (`NamedObs`, `HermitianObs`, `TensorObs`,
      `HamiltonianObs`); `compbasis` only lists the qubits its measurement
      passes;
    - `measure` calls `__catalyst__qis__Measure(qubit, postselect or -1)` and
      loads the `i1`; `expval`/`var`; `probs`, `state`, `sample`, `counts`
      (memref form) pass a pointer to the output's memref descriptor.

    Stack slots (modifiers, control arrays, descriptors) are allocated once
    per function in its entry block and reused by every call that needs the
    same type, so unrolled programs do not grow the stack frame per gate.

    A quantum op that cannot be lowered (a region op that was not lowered,
    a tensor-form measurement that was not bufferized, `mcmobs`, a gate
    without a runtime function, a sample or counts of an observable other
    than `compbasis`) is a located error naming the op; nothing is
    converted then.

    ```mlir
    %o = quantum.custom "RX"(%t) %q : !quantum.bit
    ```
    becomes
    ```mlir
    %null = llvm.mlir.zero : !llvm.ptr
    llvm.call @__catalyst__qis__RX(%t, %q, %null) : (f64, !llvm.ptr, !llvm.ptr) -> ()
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numRuntimeCalls", "runtime-calls", "Calls of runtime functions created">,
    Statistic<"numScratchMerged", "scratch-slots-merged",
              "Stack slots merged into one per function and type">,
  ];
}

def QShapeFlattenModules : Pass<"qshape-flatten-modules", "mlir::ModuleOp"> {
  let summary = "Inline nested modules and turn catalyst.launch_kernel into func.call.";
  let description = [{
    Catalyst's frontend puts each QNode into a nested module and calls it
    with `catalyst.launch_kernel @module_circuit::@circuit(...)`; Catalyst's
    pipeline inlines the nested modules before lowering. This pass does the
    same: the symbols of every nested module move into the top module
    (renamed with a numeric suffix when the name is taken; external function
    declarations that are already present are merged), and every
    `catalyst.launch_kernel` (read by name, so the catalyst dialect need not
    be loaded) becomes a `func.call` of the moved function. The `quantum.node`
    function attribute of newer frontends is renamed to `qnode`.

    Before:
    ```mlir
    %0 = "catalyst.launch_kernel"(%arg0) <{callee = @module_circuit::@circuit}> : (tensor<f64>) -> tensor<f64>
    module @module_circuit { func.func public @circuit(...) ... }
    ```
    After:
    ```mlir
    %0 = call @circuit(%arg0) : (tensor<f64>) -> tensor<f64>
    func.func public @circuit(...) ...
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numModules", "modules", "Nested modules inlined">,
    Statistic<"numLaunches", "launches", "catalyst.launch_kernel ops turned into calls">,
  ];
}

def QShapeCatalystEntryPoints : Pass<"qshape-catalyst-entry-points", "mlir::ModuleOp"> {
  let summary = "Give the module Catalyst's entry points: jit_ functions, setup, teardown.";
  let description = [{
    A library Catalyst's runtime loader can use exports `setup`, `teardown`
    and one `_catalyst_pyface_jit_<name>` per entry; Catalyst's frontend
    writes the functions they come from. This pass adds what a module that
    did not come from the frontend lacks:

    - if no function carries `llvm.emit_c_interface`, each public function
      with the `qnode` attribute gets an entry `jit_<name>` with the same
      signature that calls it, marked `llvm.emit_c_interface`;
    - `func.func @setup()` running `quantum.init` and `func.func
      @teardown()` running `quantum.finalize`, when absent;
    - the arguments of every entry are marked `bufferization.writable =
      false`, so the library never writes into the caller's buffers.

    ```mlir
    func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {qnode} {...}
    ```
    gains
    ```mlir
    func.func public @jit_circuit(%arg0: tensor<f64> {bufferization.writable = false}) -> tensor<f64>
        attributes {llvm.emit_c_interface} {
      %0 = call @circuit(%arg0) : (tensor<f64>) -> tensor<f64>
      return %0 : tensor<f64>
    }
    func.func @setup() { quantum.init  return }
    func.func @teardown() { quantum.finalize  return }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numEntries", "entries", "jit_ entry functions created">,
  ];
}

def QShapeEmitCatalystPyface : Pass<"qshape-emit-catalyst-pyface", "mlir::ModuleOp"> {
  let summary = "Export _catalyst_pyface_<name>(results, args) for every C interface.";
  let description = [{
    Runs on the LLVM dialect, after `_mlir_ciface_<name>` wrappers exist.
    For each of them it adds, as Catalyst's `emit-catalyst-py-interface`
    does:

    - `_catalyst_pyface_<name>(ptr results, ptr args)`: loads from `args` a
      C struct with one field per argument of the C interface (a pointer to
      the memref descriptor for a tensor argument of any rank, the value for
      a scalar), and calls `_mlir_ciface_<name>` with `results` as its result
      pointer;
    - `_catalyst_ciface_<name>`, the name Catalyst gives the C interface (its
      debug C template calls it), forwarding to `_mlir_ciface_<name>`.

    The calling convention is documented in docs/native.md.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numWrappers", "wrappers", "_catalyst_pyface_ wrappers created">,
  ];
}

#endif // QSHAPE_CONVERSION_PASSES
