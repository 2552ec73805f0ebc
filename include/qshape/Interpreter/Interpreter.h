//===- Interpreter.h - run MLIR quantum programs on the simulator -*- C++ -*-===//
//
// The engine behind `qshape-sim`: executes a `func.func` of a Catalyst-shaped
// module op by op, with qshape's state-vector simulator as the device.
//
// It interprets the `quantum` dialect and what Catalyst circuits contain
// around it: func (calls), arith, math, index, scf (for/if/while/
// execute_region/index_switch), cf branches, tensor (extract/insert/
// from_elements/empty/splat/dim/cast/reshapes) and dense constants, complex.
//
// Quantum ops are read only through the name-based gate-view adapter
// (qshape/GateView/GateView.h), never through qshape's op classes, so the
// interpreter also runs IR whose quantum ops are Catalyst's classes or
// unregistered (generic form).
//
// Each op is decoded once (its kind, operand groups, attributes, constant
// values) into a cached descriptor keyed by its Operation*, so executing it
// again (loops, calls) costs a map lookup and the work itself.
//
// Anything the interpreter cannot execute faithfully is an error emitted at
// the op's location ("qshape-sim: cannot execute 'foo.bar'"), never a guess.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_INTERPRETER_INTERPRETER_H
#define QSHAPE_INTERPRETER_INTERPRETER_H

#include "qshape/Interpreter/RuntimeValue.h"
#include "qshape/Simulator/StateVector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace qshape::interp {

struct InterpreterOptions {
  /// Seed of the simulator's random number generator (mid-circuit
  /// measurements, samples, counts, shot-based estimates).
  uint64_t seed = sim::StateVector::kDefaultSeed;
  /// Shots, overriding those of `quantum.device`. 0 = analytic.
  std::optional<uint64_t> shots;
  /// Deepest func.call nesting before giving up (runaway recursion).
  unsigned maxCallDepth = 256;
};

struct InterpreterStats {
  uint64_t opsExecuted = 0;
  uint64_t gatesApplied = 0;
  /// Most wires the simulated device had at once.
  unsigned maxWires = 0;
};

class InterpreterImpl;

class Interpreter {
public:
  explicit Interpreter(InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  /// Runs `func` with `args` (one per argument) and returns its results.
  /// On failure a diagnostic has been emitted at the offending op.
  mlir::FailureOr<llvm::SmallVector<RtValue>> run(mlir::func::FuncOp func,
                                                  llvm::ArrayRef<RtValue> args);

  const InterpreterStats &getStats() const;

private:
  std::unique_ptr<InterpreterImpl> impl;
};

/// The function to run: the one called `name` when given (searched in the
/// module and its nested modules), else the only public function with a
/// body, else the only function with a `qnode` (or `quantum.node`) attribute.
llvm::Expected<mlir::func::FuncOp> findEntryFunction(mlir::ModuleOp module,
                                                     llvm::StringRef name = {});

} // namespace qshape::interp

#endif // QSHAPE_INTERPRETER_INTERPRETER_H
