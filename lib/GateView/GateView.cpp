//===- GateView.cpp - name-based access to quantum ops --------------------===//

#include "qshape/GateView/GateView.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace qshape {

QOpKind classify(StringRef name) {
  if (!name.consume_front("quantum."))
    return QOpKind::NotQuantum;
  return llvm::StringSwitch<QOpKind>(name)
      .Cases({"custom", "paulirot", "multirz", "pcphase", "unitary"}, QOpKind::Gate)
      .Case("gphase", QOpKind::GlobalPhase)
      .Case("extract", QOpKind::Extract)
      .Case("insert", QOpKind::Insert)
      .Case("alloc", QOpKind::Alloc)
      .Case("alloc_qb", QOpKind::AllocQubit)
      .Case("dealloc", QOpKind::Dealloc)
      .Case("dealloc_qb", QOpKind::DeallocQubit)
      .Case("measure", QOpKind::Measure)
      .Cases({"namedobs", "compbasis", "tensor", "hamiltonian", "hermitian", "mcmobs"},
             QOpKind::Observable)
      .Cases({"expval", "var", "probs", "state", "sample", "counts"}, QOpKind::Measurement)
      .Cases({"set_state", "set_basis_state"}, QOpKind::StatePrep)
      .Case("adjoint", QOpKind::Adjoint)
      .Case("ctrl", QOpKind::Ctrl)
      .Case("yield", QOpKind::Yield)
      .Cases({"device", "device_release", "init", "finalize", "num_qubits"}, QOpKind::Device)
      .Default(QOpKind::OtherQuantum);
}

QOpKind classify(Operation *op) { return classify(op->getName().getStringRef()); }

StringRef kindName(QOpKind kind) {
  switch (kind) {
  case QOpKind::NotQuantum: return "not-quantum";
  case QOpKind::Gate: return "gate";
  case QOpKind::GlobalPhase: return "global-phase";
  case QOpKind::Extract: return "extract";
  case QOpKind::Insert: return "insert";
  case QOpKind::Alloc: return "alloc";
  case QOpKind::AllocQubit: return "alloc-qubit";
  case QOpKind::Dealloc: return "dealloc";
  case QOpKind::DeallocQubit: return "dealloc-qubit";
  case QOpKind::Measure: return "measure";
  case QOpKind::Observable: return "observable";
  case QOpKind::Measurement: return "measurement";
  case QOpKind::StatePrep: return "state-prep";
  case QOpKind::Adjoint: return "adjoint";
  case QOpKind::Ctrl: return "ctrl";
  case QOpKind::Yield: return "yield";
  case QOpKind::Device: return "device";
  case QOpKind::OtherQuantum: return "other-quantum";
  }
  return "unknown";
}

bool isOrdered(Operation *op) {
  switch (classify(op)) {
  case QOpKind::Gate:
  case QOpKind::Extract:
  case QOpKind::Insert:
  case QOpKind::Observable:
  case QOpKind::Yield:
    return false;
  case QOpKind::Adjoint:
  case QOpKind::Ctrl: {
    // Value semantics, unless the body holds something ordered.
    WalkResult r = op->walk([&](Operation *inner) {
      if (inner != op && isOrdered(inner))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return r.wasInterrupted();
  }
  case QOpKind::NotQuantum:
    break;
  default:
    return true;
  }
  if (!op->isRegistered())
    return true;
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (isMemoryEffectFree(op)) {
    // isMemoryEffectFree trusts RecursiveMemoryEffects bodies through MLIR's
    // interfaces, which do not know unregistered quantum ops: check by name.
    if (op->getNumRegions() == 0)
      return false;
    WalkResult r = op->walk([&](Operation *inner) {
      if (inner != op && isOrdered(inner))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return r.wasInterrupted();
  }
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    WalkResult r = op->walk([&](Operation *inner) {
      if (inner != op && isOrdered(inner))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return r.wasInterrupted();
  }
  return true;
}

static DenseI32ArrayAttr segmentAttr(Operation *op, StringRef name) {
  return dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr(name));
}

OperandRange getOperandSegment(Operation *op, unsigned index) {
  DenseI32ArrayAttr sizes = segmentAttr(op, "operandSegmentSizes");
  if (!sizes)
    return index == 0 ? op->getOperands() : op->getOperands().drop_front(op->getNumOperands());
  unsigned start = 0;
  ArrayRef<int32_t> s = sizes.asArrayRef();
  for (unsigned i = 0; i < index && i < s.size(); ++i)
    start += s[i];
  unsigned len = index < s.size() ? s[index] : 0;
  if (start + len > op->getNumOperands())
    return op->getOperands().drop_front(op->getNumOperands());
  return op->getOperands().slice(start, len);
}

ResultRange getResultSegment(Operation *op, unsigned index) {
  DenseI32ArrayAttr sizes = segmentAttr(op, "resultSegmentSizes");
  if (!sizes)
    return index == 0 ? op->getResults() : op->getResults().drop_front(op->getNumResults());
  unsigned start = 0;
  ArrayRef<int32_t> s = sizes.asArrayRef();
  for (unsigned i = 0; i < index && i < s.size(); ++i)
    start += s[i];
  unsigned len = index < s.size() ? s[index] : 0;
  if (start + len > op->getNumResults())
    return op->getResults().drop_front(op->getNumResults());
  return op->getResults().slice(start, len);
}

//===----------------------------------------------------------------------===//
// GateView
//===----------------------------------------------------------------------===//

std::optional<GateView> GateView::get(Operation *op) {
  QOpKind kind = classify(op);
  if (kind != QOpKind::Gate && kind != QOpKind::GlobalPhase)
    return std::nullopt;
  return GateView(op, kind);
}

StringRef GateView::getOpName() const { return op->getName().getStringRef(); }

StringRef GateView::getGateName() const {
  StringRef name = getOpName().drop_front(strlen("quantum."));
  if (name == "custom") {
    if (auto s = dyn_cast_or_null<StringAttr>(op->getAttr("gate_name")))
      return s.getValue();
    return "";
  }
  return llvm::StringSwitch<StringRef>(name)
      .Case("paulirot", "PauliRot")
      .Case("multirz", "MultiRZ")
      .Case("pcphase", "PCPhase")
      .Case("unitary", "QubitUnitary")
      .Case("gphase", "GlobalPhase")
      .Default("");
}

// Segment layout (ODS order): gates [params|angle|matrix, in_qubits,
// in_ctrl_qubits, in_ctrl_values]; gphase [angle, in_ctrl_qubits,
// in_ctrl_values]. Results: gates [out_qubits, out_ctrl_qubits]; gphase
// [out_ctrl_qubits].
unsigned GateView::qubitSegment() const { return 1; }

OperandRange GateView::getParams() const {
  if (getOpName() == "quantum.unitary")
    return op->getOperands().take_front(0);
  return getOperandSegment(op, 0);
}

Value GateView::getMatrix() const {
  if (getOpName() != "quantum.unitary")
    return {};
  OperandRange m = getOperandSegment(op, 0);
  return m.empty() ? Value() : m.front();
}

OperandRange GateView::getInQubits() const {
  if (kind == QOpKind::GlobalPhase)
    return op->getOperands().take_front(0);
  return getOperandSegment(op, qubitSegment());
}

ResultRange GateView::getOutQubits() const {
  if (kind == QOpKind::GlobalPhase)
    return op->getResults().take_front(0);
  return getResultSegment(op, 0);
}

OperandRange GateView::getCtrlQubits() const {
  return getOperandSegment(op, kind == QOpKind::GlobalPhase ? 1 : 2);
}

OperandRange GateView::getCtrlValues() const {
  return getOperandSegment(op, kind == QOpKind::GlobalPhase ? 2 : 3);
}

ResultRange GateView::getOutCtrlQubits() const {
  if (kind == QOpKind::GlobalPhase)
    return op->getResults();
  return getResultSegment(op, 1);
}

bool GateView::isAdjoint() const { return static_cast<bool>(op->getAttr("adjoint")); }

SmallVector<StringRef> GateView::getPauliWord() const {
  SmallVector<StringRef> word;
  if (auto arr = dyn_cast_or_null<ArrayAttr>(op->getAttr("pauli_product")))
    for (Attribute a : arr)
      if (auto s = dyn_cast<StringAttr>(a))
        word.push_back(s.getValue());
  return word;
}

std::optional<int64_t> GateView::getDim() const {
  if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr("dim")))
    return i.getInt();
  return std::nullopt;
}

Value GateView::getOutFor(unsigned operandIndex) const {
  OperandRange in = getInQubits();
  OperandRange ctrl = getCtrlQubits();
  unsigned inStart = in.empty() ? 0 : in.getBeginOperandIndex();
  unsigned ctrlStart = ctrl.empty() ? 0 : ctrl.getBeginOperandIndex();
  if (!in.empty() && operandIndex >= inStart && operandIndex < inStart + in.size()) {
    ResultRange out = getOutQubits();
    unsigned k = operandIndex - inStart;
    return k < out.size() ? Value(out[k]) : Value();
  }
  if (!ctrl.empty() && operandIndex >= ctrlStart && operandIndex < ctrlStart + ctrl.size()) {
    ResultRange out = getOutCtrlQubits();
    unsigned k = operandIndex - ctrlStart;
    return k < out.size() ? Value(out[k]) : Value();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Register access
//===----------------------------------------------------------------------===//

std::optional<RegisterAccess> RegisterAccess::get(Operation *op) {
  QOpKind kind = classify(op);
  if (kind != QOpKind::Extract && kind != QOpKind::Insert)
    return std::nullopt;
  RegisterAccess a;
  a.op = op;
  a.isInsert = kind == QOpKind::Insert;
  unsigned n = op->getNumOperands();
  if (n == 0 || op->getNumResults() != 1)
    return std::nullopt;
  a.reg = op->getOperand(0);
  a.result = op->getResult(0);
  if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr("idx_attr")))
    a.staticIdx = i.getInt();
  if (a.isInsert) {
    if (n < 2 || n > 3)
      return std::nullopt;
    a.qubit = op->getOperand(n - 1);
    if (n == 3)
      a.dynamicIdx = op->getOperand(1);
  } else {
    if (n > 2)
      return std::nullopt;
    a.qubit = a.result;
    if (n == 2)
      a.dynamicIdx = op->getOperand(1);
  }
  return a;
}

std::optional<int64_t> getAllocSize(Operation *op) {
  if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr("nqubits_attr")))
    return i.getInt();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

static Type parseQuantumType(MLIRContext *ctx, StringRef spelling) {
  // Parsing the spelling yields whichever class the host registered for it
  // (qshape's or Catalyst's), or an opaque type without the dialect.
  bool allowed = ctx->allowsUnregisteredDialects();
  if (!ctx->getLoadedDialect("quantum"))
    ctx->allowUnregisteredDialects(true);
  Type t = parseType(spelling, ctx);
  ctx->allowUnregisteredDialects(allowed);
  return t;
}

Type getQubitType(MLIRContext *ctx) { return parseQuantumType(ctx, "!quantum.bit"); }
Type getQuregType(MLIRContext *ctx) { return parseQuantumType(ctx, "!quantum.reg"); }

static void addIndex(OpBuilder &b, OperationState &state, IndexSpec idx) {
  if (idx.dynamic)
    state.addOperands(idx.dynamic);
  else
    state.addAttribute("idx_attr", b.getI64IntegerAttr(idx.value.value_or(0)));
}

Operation *buildExtract(OpBuilder &b, Location loc, Value reg, IndexSpec idx) {
  OperationState state(loc, "quantum.extract");
  state.addOperands(reg);
  addIndex(b, state, idx);
  state.addTypes(getQubitType(b.getContext()));
  return b.create(state);
}

Operation *buildInsert(OpBuilder &b, Location loc, Value reg, IndexSpec idx, Value qubit) {
  OperationState state(loc, "quantum.insert");
  state.addOperands(reg);
  addIndex(b, state, idx);
  state.addOperands(qubit);
  state.addTypes(reg.getType());
  return b.create(state);
}

Operation *buildCustomGate(OpBuilder &b, Location loc, const CustomGateSpec &spec) {
  OperationState state(loc, "quantum.custom");
  state.addOperands(spec.params);
  state.addOperands(spec.qubits);
  state.addOperands(spec.ctrlQubits);
  state.addOperands(spec.ctrlValues);
  state.addAttribute("gate_name", b.getStringAttr(spec.gateName));
  if (spec.adjoint)
    state.addAttribute("adjoint", b.getUnitAttr());
  state.addAttribute("operandSegmentSizes",
                     b.getDenseI32ArrayAttr({int32_t(spec.params.size()),
                                             int32_t(spec.qubits.size()),
                                             int32_t(spec.ctrlQubits.size()),
                                             int32_t(spec.ctrlValues.size())}));
  state.addAttribute("resultSegmentSizes",
                     b.getDenseI32ArrayAttr({int32_t(spec.qubits.size()),
                                             int32_t(spec.ctrlQubits.size())}));
  for (Value q : spec.qubits)
    state.addTypes(q.getType());
  for (Value q : spec.ctrlQubits)
    state.addTypes(q.getType());
  return b.create(state);
}

void setStaticIndex(Operation *accessOp, int64_t index) {
  std::optional<RegisterAccess> a = RegisterAccess::get(accessOp);
  if (!a)
    return;
  if (a->dynamicIdx)
    accessOp->eraseOperand(1);
  accessOp->setAttr("idx_attr", Builder(accessOp->getContext()).getI64IntegerAttr(index));
}

} // namespace qshape
