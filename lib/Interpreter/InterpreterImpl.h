//===- InterpreterImpl.h - qshape-sim engine internals ----------*- C++ -*-===//
//
// Private to lib/Interpreter: the decoded-op cache, the value environment,
// the quantum device state and the gate modifier stack (adjoint/ctrl
// regions). Interpreter.cpp runs control flow, ClassicalOps.cpp evaluates
// arith/math/index/complex/tensor ops, QuantumSemantics.cpp the quantum ops.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_INTERPRETER_INTERPRETERIMPL_H
#define QSHAPE_LIB_INTERPRETER_INTERPRETERIMPL_H

#include "qshape/Interpreter/Interpreter.h"
#include "qshape/Simulator/Device.h"
#include "qshape/Simulator/StateVector.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <string>

namespace qshape::interp {

enum class OpCode : uint16_t {
  Unknown,
#define OPCODE(E, N) E,
#include "OpCodes.def"
  NumOpCodes
};

/// True for ops evaluated element by element by the scalar evaluator.
bool isElementwise(OpCode code);

/// How values of an MLIR scalar (or tensor element) type are stored.
struct ElemInfo {
  ScalarKind kind = ScalarKind::Float;
  bool isF32 = false;
  unsigned width = 64; ///< integers: bit width (index = 64)
  bool isBool() const { return kind == ScalarKind::Int && width == 1; }
};

/// f64, f32, signless/signed/unsigned integers up to 64 bits, index and
/// complex<f64>; std::nullopt for anything else.
std::optional<ElemInfo> getElemInfo(mlir::Type type);

/// How a gate is applied to the simulator.
enum class GateForm : uint8_t { Named, PauliRot, Matrix, GlobalPhase };

/// Per-op data decoded once, on first execution.
struct OpDesc {
  OpCode code = OpCode::Unknown;
  /// A `quantum` op (qshape::classify), executed by QuantumSemantics.cpp.
  bool isQuantum = false;
  /// Non-empty when the op can be recognized but not executed (the reason).
  std::string unsupported;

  // Scalar typing: element type of result 0 and of operand 0.
  bool resIsF32 = false;
  unsigned resWidth = 64; ///< integer width of result 0 (index = 64)
  unsigned opWidth = 64;  ///< integer width of operand 0
  int64_t predicate = 0;  ///< cmpi/cmpf/index.cmp predicate

  /// Constants, decoded once.
  RtValue constant;

  // Gates: operand/result groups as (begin, count), read via GateView.
  GateForm form = GateForm::Named;
  sim::GateKind gateKind = sim::GateKind::Identity;
  bool adjoint = false;
  unsigned paramsBegin = 0, paramsCount = 0;
  unsigned qubitsBegin = 0, qubitsCount = 0;
  unsigned ctrlsBegin = 0, ctrlsCount = 0;
  unsigned ctrlValsBegin = 0, ctrlValsCount = 0;
  unsigned outQubitsBegin = 0, outCtrlsBegin = 0;
  int matrixOperand = -1;
  std::string pauliWord;         ///< PauliRot letters, e.g. "ZX"
  std::optional<int64_t> dim;    ///< PCPhase
  std::optional<int> postselect; ///< measure

  // Register access and alloc.
  std::optional<int64_t> staticIdx;
  std::optional<int64_t> allocSize;
  int dynamicIdxOperand = -1;
  int qubitOperand = -1;

  // Named observable.
  sim::NamedObservable namedObs = sim::NamedObservable::Identity;

  // Calls.
  mlir::Operation *callee = nullptr;
};

/// One gate application, as the modifier stack sees it.
struct GateCall {
  mlir::Operation *op = nullptr; ///< for diagnostics
  GateForm form = GateForm::Named;
  sim::GateKind kind = sim::GateKind::Identity;
  bool adjoint = false;
  llvm::SmallVector<double, 3> params;
  llvm::SmallVector<int, 4> wires;
  llvm::SmallVector<int, 2> ctrlWires;
  llvm::SmallVector<bool, 2> ctrlValues;
  const std::string *word = nullptr;
  std::shared_ptr<const Tensor> matrix;
};

/// An enclosing quantum.ctrl (adds controls) or quantum.adjoint (records the
/// gates, to apply them inverted in reverse order when the region ends).
struct Modifier {
  bool isAdjoint = false;
  mlir::Operation *op = nullptr;
  llvm::SmallVector<int, 2> ctrlWires;
  llvm::SmallVector<bool, 2> ctrlValues;
  std::vector<GateCall> recorded;
};

using Env = llvm::DenseMap<mlir::Value, RtValue>;

class InterpreterImpl {
public:
  explicit InterpreterImpl(InterpreterOptions options)
      : options(options), device(sim::DeviceOptions{options.seed, options.shots}) {}

  mlir::FailureOr<llvm::SmallVector<RtValue>>
  callFunction(mlir::Operation *caller, mlir::func::FuncOp func, llvm::ArrayRef<RtValue> args);

  InterpreterOptions options;
  InterpreterStats stats;

  //===--- values ---------------------------------------------------------===//
  Env *env = nullptr;
  unsigned callDepth = 0;

  const RtValue &get(mlir::Value v) const {
    auto it = env->find(v);
    return it == env->end() ? emptyValue : it->second;
  }
  void set(mlir::Value v, RtValue r) { (*env)[v] = std::move(r); }

  /// Typed reads; each emits an error at `op` and fails on a kind mismatch.
  mlir::FailureOr<double> getF(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<int64_t> getI(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<int> getWire(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<const Tensor *> getT(mlir::Operation *op, mlir::Value v);

  //===--- dispatch -------------------------------------------------------===//
  const OpDesc &getDesc(mlir::Operation *op);
  OpDesc decode(mlir::Operation *op);
  /// Fill `d` for the op; set `d.unsupported` when it cannot be executed.
  void decodeClassical(mlir::Operation *op, OpDesc &d);
  void decodeQuantum(mlir::Operation *op, OpDesc &d);

  mlir::LogicalResult execOp(mlir::Operation *op);
  /// Runs the ops of `block` up to its terminator, which it returns.
  mlir::FailureOr<mlir::Operation *> execBlockBody(mlir::Block &block);
  /// Runs a region from its entry block (with `args` bound), following
  /// cf branches, to its exit terminator (not a cf branch), which it returns.
  mlir::FailureOr<mlir::Operation *> execRegion(mlir::Region &region, llvm::ArrayRef<RtValue> args);
  /// Runs a single-block region and returns its terminator's operand values.
  mlir::LogicalResult runYieldingRegion(mlir::Region &region, llvm::ArrayRef<RtValue> args,
                                        llvm::SmallVectorImpl<RtValue> &results);

  mlir::LogicalResult execControlFlow(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execClassical(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execElementwise(mlir::Operation *op, const OpDesc &d);
  mlir::FailureOr<RtValue> evalScalar(mlir::Operation *op, const OpDesc &d,
                                      llvm::ArrayRef<RtValue> in);
  mlir::LogicalResult execQuantum(mlir::Operation *op, const OpDesc &d);

  mlir::LogicalResult emitUnsupported(mlir::Operation *op, llvm::StringRef why = {});

  //===--- quantum device -------------------------------------------------===//
  /// Wires, state, seeds, shots and measurements: shared with the native
  /// runtime, so both compute the same results.
  sim::Device device;
  std::vector<Modifier> modifiers;

  /// The simulator, created (or grown to the allocated wires) on demand.
  mlir::FailureOr<sim::StateVector *> getSim(mlir::Operation *op);
  mlir::LogicalResult emitGate(GateCall call, size_t level);
  mlir::LogicalResult applyGate(const GateCall &call);
  mlir::LogicalResult requireNoModifiers(mlir::Operation *op);
  mlir::LogicalResult execGate(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execRegionModifier(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execMeasurement(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execObservable(mlir::Operation *op, const OpDesc &d);
  /// The wires of a quantum.compbasis (empty = all); an error for other observables.
  mlir::FailureOr<llvm::ArrayRef<int>> getMeasuredWires(mlir::Operation *op, const ObsValue &obs);

private:
  //===--- steps of execControlFlow, execClassical, execQuantum ----------===//
  mlir::LogicalResult execCall(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execFor(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execWhile(mlir::Operation *op);
  mlir::LogicalResult execIndexSwitch(mlir::Operation *op);
  mlir::LogicalResult execTensorElementAccess(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execTensorEmptyOrSplat(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execTensorCastOrReshape(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execRegisterAccess(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execAlloc(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execMidCircuitMeasure(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult execSetState(mlir::Operation *op, const OpDesc &d);
  mlir::LogicalResult measureSamples(mlir::Operation *op, const ObsValue &obs);
  mlir::LogicalResult measureCounts(mlir::Operation *op, const ObsValue &obs);

  llvm::DenseMap<mlir::Operation *, OpDesc *> descs;
  std::deque<OpDesc> descStorage;
  static const RtValue emptyValue;
};

/// Error text at `op`, prefixed with "qshape-sim: ".
mlir::InFlightDiagnostic simError(mlir::Operation *op);
/// "expected <what> operand" at `op` (a value of a kind the op cannot use).
mlir::LogicalResult kindError(mlir::Operation *op, llvm::StringRef expected,
                              RtValue::Kind got = RtValue::Kind::Empty);

} // namespace qshape::interp

#endif // QSHAPE_LIB_INTERPRETER_INTERPRETERIMPL_H
