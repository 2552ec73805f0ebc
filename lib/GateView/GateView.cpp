//===- GateView.cpp - name-based access to quantum ops --------------------===//

#include "qshape/GateView/GateView.h"
#include "qshape/GateView/Barriers.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace qshape {

QOpKind classify(StringRef name) {
  if (const QuantumOpInfo *info = lookupQuantumOp(name))
    return info->kind;
  return name.starts_with("quantum.") ? QOpKind::OtherQuantum : QOpKind::NotQuantum;
}

QOpKind classify(Operation *op) { return classify(op->getName().getStringRef()); }

StringRef kindName(QOpKind kind) {
  switch (kind) {
  case QOpKind::NotQuantum:
    return "not-quantum";
  case QOpKind::Gate:
    return "gate";
  case QOpKind::GlobalPhase:
    return "global-phase";
  case QOpKind::Extract:
    return "extract";
  case QOpKind::Insert:
    return "insert";
  case QOpKind::Alloc:
    return "alloc";
  case QOpKind::AllocQubit:
    return "alloc-qubit";
  case QOpKind::Dealloc:
    return "dealloc";
  case QOpKind::DeallocQubit:
    return "dealloc-qubit";
  case QOpKind::Measure:
    return "measure";
  case QOpKind::Observable:
    return "observable";
  case QOpKind::Measurement:
    return "measurement";
  case QOpKind::StatePrep:
    return "state-prep";
  case QOpKind::Adjoint:
    return "adjoint";
  case QOpKind::Ctrl:
    return "ctrl";
  case QOpKind::Yield:
    return "yield";
  case QOpKind::Device:
    return "device";
  case QOpKind::OtherQuantum:
    return "other-quantum";
  }
  return "unknown";
}

Inherent orderOf(Operation *op) {
  if (const QuantumOpInfo *info = lookupQuantumOp(op)) {
    switch (info->effect) {
    case OpEffect::Pure:
      return Inherent::No;
    case OpEffect::FromRegion:
      // Value semantics, unless the body holds something ordered.
      return Inherent::Body;
    case OpEffect::Ordered:
    case OpEffect::WholeDevice:
    case OpEffect::ReadOnly:
      return Inherent::Yes;
    }
  }
  if (classify(op) == QOpKind::OtherQuantum) // a quantum op the table lacks
    return Inherent::Yes;
  if (!op->isRegistered())
    return Inherent::Yes;
  if (op->hasTrait<OpTrait::IsTerminator>())
    return Inherent::No;
  // A body is left to decideDeep, which asks each nested op once by name
  // (MLIR's isMemoryEffectFree would walk the whole body at every level, and
  // does not know unregistered quantum ops).
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    auto own = dyn_cast<MemoryEffectOpInterface>(op);
    if (own && !own.hasNoEffect())
      return Inherent::Yes;
    return op->getNumRegions() != 0 ? Inherent::Body : Inherent::No;
  }
  if (isMemoryEffectFree(op))
    return op->getNumRegions() != 0 ? Inherent::Body : Inherent::No;
  return Inherent::Yes;
}

bool isQRefOp(Operation *op) { return op->getName().getDialectNamespace() == "qref"; }

bool isOrdered(Operation *op) { return decideDeep(op, orderOf); }

//===----------------------------------------------------------------------===//
// GateView
//===----------------------------------------------------------------------===//

std::optional<GateView> GateView::get(Operation *op) {
  QOpKind kind = classify(op);
  if (kind != QOpKind::Gate && kind != QOpKind::GlobalPhase)
    return std::nullopt;
  return GateView(op);
}

StringRef GateView::getOpName() const { return op->getName().getStringRef(); }

StringRef GateView::getGateName() const {
  StringRef name = getOpName().drop_front(strlen("quantum."));
  if (name == "custom" || name == "operator") {
    if (auto s =
            dyn_cast_or_null<StringAttr>(op->getAttr(name == "custom" ? "gate_name" : "op_name")))
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

OperandRange GateView::getParams() const { return getOperandGroup(op, OpRole::Params); }

/// The one operand of an optional or single group, or null.
static Value singleOperand(Operation *op, OpRole role) {
  OperandRange r = getOperandGroup(op, role);
  return r.empty() ? Value() : r.front();
}

Value GateView::getMatrix() const { return singleOperand(op, OpRole::Matrix); }

OperandRange GateView::getInQubits() const { return getOperandGroup(op, OpRole::Qubits); }
ResultRange GateView::getOutQubits() const { return getResultGroup(op, OpRole::Qubits); }
OperandRange GateView::getCtrlQubits() const { return getOperandGroup(op, OpRole::CtrlQubits); }
OperandRange GateView::getCtrlValues() const { return getOperandGroup(op, OpRole::CtrlValues); }
ResultRange GateView::getOutCtrlQubits() const { return getResultGroup(op, OpRole::CtrlQubits); }

OperandRange GateView::getForwardArgs() const { return getOperandGroup(op, OpRole::ForwardArgs); }
Value GateView::getInRegister() const { return singleOperand(op, OpRole::Register); }
Value GateView::getOutRegister() const {
  ResultRange r = getResultGroup(op, OpRole::Register);
  return r.empty() ? Value() : r.front();
}
OperandRange GateView::getIndexArrays() const { return getOperandGroup(op, OpRole::IndexArrays); }
Value GateView::getCtrlIndexArray() const { return singleOperand(op, OpRole::CtrlIndexArray); }
Value GateView::getCtrlValueArray() const { return singleOperand(op, OpRole::CtrlValueArray); }

bool GateView::isControlled() const { return !getCtrlQubits().empty() || getCtrlIndexArray(); }

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
  OperandRange reg = getOperandGroup(op, OpRole::Register);
  OperandRange idx = getOperandGroup(op, OpRole::Index);
  OperandRange qubit = getOperandGroup(op, OpRole::Qubit);
  if (reg.size() != 1 || idx.size() > 1 || qubit.size() != (a.isInsert ? 1u : 0u) ||
      reg.size() + idx.size() + qubit.size() != op->getNumOperands() || op->getNumResults() != 1)
    return std::nullopt;
  a.reg = reg.front();
  a.result = op->getResult(0);
  a.qubit = a.isInsert ? Value(qubit.front()) : a.result;
  if (!idx.empty())
    a.dynamicIdx = idx.front();
  if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr(kStaticIndexAttr)))
    a.staticIdx = i.getInt();
  return a;
}

std::optional<int64_t> RegisterAccess::wire() const {
  if (staticIdx)
    return staticIdx;
  APInt v;
  if (dynamicIdx && matchPattern(dynamicIdx, m_ConstantInt(&v)) && !v.isNegative())
    return v.getSExtValue();
  return std::nullopt;
}

std::optional<int64_t> getAllocSize(Operation *op) {
  if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr("nqubits_attr")))
    return i.getInt();
  return std::nullopt;
}

std::optional<int64_t> getNamedObservable(Operation *op) {
  static const char *const names[] = {"Identity", "PauliX", "PauliY", "PauliZ", "Hadamard"};
  Attribute attr = op->getAttr("type");
  if (!attr)
    return std::nullopt;
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    int64_t v = i.getInt();
    return v >= 0 && v < 5 ? std::optional<int64_t>(v) : std::nullopt;
  }
  // The enum prints as `#quantum<named_observable PauliZ>` whether it is
  // qshape's, Catalyst's or an opaque attribute. "PauliX" etc. never occur
  // inside one another, so exactly one name must appear.
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  std::optional<int64_t> found;
  for (int64_t k = 0; k < 5; ++k) {
    if (!StringRef(text).contains(names[k]))
      continue;
    if (found)
      return std::nullopt;
    found = k;
  }
  return found;
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
bool isQuantumType(Type type) {
  if (auto opaque = dyn_cast<OpaqueType>(type))
    return opaque.getDialectNamespace() == "quantum";
  return type.getDialect().getNamespace() == "quantum";
}

Type getQuantumType(MLIRContext *ctx, StringRef mnemonic) {
  return parseQuantumType(ctx, ("!quantum." + mnemonic).str());
}

static void addIndex(OpBuilder &b, OperationState &state, IndexSpec idx) {
  if (idx.dynamic)
    state.addOperands(idx.dynamic);
  else
    state.addAttribute(kStaticIndexAttr, b.getI64IntegerAttr(idx.value.value_or(0)));
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
  state.addAttribute(
      "operandSegmentSizes",
      b.getDenseI32ArrayAttr({int32_t(spec.params.size()), int32_t(spec.qubits.size()),
                              int32_t(spec.ctrlQubits.size()), int32_t(spec.ctrlValues.size())}));
  state.addAttribute(
      "resultSegmentSizes",
      b.getDenseI32ArrayAttr({int32_t(spec.qubits.size()), int32_t(spec.ctrlQubits.size())}));
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
  accessOp->setAttr(kStaticIndexAttr, Builder(accessOp->getContext()).getI64IntegerAttr(index));
}

} // namespace qshape
