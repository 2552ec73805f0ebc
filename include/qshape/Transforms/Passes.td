//===- Passes.td - qshape passes --------------------------------*- tablegen -*-===//
//
// Every pass argument carries the `qshape-` prefix so it never collides with
// upstream `canonicalize` or Catalyst's passes when loaded as a plugin.
// Passes read quantum ops through the name-based gate view (GateView.h) and
// never depend on qshape's op classes.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_PASSES
#define QSHAPE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def QShapeStats : Pass<"qshape-stats", "mlir::ModuleOp"> {
  let summary = "Report quantum resource statistics (ops, gates, qubits, loops).";
  let description = [{
    Counts what a user wants to know before and after a transformation:
    total ops, quantum ops, gates by name (with adjoint and controlled
    counts), qubits allocated, `scf.for` loops and their nesting depth, and
    the *static* gate count, i.e. the number of gates executed when loops
    with constant bounds are expanded, so that a rolled and an unrolled
    program can be compared. Qubits count by the same rule: every qubit a
    `quantum.alloc` or `quantum.alloc_qb` allocates, once per trip of the
    constant-bound loops around it. The IR is not changed.

    Results go to a JSON file (`output=<file>`, `-` for stdout) and, with
    `emit-remark`, to a remark on the module:

    ```
    $ qshape-opt --qshape-stats=output=- circuit.mlir -o /dev/null
    {"ops": 58, "quantum_ops": 45, "gates": 40, "static_gates": 40, ...}
    ```

    Quantum ops are recognised by name, so the pass also counts unregistered
    `quantum` ops (upstream `mlir-opt` with `--allow-unregistered-dialect`)
    and Catalyst's own op classes.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Write the statistics as JSON to this file ('-' for stdout)">,
    Option<"emitRemark", "emit-remark", "bool", /*default=*/"false",
           "Emit a one-line summary remark on the module">,
  ];
  let statistics = [
    Statistic<"numOps", "ops", "Number of operations in the module">,
    Statistic<"numGates", "gates", "Number of gate operations">,
    Statistic<"numStaticGates", "static-gates",
              "Gates executed with constant-bound loops expanded">,
    Statistic<"numLoops", "loops", "Number of scf.for loops">,
  ];
}

def QShapeCanonicalize : Pass<"qshape-canonicalize", "mlir::ModuleOp"> {
  let summary = "Put quantum modules in qshape's canonical form.";
  let description = [{
    Rewrites every function so that programs that differ only in SSA names,
    locations, attribute order, constant spelling, register style (an
    extract and an insert around every gate, or one per wire) or the order
    of independent gates become identical text. The rules, in the
    order they run (lib/Fingerprint/CanonicalRules.def; 4-8 to a fixpoint):

    1. A constant index operand of `quantum.extract`/`quantum.insert` and a
       constant size operand of `quantum.alloc` become the static attribute
       (`%r[%c3]` becomes `%r[ 3]`).
    2. Dead ops without side effects are erased (again after every round).
    3. Constants move to the top of the function, equal ones merged, sorted
       by value (floating-point constants last).
    4. Equal pure non-quantum ops in the same block are merged (CSE).
    5. An extract at a static index reads past inserts at other static
       indices (`extract(insert(r, 1, q), 0)` is `extract(r, 0)`), within
       one block and between the same barriers.
    6. Round trips through a register go: a qubit inserted at index i and
       extracted again at i (past inserts at other indices) is used
       directly, and the insert goes, when nothing else can see what it
       stored. Per-gate extract/insert pairs become the threaded form.
    7. Inserts that change nothing go: re-inserting the qubit a register
       holds, putting back what was extracted, an insert the next insert at
       the same index overwrites unseen.
    8. A chain of inserts at static indices, whose registers in between
       have no other use, stores in ascending index order, within one block
       and between the same barriers (`insert(insert(r, 1, a), 0, b)` is
       `insert(insert(r, 0, b), 1, a)`): with rule 6, a per-gate program and
       its threaded form (one extract per wire at the start, one insert at
       the end, in any order) print the same.
    9. Every block gets one topological order derived from the program's
       structure alone: ops without side effects first, each qubit's chain of
       gates kept together (the op whose producer was scheduled last goes
       next), ties broken by op name, ascending static wire index and a
       structural key. Side-effecting ops (device, alloc, measure, expval,
       gphase, unknown ops, ...) keep their relative order.

    Barriers: an op whose effects are unknown or include a write (an
    unregistered op such as `"catalyst.print"` in generic form or a
    callback, a `quantum.*` op the op table lacks, a registered op without
    `MemoryEffectOpInterface` such as `func.call`, an op whose effects write
    or free, such as `memref.store`, or an op whose region holds a barrier),
    and an op that rewrites wires it does not list (`quantum.set_state`,
    `quantum.set_basis_state`: every other wire becomes |0>; the op table
    marks them `WholeDevice`), stays where it is relative to every quantum
    op and every op with side effects: none of them moves across it, in
    either direction, so the fingerprint encodes where it stands. Pure ops
    (arith, tensor.extract, ...) and ops that only read (`memref.load`) are
    not barriers and still move; the other quantum ops of the op table are
    never barriers (their effects are known, and on their operands' wires
    only). Regions of unknown ops are left alone. The rule is one function
    that every pass moving ops shares: `qshape::isBarrier` and
    `qshape::isPinnedByBarriers` (include/qshape/GateView/Barriers.h).

    Linear register use: qubit and register values stay as Catalyst emits
    them (`qshape-check-linearity`): the schedule puts every read of a value
    (an extract of its register, an observable of its qubits) before the
    value's consumer, and no rule leaves a value consumed twice. Running the
    pass twice changes nothing.

    Before (`H; measure; print; H` on one wire):
    ```mlir
    %m, %q1 = quantum.measure %q : i1, !quantum.bit
    "catalyst.print"() {const_val = "mid"} : () -> ()
    %q2 = quantum.custom "Hadamard"() %q1 : !quantum.bit
    ```
    After: the same order (without the barrier, the gate would move above
    the print: ops without side effects go first).

    The rules run on a compact shadow of the module (the one fingerprints
    are computed on) and the result is written back: the IR is edited only
    where it changes, in time linear in its size. Locations are kept; to
    drop them too, add upstream's `strip-debuginfo`
    (`--qshape-canonicalize --strip-debuginfo`). Each rule counts its
    rewrites (the schedule: the blocks whose order changed), as pass
    statistics (`--mlir-pass-statistics`, in LLVM builds with statistics)
    and, with `emit-remarks`, in a remark on the module:

    ```
    $ qshape-opt --qshape-canonicalize=emit-remarks examples/w1-unrolled.mlir -o /dev/null
    examples/w1-unrolled.mlir:2:1: remark: qshape-canonicalize: 135 ops; static-indices 0,
    dead-ops 0, constants-merged 0, ops-merged 54, reads-past-inserts 54, round-trips 1,
    inserts-dropped 0, insert-chains-sorted 1, blocks-reordered 1
    ```

    Before:
    ```mlir
    %c1 = arith.constant 1 : i64
    %q1 = quantum.extract %r[%c1] : !quantum.reg -> !quantum.bit
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %a = quantum.custom "Hadamard"() %q1 : !quantum.bit
    %b = quantum.custom "Hadamard"() %q0 : !quantum.bit
    ```
    After:
    ```mlir
    %0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %out_qubits = quantum.custom "Hadamard"() %0 : !quantum.bit
    %1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits_0 = quantum.custom "Hadamard"() %1 : !quantum.bit
    ```
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark on the module with the rewrites of every rule">,
  ];
  // The statistics come from the rule table (lib/Fingerprint/CanonicalRules.def),
  // one per rule: lib/Transforms/Canonicalize.cpp adds them.
}

def QShapeFingerprint : Pass<"qshape-fingerprint", "mlir::ModuleOp"> {
  let summary = "Annotate the module and its functions with structural fingerprints.";
  let description = [{
    Computes two process-stable BLAKE3 digests (`blake3:<hex>`) of the
    module and of every function, on the canonical form computed aside (the
    IR is not canonicalized, and the result is the same whether or not
    `qshape-canonicalize` ran first), and stores them
    as string attributes `qshape.fingerprint` (exact) and
    `qshape.shape_fingerprint` (floating-point constant values abstracted:
    equal for circuits that differ only in baked angles). Nothing else in the
    IR changes; the annotations themselves are ignored by later fingerprints.

    The exact digest ignores SSA names, locations, attribute order,
    pretty-vs-generic printing, duplicated constants, constant-operand vs
    static indices and the order of independent ops; it changes with anything
    else (gate names, a parameter changed by one ulp, -0.0 vs 0.0, wiring,
    control values, adjoint, side-effect order, signatures, symbol names,
    attributes of unknown ops). Ops of unknown effect are barriers of the
    canonical form (`qshape-canonicalize`): where such an op stands among
    the quantum ops (a `"catalyst.print"` before or after a measurement)
    changes the digest.

    Every digest encodes the fingerprint schema version
    (`kFingerprintSchemaVersion`, include/qshape/Fingerprint/Fingerprint.h),
    bumped whenever a digest could otherwise mean two things, so that an
    older digest (a cache entry's key) is never found again: version 2 made
    ops of unknown effect barriers (before, programs that differed only in
    where such an op stood shared a digest); version 3 keeps register and
    qubit values linear in the canonical form, which changes the canonical
    form of programs with registers; version 4, the current one, sorts
    chains of inserts by index (rule 8 of `qshape-canonicalize`), so that
    programs that differ only in register style (per-gate or threaded
    extracts and inserts) share a digest, which changes the digest of
    programs whose last inserts were not in index order, and makes
    `set_state` and `set_basis_state` barriers (before, a gate on a wire
    they do not list moved across them: a wrong program that shared a
    digest with the right one).

    ```
    $ qshape-opt --qshape-fingerprint=emit-remarks circuit.mlir
    circuit.mlir:2:3: remark: qshape-fingerprint @circuit: blake3:5a1f... shape blake3:09c2...
    ```
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark with the digests of the module and each function">,
    Option<"annotate", "annotate", "bool", /*default=*/"true",
           "Store the digests as qshape.fingerprint / qshape.shape_fingerprint">,
  ];
  let statistics = [
    Statistic<"numFunctions", "functions", "Functions fingerprinted">,
  ];
}

def QShapeRollLoops : Pass<"qshape-roll-loops", "mlir::ModuleOp"> {
  let summary = "Re-roll repeated gate structure in straight-line code into scf.for loops.";
  let description = [{
    Finds maximal runs of at least `min-trip-count` consecutive copies of a
    period of ops (at most `max-period` ops) that are isomorphic except for
    integers that form an affine sequence in the copy number (static wire
    indices, index constants), other varying integers (an index table),
    varying float constants (a parameter table, with `param-tables`),
    varying values defined before the run (gathered with
    `tensor.from_elements`), and values flowing from one copy into the next
    (`iter_args`). Each run becomes an `scf.for`; the pass re-runs on its
    result so repeated loops become nested loops (with `nest`), also when
    the loops differ in the values their bodies capture (tables) or in the
    wire they read (affine), as W2's controlled Trotter blocks do.

    Quantum registers are first put in a register normal form inside a
    candidate run (a wire is extracted at the top of its copy and inserted
    back at its end), so that copies for different wires look alike; this
    is applied only where it enables a roll.

    With `wire-order`, where the canonical order leaves much unrolled or
    makes a loop whose body reads what its next iteration reads too (it cut
    each layer in two), the function is also rolled in the order it came
    in, where a body may read its qubits by wire from a register the loop
    carries (layers whose gates pair other wires in each copy, as
    StronglyEntanglingLayers' CNOTs do), and an extract from a register an
    insert made is part of its copy (the chained register form); that
    result is kept when it is at least a quarter smaller, or smaller at all
    where the canonical loop cut layers. Where the gates, in the order they
    came in and with their wires, repeat one period exactly at least 16
    times (layers that differ only in their angles), or at least 4 times in
    layers that pair wires with no gate on all of them (QAOA's, which the
    canonical order would interleave), or repeat layers alike in their
    gates that pair wires otherwise (StronglyEntanglingLayers), that order
    goes first. The second order is not tried where the first
    leaves at most 1/16 of the ops, too few gates outside its loops for
    another, or gates that with the ops only they use make less than a
    quarter of its ops.

    Only profitable runs are rolled: the op count after rolling (tables and
    index arithmetic included) must be smaller by at least `min-savings`.
    Side-effecting ops keep their order and nothing moves across ops the
    pass does not understand. Before a loop replaces its run, an always-on
    replay check proves, copy by copy and operand slot by operand slot,
    that each iteration does what its copy did (wires, parameters,
    attributes, regions, and the uses after the run); a loop that fails
    it is dropped, the run stays unrolled, and a remark says why. With
    `verify-roundtrip`, every rolled
    function is cloned, fully unrolled, canonicalized and compared by exact
    fingerprint with the input; a mismatch is an error naming the loop.

    Before (3 copies):
    ```mlir
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
    %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
    %q1 = quantum.extract %r0[ 1] : !quantum.reg -> !quantum.bit
    ...
    ```
    After:
    ```mlir
    %res = scf.for %i = %c0 to %c3 step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
      %w = arith.index_cast %i : index to i64
      %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
      %h = quantum.custom "Hadamard"() %q : !quantum.bit
      %r1 = quantum.insert %reg[%w], %h : !quantum.reg, !quantum.bit
      scf.yield %r1 : !quantum.reg
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"minTripCount", "min-trip-count", "unsigned", /*default=*/"3",
           "Fewest copies that make a loop">,
    Option<"maxPeriod", "max-period", "unsigned", /*default=*/"0",
           "Most ops in one loop body; 0 (the default) for no bound. The "
           "search takes O(n log n) whatever the bound">,
    Option<"minSavings", "min-savings", "int64_t", /*default=*/"1",
           "Roll only when the op count drops by at least this much">,
    Option<"nest", "nest", "bool", /*default=*/"true",
           "Re-run on the result so repeated loops become nested loops">,
    Option<"paramTables", "param-tables", "bool", /*default=*/"true",
           "Allow tables for values that vary without an affine pattern">,
    Option<"verifyRoundtrip", "verify-roundtrip", "bool", /*default=*/"false",
           "Unroll every new loop again and compare fingerprints with the input">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark per loop (period, trip count, ops saved), and one per "
           "function on the orders tried and the one kept">,
    Option<"wireOrder", "wire-order", "bool", /*default=*/"true",
           "Where the canonical order leaves much unrolled or cuts layers "
           "across iterations, also roll in the order the function came in, "
           "reading qubits by wire from a "
           "carried register, and keep that result when it is a quarter smaller "
           "(or smaller, where the canonical loop cut layers); where the gates "
           "repeat whole layers (16 or more, or 4 or more that pair wires "
           "with no gate on all of them), or layers that pair wires otherwise, "
           "roll in that order first">,
  ];
  let statistics = [
    Statistic<"numLoops", "loops-created", "Loops created">,
    Statistic<"numOpsBefore", "ops-before", "Ops before rolling">,
    Statistic<"numOpsAfter", "ops-after", "Ops after rolling">,
    Statistic<"numRejectedUnprofitable", "rejected-unprofitable",
              "Runs not rolled because they would not save min-savings ops">,
    Statistic<"numRejectedSideEffects", "rejected-side-effects",
              "Runs not rolled because of side effects or unknown ops">,
    Statistic<"numRejectedOperands", "rejected-operands",
              "Runs not rolled because operands vary without a usable pattern">,
    Statistic<"numRejectedReplay", "rejected-replay",
              "Loops built and then dropped: the replay check found that an "
              "iteration would not do what its copy did (a remark says where)">,
  ];
}

def QShapeCheckLinearity : Pass<"qshape-check-linearity", "mlir::ModuleOp"> {
  let summary = "Check that qubit and register values are used linearly.";
  let description = [{
    Catalyst's `quantum` dialect has value semantics: a gate, `insert`,
    `measure`, `dealloc` or any op that takes a `!quantum.bit` or
    `!quantum.reg` and is not a read *consumes* it, and the value must not
    be used again. Only `quantum.extract` (of its register) and the
    observables (`namedobs`, `compbasis`, `hermitian`, of their qubits or
    register) read a value without consuming it, and they must read it
    before it is consumed. Catalyst's frontend emits this form, and its
    value-semantics passes and reference-semantics conversion rely on it.

    The pass reports, as errors at the offending op with a note at the
    consumer:

    - a read after the consumer, or inside it (a loop body that extracts
      from the register the loop takes as its initial `iter_args` value,
      instead of from the carried block argument);
    - a value consumed twice (except in exclusive branches of `scf.if` and
      `scf.index_switch`);
    - a value defined outside a loop (`scf.for`, `scf.while`, ...) and
      consumed inside it, i.e. once per iteration;
    - a wire extracted twice from one register (a static index or a
      constant index operand), with no insert of that wire between (inserts
      of other wires do not count): two values that name one qubit.
      Catalyst's verifier accepts it.

    Ops are read by name, so it runs on qshape's ops, Catalyst's and
    unregistered ones alike; an unknown op that takes a qubit or register
    consumes it. The IR is not changed. Example of a stale read:

    ```mlir
    %res = scf.for %i = %c0 to %c3 step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
      %q = quantum.extract %r[%w] : !quantum.reg -> !quantum.bit   // error: %r, not %reg
      ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numValues", "values-checked", "Qubit and register values checked">,
    Statistic<"numViolations", "violations", "Linearity violations found">,
  ];
}

def QShapeLiftParameters : Pass<"qshape-lift-parameters", "mlir::ModuleOp"> {
  let summary = "Move baked f64 constants into one runtime parameter table.";
  let description = [{
    Programs of one topology often differ only in the numbers they bake in:
    rotation angles, Hamiltonian coefficients of a molecule geometry, sweep
    points. This pass replaces every f64 `arith.constant` of the module's
    functions (scalars and dense tensors; the constants that feed gate
    parameters and observable coefficients, and any other f64) by a read of
    one table, the public mutable `memref.global @__qshape_params :
    memref<Nxf64>`. Each function reads it through one tensor view
    (`memref.get_global`, `bufferization.to_tensor ... restrict`), so every
    read is a `tensor.extract` at a constant index, the shape of a runtime
    argument, which `qshape-canonicalize` and `qshape-roll-loops` handle.

    Slots are numbered in the order the constants are first used, walking
    each function in order. After `qshape-canonicalize` that order follows
    the program's structure alone, so programs with the same shape
    fingerprint get the same slots, and with `abstract-values` (the table
    initialised to NaN) the identical module: `qshape-compile
    --share-topology` runs `qshape-canonicalize,
    qshape-lift-parameters{abstract-values}` before it keys the module and
    writes the values into the library's `.qshape.params` section
    (docs/native.md, "One artifact per topology"). Without
    `abstract-values` the table holds the values and the module computes
    what it computed before.

    Not lifted: f32 and complex constants, constants of functions in nested
    modules, float attributes of ops. A module that already has the table
    and nothing left to lift is left alone; one with both is an error.

    Before:
    ```mlir
    func.func @circuit() -> f64 {
      %a = arith.constant 0.3 : f64
      %coeffs = arith.constant dense<[0.5, -0.25]> : tensor<2xf64>
      %q1 = quantum.custom "RX"(%a) %q0 : !quantum.bit
      %obs = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z0, %x0 : !quantum.obs
      ...
    ```
    After:
    ```mlir
    memref.global @__qshape_params : memref<3xf64> = dense<[3.000000e-01, 5.000000e-01, -2.500000e-01]> {alignment = 8 : i64}
    func.func @circuit() -> f64 {
      %0 = memref.get_global @__qshape_params : memref<3xf64>
      %1 = bufferization.to_tensor %0 restrict : memref<3xf64> to tensor<3xf64>
      %c0 = arith.constant 0 : index
      %a = tensor.extract %1[%c0] : tensor<3xf64>
      %c1 = arith.constant 1 : index
      %e1 = tensor.extract %1[%c1] : tensor<3xf64>
      %c2 = arith.constant 2 : index
      %e2 = tensor.extract %1[%c2] : tensor<3xf64>
      %coeffs = tensor.from_elements %e1, %e2 : tensor<2xf64>
      ...
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"abstractValues", "abstract-values", "bool", /*default=*/"false",
           "Initialise the table to NaN instead of the values, so that programs "
           "of one shape give one module (the driver supplies the values)">,
  ];
  let statistics = [
    Statistic<"numConstantsLifted", "constants-lifted",
              "Constant ops replaced by reads of the table">,
    Statistic<"numSlots", "slots", "Doubles in the parameter table">,
  ];
}

#endif // QSHAPE_TRANSFORMS_PASSES
