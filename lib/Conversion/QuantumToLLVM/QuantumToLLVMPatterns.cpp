//===- QuantumToLLVMPatterns.cpp - quantum ops to runtime calls -----------===//
//
// One conversion pattern per row of the op table that has a runtime
// lowering, rooted at the op's name: the patterns see qshape's ops,
// Catalyst's and unregistered ones alike, and read operands by role
// (getOperandGroup) and attributes by name. Calls and declarations follow
// Catalyst's RuntimeCAPI.h exactly (see docs/native.md); what is checked
// before converting is in checkLowerable, so patterns never fail halfway.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/QuantumToLLVM/QuantumToLLVM.h"
#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace qshape {

std::optional<RuntimeGate> lookupRuntimeGate(StringRef gateName) {
  static const RuntimeGate gates[] = {
#define RUNTIME_GATE(Name, NumParams, NumWires) {#Name, NumParams, NumWires},
#include "qshape/Conversion/QuantumToLLVM/RuntimeGates.def"
  };
  for (const RuntimeGate &g : gates)
    if (g.name == gateName)
      return g;
  return std::nullopt;
}

/// The quantum types of the context, when they can occur in its IR. A
/// registered but unloaded `quantum` dialect means no quantum type exists,
/// and parsing one would load the dialect in the middle of a pass.
static std::optional<std::array<Type, 4>> getQuantumTypes(MLIRContext *ctx) {
  if (!ctx->getLoadedDialect("quantum") &&
      llvm::is_contained(ctx->getAvailableDialects(), "quantum"))
    return std::nullopt;
  return std::array<Type, 4>{getQuantumType(ctx, "bit"), getQuantumType(ctx, "reg"),
                             getQuantumType(ctx, "res"), getQuantumType(ctx, "obs")};
}

QuantumTypeConverter::QuantumTypeConverter(MLIRContext *ctx) : LLVMTypeConverter(ctx) {
  std::optional<std::array<Type, 4>> types = getQuantumTypes(ctx);
  if (!types)
    return;
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  addConversion([types = *types, ptr, i64](Type t) -> std::optional<Type> {
    if (t == types[0] || t == types[1] || t == types[2])
      return ptr; // qubit, register and result handles
    if (t == types[3])
      return i64; // observable id (ObsIdType)
    return std::nullopt;
  });
}

//===----------------------------------------------------------------------===//
// What can be lowered
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kScratchAttr = "qshape.runtime_scratch";
static constexpr StringLiteral kCompBasisAttr = "qshape.compbasis";

/// The op that defines `obs`, when it is a `quantum.compbasis`.
static Operation *getCompBasis(Value obs) {
  Operation *def = obs.getDefiningOp();
  if (def && lookupQuantumOp(def) && lookupQuantumOp(def)->id == QOp::CompBasis)
    return def;
  return nullptr;
}

static bool isMemRef(Value v) { return v && isa<MemRefType>(v.getType()); }

/// The sizes of `op`'s groups add up to its operands (malformed segment
/// sizes would make the patterns read the wrong operands).
static LogicalResult checkGroups(Operation *op, const QuantumOpInfo &info) {
  unsigned operands = 0;
  for (const OpGroup &g : info.operands)
    operands += getOperandGroup(op, g.role).size();
  unsigned results = 0;
  for (const OpGroup &g : info.results)
    results += getResultGroup(op, g.role).size();
  if (operands != op->getNumOperands() || results != op->getNumResults())
    return op->emitOpError() << "has operand or result groups that do not match its "
                                "operands (malformed segment sizes); it cannot be lowered";
  return success();
}

/// A quantum.custom gate: one Catalyst's runtime has, with its parameter
/// and wire counts (SX is lowered to RX and a global phase).
static LogicalResult checkCustomGate(Operation *op) {
  auto gate = dyn_cast_or_null<StringAttr>(op->getAttr("gate_name"));
  if (!gate)
    return op->emitOpError() << "has no gate_name";
  unsigned params = getOperandGroup(op, OpRole::Params).size();
  unsigned wires = getOperandGroup(op, OpRole::Qubits).size();
  if (gate.getValue() == "SX") {
    if (params != 0 || wires != 1)
      return op->emitOpError() << "'SX' takes no parameters and one qubit";
    return success();
  }
  std::optional<RuntimeGate> g = lookupRuntimeGate(gate.getValue());
  if (!g)
    return op->emitOpError() << "applies gate '" << gate.getValue()
                             << "', which has no function in Catalyst's runtime (no "
                                "__catalyst__qis__"
                             << gate.getValue() << "); decompose it first";
  if (static_cast<int>(params) != g->numParams ||
      (g->numWires >= 0 && static_cast<int>(wires) != g->numWires))
    return op->emitOpError() << "applies '" << g->name << "' to " << params << " parameters and "
                             << wires << " qubits; the runtime's takes " << g->numParams << " and "
                             << (g->numWires < 0 ? std::string("any number of")
                                                 : std::to_string(g->numWires));
  return success();
}

LogicalResult checkLowerable(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (!name.starts_with("quantum."))
    return success();
  const QuantumOpInfo *info = lookupQuantumOp(op);
  if (!info)
    return op->emitOpError() << "is not a quantum op qshape knows; it has no lowering to "
                                "Catalyst's runtime";
  auto needsBuffer = [&](OpRole role, StringRef what) -> LogicalResult {
    OperandRange v = getOperandGroup(op, role);
    if (v.size() == 1 && isMemRef(v.front()))
      return success();
    return op->emitOpError() << "takes its " << what
                             << " as a tensor; give it a buffer first (qshape-bufferize-quantum, "
                                "then one-shot-bufferize, as qshape-lower-to-llvm does)";
  };
  auto needsCompBasis = [&]() -> LogicalResult {
    if (getCompBasis(op->getOperand(0)))
      return success();
    return op->emitOpError() << "of an observable other than quantum.compbasis has no function "
                                "in Catalyst's runtime";
  };
  if (failed(checkGroups(op, *info)))
    return failure();
  switch (info->id) {
  case QOp::Adjoint:
  case QOp::Ctrl:
  case QOp::Yield:
    return op->emitOpError() << "must be lowered before the conversion to LLVM "
                                "(qshape-lower-adjoint and qshape-lower-ctrl, as "
                                "qshape-lower-to-llvm does)";
  case QOp::McmObs:
    return op->emitOpError() << "(an observable of mid-circuit measurements) has no function in "
                                "Catalyst's runtime";
  case QOp::Custom:
    if (failed(checkCustomGate(op)))
      return failure();
    break;
  case QOp::PauliRot: {
    auto word = dyn_cast_or_null<ArrayAttr>(op->getAttr("pauli_product"));
    if (!word || word.size() != getOperandGroup(op, OpRole::Qubits).size() ||
        !llvm::all_of(word, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError() << "needs a pauli_product with one letter per qubit";
    break;
  }
  case QOp::PCPhase:
    if (!isa_and_nonnull<IntegerAttr>(op->getAttr("dim")))
      return op->emitOpError() << "needs an integer 'dim'";
    break;
  case QOp::Unitary:
    if (failed(needsBuffer(OpRole::Matrix, "matrix")))
      return failure();
    break;
  case QOp::Hermitian:
    return needsBuffer(OpRole::Matrix, "matrix");
  case QOp::Hamiltonian:
    return needsBuffer(OpRole::Coeffs, "coefficients");
  case QOp::SetState:
  case QOp::SetBasisState:
    return needsBuffer(OpRole::State, "state");
  case QOp::NamedObs:
    if (!getNamedObservable(op))
      return op->emitOpError() << "has no readable observable 'type'";
    break;
  case QOp::Expval:
  case QOp::Var:
    if (getCompBasis(op->getOperand(0)))
      return op->emitOpError() << "of a computational-basis observable is undefined";
    break;
  case QOp::Probs:
  case QOp::State:
  case QOp::Sample:
  case QOp::Counts: {
    bool bufferized = op->getNumResults() == 0;
    if (info->id == QOp::Counts)
      bufferized &= isMemRef(getOperandGroup(op, OpRole::EigvalsIn).empty()
                                 ? Value()
                                 : getOperandGroup(op, OpRole::EigvalsIn).front()) &&
                    getOperandGroup(op, OpRole::CountsIn).size() == 1;
    else
      bufferized &= getOperandGroup(op, OpRole::StateIn).size() == 1;
    if (!bufferized)
      return op->emitOpError() << "returns a tensor; give it a buffer first "
                                  "(qshape-bufferize-quantum, then one-shot-bufferize, as "
                                  "qshape-lower-to-llvm does)";
    if (failed(needsCompBasis()))
      return failure();
    if (info->id == QOp::Sample &&
        cast<MemRefType>(getOperandGroup(op, OpRole::StateIn).front().getType()).getRank() != 2)
      return op->emitOpError() << "needs a shots x qubits (rank-2) buffer";
    break;
  }
  default:
    break;
  }
  if (info->kind == QOpKind::Gate || info->kind == QOpKind::GlobalPhase) {
    if (getOperandGroup(op, OpRole::CtrlQubits).size() !=
        getOperandGroup(op, OpRole::CtrlValues).size())
      return op->emitOpError() << "has " << getOperandGroup(op, OpRole::CtrlQubits).size()
                               << " control qubits but "
                               << getOperandGroup(op, OpRole::CtrlValues).size()
                               << " control values";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Building blocks: declarations, stack slots, strings, modifiers
//===----------------------------------------------------------------------===//

namespace {

/// Types and builders shared by every pattern.
class RuntimeCallBuilder {
public:
  RuntimeCallBuilder(ConversionPatternRewriter &rewriter, Operation *op)
      : rewriter(rewriter), op(op), loc(op->getLoc()), ctx(op->getContext()) {
    ptr = LLVM::LLVMPointerType::get(ctx);
    i1 = IntegerType::get(ctx, 1);
    i32 = IntegerType::get(ctx, 32);
    i64 = IntegerType::get(ctx, 64);
    f64 = Float64Type::get(ctx);
    voidTy = LLVM::LLVMVoidType::get(ctx);
  }

  /// Calls runtime function `name`, declaring it (at the start of the
  /// module) on first use.
  FailureOr<LLVM::CallOp> call(StringRef name, Type result, ArrayRef<Type> fixedParams,
                               ValueRange args, bool isVarArg = false) {
    auto type = LLVM::LLVMFunctionType::get(result, fixedParams, isVarArg);
    auto module = op->getParentOfType<ModuleOp>();
    Operation *existing = SymbolTable::lookupSymbolIn(module, name);
    auto fn = dyn_cast_or_null<LLVM::LLVMFuncOp>(existing);
    if (existing && (!fn || fn.getFunctionType() != type))
      return op->emitOpError() << "lowers to runtime function @" << name << " of type " << type
                               << ", but the module defines that symbol differently";
    if (!fn) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      fn = LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), name, type);
    }
    return LLVM::CallOp::create(rewriter, loc, fn, args);
  }

  Value constI64(int64_t v) { return LLVM::ConstantOp::create(rewriter, loc, i64, v); }
  Value constI32(int32_t v) { return LLVM::ConstantOp::create(rewriter, loc, i32, v); }
  Value constI1(bool v) { return LLVM::ConstantOp::create(rewriter, loc, i1, v ? 1 : 0); }
  Value constF64(double v) {
    return LLVM::ConstantOp::create(rewriter, loc, f64, rewriter.getF64FloatAttr(v));
  }
  Value null() { return LLVM::ZeroOp::create(rewriter, loc, ptr); }

  /// A stack slot for `count` values of `type` in the function's entry
  /// block (never in a loop body). Slots are tagged so that the pass can
  /// merge them per function and type once everything is converted: each
  /// call fills its slots right before it, so calls never share one live.
  /// That needs every call to use at most one slot of each (type, count),
  /// which the patterns below keep (the Modifiers struct, the control
  /// arrays and a descriptor all differ in type).
  Value scratch(Type type, int64_t count = 1) {
    Operation *fn = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&fn->getRegion(0).front());
    Value n = LLVM::ConstantOp::create(rewriter, loc, i64, count);
    auto slot = LLVM::AllocaOp::create(rewriter, loc, ptr, type, n);
    slot->setAttr(kScratchAttr, rewriter.getUnitAttr());
    return slot.getResult();
  }

  /// A pointer to a stack copy of `value` (memref descriptors are passed to
  /// the runtime by pointer).
  Value spill(Value value) {
    Value slot = scratch(value.getType());
    LLVM::StoreOp::create(rewriter, loc, value, slot);
    return slot;
  }

  Value element(Value base, Type elemType, ArrayRef<LLVM::GEPArg> indices) {
    return LLVM::GEPOp::create(rewriter, loc, ptr, elemType, base, indices,
                               LLVM::GEPNoWrapFlags::inbounds);
  }

  /// A pointer to a NUL-terminated internal constant holding `text`; equal
  /// strings share one global.
  Value string(StringRef text) {
    auto module = op->getParentOfType<ModuleOp>();
    std::string data = text.str();
    data.push_back('\0');
    auto value = rewriter.getStringAttr(data);
    unsigned used = 0;
    for (auto g : module.getOps<LLVM::GlobalOp>()) {
      if (!g.getSymName().starts_with("__qshape_str."))
        continue;
      ++used;
      if (g.getValueAttr() == value)
        return LLVM::AddressOfOp::create(rewriter, loc, g).getResult();
    }
    std::string name;
    do
      name = "__qshape_str." + std::to_string(used++);
    while (SymbolTable::lookupSymbolIn(module, name));
    LLVM::GlobalOp g;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      g = LLVM::GlobalOp::create(rewriter, loc,
                                 LLVM::LLVMArrayType::get(rewriter.getI8Type(), data.size()),
                                 /*isConstant=*/true, LLVM::Linkage::Internal, name, value);
    }
    return LLVM::AddressOfOp::create(rewriter, loc, g).getResult();
  }

  /// `const Modifiers*`: null without adjoint and controls, else a stack
  /// struct {i1 adjoint, i64 num_controlled, ptr wires, ptr values}.
  Value modifiers(bool adjoint, ValueRange ctrls, ValueRange values) {
    if (!adjoint && ctrls.empty())
      return null();
    auto structTy = LLVM::LLVMStructType::getLiteral(ctx, {i1, i64, ptr, ptr});
    Value mods = scratch(structTy);
    Value wires, vals;
    if (ctrls.empty()) {
      wires = vals = null();
    } else {
      int64_t n = ctrls.size();
      wires = scratch(ptr, n);
      vals = scratch(i1, n);
      for (int32_t k = 0; k < n; ++k) {
        LLVM::StoreOp::create(rewriter, loc, ctrls[k], element(wires, ptr, {k}));
        LLVM::StoreOp::create(rewriter, loc, values[k], element(vals, i1, {k}));
      }
    }
    LLVM::StoreOp::create(rewriter, loc, constI1(adjoint), element(mods, structTy, {0, 0}));
    LLVM::StoreOp::create(rewriter, loc, constI64(ctrls.size()), element(mods, structTy, {0, 1}));
    LLVM::StoreOp::create(rewriter, loc, wires, element(mods, structTy, {0, 2}));
    LLVM::StoreOp::create(rewriter, loc, vals, element(mods, structTy, {0, 3}));
    return mods;
  }

  ConversionPatternRewriter &rewriter;
  Operation *op;
  Location loc;
  MLIRContext *ctx;
  Type ptr, i1, i32, i64, f64, voidTy;
};

/// The converted operands of `op`'s group `role`.
ValueRange group(Operation *op, ArrayRef<Value> operands, OpRole role) {
  OperandRange r = getOperandGroup(op, role);
  if (r.empty())
    return {};
  return ValueRange(operands).slice(r.getBeginOperandIndex(), r.size());
}

Value single(Operation *op, ArrayRef<Value> operands, OpRole role) {
  ValueRange r = group(op, operands, role);
  return r.empty() ? Value() : r.front();
}

SmallVector<Value> concat(ValueRange a, ValueRange b = {}, ValueRange c = {}) {
  SmallVector<Value> out(a.begin(), a.end());
  out.append(b.begin(), b.end());
  out.append(c.begin(), c.end());
  return out;
}

/// `n` as an i64 constant, then `values`: the count-and-varargs tail of the
/// runtime's variadic functions.
SmallVector<Value> counted(RuntimeCallBuilder &b, ValueRange values) {
  return concat(ValueRange{b.constI64(values.size())}, values);
}

class QuantumOpLowering : public ConversionPattern {
public:
  QuantumOpLowering(const TypeConverter &converter, MLIRContext *ctx, const QuantumOpInfo &info)
      : ConversionPattern(converter, info.name, /*benefit=*/1, ctx), info(info) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override;

private:
  LogicalResult lowerGate(Operation *op, ArrayRef<Value> operands, RuntimeCallBuilder &b) const;
  LogicalResult lowerMeasurement(Operation *op, ArrayRef<Value> operands,
                                 RuntimeCallBuilder &b) const;

  const QuantumOpInfo &info;
};

/// The qubits a computational-basis measurement passes: those of the
/// `quantum.compbasis` its observable comes from (none for a register: the
/// runtime then measures every qubit).
FailureOr<SmallVector<Value>> measuredQubits(Operation *op, Value convertedObs,
                                             ConversionPatternRewriter &rewriter) {
  if (auto cast = convertedObs.getDefiningOp<UnrealizedConversionCastOp>();
      cast && cast->hasAttr(kCompBasisAttr))
    return SmallVector<Value>(cast.getInputs());
  // The compbasis has not been converted yet: read it and remap its qubits.
  Operation *cb = getCompBasis(op->getOperand(0));
  if (!cb)
    return op->emitOpError() << "measures an observable that is not a quantum.compbasis";
  SmallVector<Value> qubits;
  if (failed(rewriter.getRemappedValues(getOperandGroup(cb, OpRole::Qubits), qubits)))
    return op->emitOpError() << "cannot read the qubits of its quantum.compbasis";
  return qubits;
}

LogicalResult QuantumOpLowering::lowerGate(Operation *op, ArrayRef<Value> operands,
                                           RuntimeCallBuilder &b) const {
  ValueRange params = group(op, operands, OpRole::Params);
  ValueRange qubits = group(op, operands, OpRole::Qubits);
  ValueRange ctrls = group(op, operands, OpRole::CtrlQubits);
  ValueRange values = group(op, operands, OpRole::CtrlValues);
  bool adjoint = static_cast<bool>(op->getAttr("adjoint"));
  Value mods = b.modifiers(adjoint, ctrls, values);
  Type ptr = b.ptr, f64 = b.f64, i64 = b.i64;
  FailureOr<LLVM::CallOp> call = failure();
  switch (info.id) {
  case QOp::Custom: {
    StringRef gate = cast<StringAttr>(op->getAttr("gate_name")).getValue();
    if (gate == "SX") {
      // SX = exp(i pi/4) RX(pi/2), and GlobalPhase(phi) multiplies by
      // exp(-i phi): the same controls and adjoint flag on both keep the
      // identity exact (controlled phases and gates included).
      call = b.call("__catalyst__qis__RX", b.voidTy, {f64, ptr, ptr},
                    ValueRange{b.constF64(M_PI / 2), qubits[0], mods});
      if (failed(call))
        return failure();
      call = b.call("__catalyst__qis__GlobalPhase", b.voidTy, {f64, ptr},
                    ValueRange{b.constF64(-M_PI / 4), mods});
      break;
    }
    std::optional<RuntimeGate> g = lookupRuntimeGate(gate);
    if (!g)
      return failure(); // checkLowerable reports it
    std::string name = getRuntimeFunction(op);
    if (g->numWires < 0) {
      SmallVector<Type> types(params.size(), f64);
      types.append({ptr, i64});
      call = b.call(name, b.voidTy, types, concat(params, ValueRange{mods}, counted(b, qubits)),
                    /*isVarArg=*/true);
      break;
    }
    SmallVector<Type> types(params.size(), f64);
    types.append(qubits.size(), ptr);
    types.push_back(ptr);
    call = b.call(name, b.voidTy, types, concat(params, qubits, ValueRange{mods}));
    break;
  }
  case QOp::PauliRot: {
    std::string word;
    for (Attribute letter : cast<ArrayAttr>(op->getAttr("pauli_product")))
      word += cast<StringAttr>(letter).getValue();
    // The trailing i1 is PauliRot's `cond` (apply the rotation): always true.
    SmallVector<Value> args = {b.string(word), params[0], mods, b.constI1(true)};
    call = b.call(getRuntimeFunction(op), b.voidTy, {ptr, f64, ptr, b.i1, i64},
                  concat(args, counted(b, qubits)), /*isVarArg=*/true);
    break;
  }
  case QOp::MultiRZ:
    call = b.call(getRuntimeFunction(op), b.voidTy, {f64, ptr, i64},
                  concat(ValueRange{params[0], mods}, counted(b, qubits)), /*isVarArg=*/true);
    break;
  case QOp::PCPhase: {
    int64_t dim = cast<IntegerAttr>(op->getAttr("dim")).getInt();
    call = b.call(getRuntimeFunction(op), b.voidTy, {f64, i64, ptr, i64},
                  concat(ValueRange{params[0], b.constI64(dim), mods}, counted(b, qubits)),
                  /*isVarArg=*/true);
    break;
  }
  case QOp::Unitary: {
    Value matrix = b.spill(single(op, operands, OpRole::Matrix));
    call = b.call(getRuntimeFunction(op), b.voidTy, {ptr, ptr, i64},
                  concat(ValueRange{matrix, mods}, counted(b, qubits)), /*isVarArg=*/true);
    break;
  }
  case QOp::GPhase:
    call = b.call(getRuntimeFunction(op), b.voidTy, {f64, ptr}, ValueRange{params[0], mods});
    break;
  default:
    return failure();
  }
  if (failed(call))
    return failure();
  // Qubit handles are references: the outputs are the inputs (for gphase,
  // its control qubits; Catalyst's pattern erases a controlled gphase and
  // leaves the users of its out_ctrl_qubits without a value).
  b.rewriter.replaceOp(op, concat(qubits, ctrls));
  return success();
}

LogicalResult QuantumOpLowering::lowerMeasurement(Operation *op, ArrayRef<Value> operands,
                                                  RuntimeCallBuilder &b) const {
  Type ptr = b.ptr, i64 = b.i64;
  FailureOr<SmallVector<Value>> qubits = measuredQubits(op, operands[0], b.rewriter);
  if (failed(qubits))
    return failure();
  Value out;
  if (info.id == QOp::Counts) {
    // PairT_MemRefT_double_int64_1d: {eigenvalues, counts}.
    Value eig = single(op, operands, OpRole::EigvalsIn);
    Value counts = single(op, operands, OpRole::CountsIn);
    auto pairTy = LLVM::LLVMStructType::getLiteral(b.ctx, {eig.getType(), counts.getType()});
    Value pair = LLVM::UndefOp::create(b.rewriter, b.loc, pairTy);
    pair = LLVM::InsertValueOp::create(b.rewriter, b.loc, pair, eig, ArrayRef<int64_t>{0});
    pair = LLVM::InsertValueOp::create(b.rewriter, b.loc, pair, counts, ArrayRef<int64_t>{1});
    out = b.spill(pair);
  } else {
    out = b.spill(single(op, operands, OpRole::StateIn));
  }
  // The runtime's State measures the whole device (Catalyst passes no
  // qubits either).
  SmallVector<Value> tail =
      info.id == QOp::State ? SmallVector<Value>{b.constI64(0)} : counted(b, *qubits);
  if (failed(b.call(getRuntimeFunction(op), b.voidTy, {ptr, i64}, concat(ValueRange{out}, tail),
                    /*isVarArg=*/true)))
    return failure();
  b.rewriter.eraseOp(op);
  return success();
}

LogicalResult QuantumOpLowering::matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                                 ConversionPatternRewriter &rewriter) const {
  RuntimeCallBuilder b(rewriter, op);
  Type ptr = b.ptr, i64 = b.i64, f64 = b.f64, voidTy = b.voidTy;
  std::string fn = getRuntimeFunction(op);
  auto replaceWithCall = [&](Type result, ArrayRef<Type> params, ValueRange args,
                             bool isVarArg = false) -> LogicalResult {
    FailureOr<LLVM::CallOp> call = b.call(fn, result, params, args, isVarArg);
    if (failed(call))
      return failure();
    if (result == voidTy)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, call->getResult());
    return success();
  };

  switch (info.id) {
  case QOp::Init: {
    // uint32_t* seed, or null for an unseeded run.
    Value seed = b.null();
    if (auto attr = dyn_cast_or_null<IntegerAttr>(op->getAttr("seed"))) {
      uint32_t value = static_cast<uint32_t>(attr.getValue().getZExtValue());
      auto module = op->getParentOfType<ModuleOp>();
      std::string name = "__qshape_seed." + std::to_string(value);
      auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
      if (!global) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(module.getBody());
        global = LLVM::GlobalOp::create(rewriter, b.loc, b.i32, /*isConstant=*/true,
                                        LLVM::Linkage::Internal, name,
                                        rewriter.getI32IntegerAttr(static_cast<int32_t>(value)));
      }
      seed = LLVM::AddressOfOp::create(rewriter, b.loc, global);
    }
    return replaceWithCall(voidTy, {ptr}, seed);
  }
  case QOp::Finalize:
  case QOp::DeviceRelease:
    return replaceWithCall(voidTy, {}, {});
  case QOp::NumQubits:
    return replaceWithCall(i64, {}, {});
  case QOp::Device: {
    auto str = [&](StringRef attr) {
      auto s = dyn_cast_or_null<StringAttr>(op->getAttr(attr));
      return b.string(s ? s.getValue() : "");
    };
    Value shots = single(op, operands, OpRole::Shots);
    SmallVector<Value> args = {str("lib"), str("device_name"), str("kwargs"),
                               shots ? shots : b.constI64(0),
                               b.constI1(static_cast<bool>(op->getAttr("auto_qubit_management")))};
    return replaceWithCall(voidTy, {ptr, ptr, ptr, i64, b.i1}, args);
  }
  case QOp::Alloc: {
    Value size = single(op, operands, OpRole::Size);
    if (!size)
      size = b.constI64(getAllocSize(op).value_or(0));
    return replaceWithCall(ptr, {i64}, size);
  }
  case QOp::AllocQb:
    return replaceWithCall(ptr, {}, {});
  case QOp::Dealloc:
  case QOp::DeallocQb:
    return replaceWithCall(voidTy, {ptr}, operands[0]);
  case QOp::Extract: {
    Value index = single(op, operands, OpRole::Index);
    if (!index) {
      auto attr = dyn_cast_or_null<IntegerAttr>(op->getAttr(kStaticIndexAttr));
      index = b.constI64(attr ? attr.getInt() : 0);
    }
    FailureOr<LLVM::CallOp> slot = b.call(fn, ptr, {ptr, i64}, ValueRange{operands[0], index});
    if (failed(slot))
      return failure();
    // The runtime returns the address of the array slot holding the QUBIT*.
    rewriter.replaceOp(op, LLVM::LoadOp::create(rewriter, b.loc, ptr, slot->getResult()));
    return success();
  }
  case QOp::Insert:
    rewriter.replaceOp(op, single(op, operands, OpRole::Register));
    return success();
  case QOp::SetState:
  case QOp::SetBasisState: {
    ValueRange qubits = group(op, operands, OpRole::Qubits);
    Value state = b.spill(single(op, operands, OpRole::State));
    if (failed(b.call(fn, voidTy, {ptr, i64}, concat(ValueRange{state}, counted(b, qubits)),
                      /*isVarArg=*/true)))
      return failure();
    rewriter.replaceOp(op, qubits);
    return success();
  }
  case QOp::Custom:
  case QOp::PauliRot:
  case QOp::GPhase:
  case QOp::MultiRZ:
  case QOp::PCPhase:
  case QOp::Unitary:
    return lowerGate(op, operands, b);
  case QOp::CompBasis: {
    // No runtime call: the measurement that reads this observable passes
    // these qubits (Catalyst does the same).
    auto cast = UnrealizedConversionCastOp::create(rewriter, b.loc, TypeRange{i64},
                                                   group(op, operands, OpRole::Qubits));
    cast->setAttr(kCompBasisAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(op, cast.getResult(0));
    return success();
  }
  case QOp::NamedObs:
    return replaceWithCall(i64, {i64, ptr},
                           ValueRange{b.constI64(*getNamedObservable(op)), operands[0]});
  case QOp::Hermitian: {
    Value matrix = b.spill(single(op, operands, OpRole::Matrix));
    return replaceWithCall(
        i64, {ptr, i64},
        concat(ValueRange{matrix}, counted(b, group(op, operands, OpRole::Qubits))),
        /*isVarArg=*/true);
  }
  case QOp::TensorObs:
    return replaceWithCall(i64, {i64}, counted(b, operands), /*isVarArg=*/true);
  case QOp::Hamiltonian: {
    Value coeffs = b.spill(single(op, operands, OpRole::Coeffs));
    return replaceWithCall(
        i64, {ptr, i64}, concat(ValueRange{coeffs}, counted(b, group(op, operands, OpRole::Terms))),
        /*isVarArg=*/true);
  }
  case QOp::Measure: {
    int32_t postselect = -1; // none
    if (auto attr = dyn_cast_or_null<IntegerAttr>(op->getAttr("postselect")))
      postselect = static_cast<int32_t>(attr.getInt());
    FailureOr<LLVM::CallOp> result =
        b.call(fn, ptr, {ptr, b.i32}, ValueRange{operands[0], b.constI32(postselect)});
    if (failed(result))
      return failure();
    Value bit = LLVM::LoadOp::create(rewriter, b.loc, b.i1, result->getResult());
    rewriter.replaceOp(op, ValueRange{bit, operands[0]});
    return success();
  }
  case QOp::Expval:
  case QOp::Var:
    return replaceWithCall(f64, {i64}, operands[0]);
  case QOp::Probs:
  case QOp::State:
  case QOp::Sample:
  case QOp::Counts:
    return lowerMeasurement(op, operands, b);
  default:
    return failure();
  }
}

} // namespace

void populateQuantumToLLVMPatterns(const LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  for (const QuantumOpInfo &info : getQuantumOpTable()) {
    switch (info.id) {
    case QOp::Adjoint:
    case QOp::Ctrl:
    case QOp::Yield:
    case QOp::McmObs:
      continue; // lowered by their own passes, or not at all
    default:
      patterns.add<QuantumOpLowering>(converter, patterns.getContext(), info);
    }
  }
}

unsigned finalizeQuantumToLLVM(Operation *module) {
  unsigned merged = 0;
  SmallVector<Operation *> dead;
  module->walk([&](LLVM::LLVMFuncOp fn) {
    // The first slot of each (type, count) serves every call of the
    // function; all slots sit at the top of the entry block, so it
    // dominates every use of the others.
    DenseMap<std::pair<Type, int64_t>, Value> kept;
    fn.walk([&](LLVM::AllocaOp slot) {
      if (!slot->hasAttr(kScratchAttr))
        return;
      slot->removeAttr(kScratchAttr);
      auto count = slot.getArraySize().getDefiningOp<LLVM::ConstantOp>();
      int64_t n = count ? cast<IntegerAttr>(count.getValue()).getInt() : -1;
      auto [it, inserted] = kept.try_emplace({slot.getElemType(), n}, slot.getResult());
      if (inserted || n < 0)
        return;
      slot.getResult().replaceAllUsesWith(it->second);
      dead.push_back(slot);
      if (count && count->hasOneUse())
        dead.push_back(count);
      ++merged;
    });
  });
  module->walk([&](UnrealizedConversionCastOp cast) {
    if (cast->hasAttr(kCompBasisAttr) && cast->use_empty())
      dead.push_back(cast);
  });
  for (Operation *op : dead)
    op->erase();
  return merged;
}

} // namespace qshape
