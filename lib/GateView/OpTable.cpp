//===- OpTable.cpp - the quantum op table ---------------------------------===//

#include "qshape/GateView/OpTable.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace qshape {

namespace {
// Group lists of each row, as static arrays the rows point into.
#define S(R)                                                                                       \
  OpGroup { OpRole::R, GroupArity::Single }
#define O(R)                                                                                       \
  OpGroup { OpRole::R, GroupArity::Optional }
#define V(R)                                                                                       \
  OpGroup { OpRole::R, GroupArity::Variadic }
// A row without groups would declare a zero-length array: every list gets
// a placeholder first element, which the rows below skip.
#define QSHAPE_GROUPS(...) OpGroup{}, ##__VA_ARGS__
#define QUANTUM_OP(Id, Mnemonic, Kind, Effect, NumParams, Entry, OperandList, ResultList)          \
  constexpr OpGroup Id##Operands[] = {QSHAPE_GROUPS OperandList};                                  \
  constexpr OpGroup Id##Results[] = {QSHAPE_GROUPS ResultList};
#include "qshape/GateView/OpTable.def"
#undef S
#undef O
#undef V
#undef QSHAPE_GROUPS

// Constant data (StringRefs and ArrayRefs of constants): nothing here throws.
// NOLINTNEXTLINE(bugprone-throwing-static-initialization)
const QuantumOpInfo kTable[] = {
#define QUANTUM_OP(Id, Mnemonic, Kind, Effect, NumParams, Entry, OperandList, ResultList)          \
  {QOp::Id,                                                                                        \
   "quantum." Mnemonic,                                                                            \
   Mnemonic,                                                                                       \
   QOpKind::Kind,                                                                                  \
   OpEffect::Effect,                                                                               \
   NumParams,                                                                                      \
   Entry,                                                                                          \
   llvm::ArrayRef<OpGroup>(Id##Operands).drop_front(),                                             \
   llvm::ArrayRef<OpGroup>(Id##Results).drop_front()},
#include "qshape/GateView/OpTable.def"
};
} // namespace

static int findRole(llvm::ArrayRef<OpGroup> groups, OpRole role) {
  for (unsigned i = 0; i < groups.size(); ++i)
    if (groups[i].role == role)
      return static_cast<int>(i);
  return -1;
}

int QuantumOpInfo::operandGroup(OpRole role) const { return findRole(operands, role); }
int QuantumOpInfo::resultGroup(OpRole role) const { return findRole(results, role); }

llvm::ArrayRef<QuantumOpInfo> getQuantumOpTable() { return kTable; }

const QuantumOpInfo &getQuantumOpInfo(QOp id) { return kTable[static_cast<unsigned>(id)]; }

const QuantumOpInfo *lookupQuantumOp(StringRef name) {
  // Built once and only read afterwards, so passes on several threads may
  // share it.
  static const llvm::StringMap<const QuantumOpInfo *> byName = [] {
    llvm::StringMap<const QuantumOpInfo *> m;
    for (const QuantumOpInfo &info : kTable)
      m[info.name] = &info;
    return m;
  }();
  auto it = byName.find(name);
  return it == byName.end() ? nullptr : it->second;
}

const QuantumOpInfo *lookupQuantumOp(Operation *op) {
  return lookupQuantumOp(op->getName().getStringRef());
}

/// Start and length of group `index` among `total` values: from the segment
/// sizes attribute when there is one, else by ODS's rule (the non-single
/// groups share what the single ones leave, equally).
static std::pair<unsigned, unsigned> locateGroup(llvm::ArrayRef<OpGroup> groups, unsigned index,
                                                 unsigned total, Attribute sizesAttr) {
  if (auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(sizesAttr)) {
    llvm::ArrayRef<int32_t> s = sizes.asArrayRef();
    unsigned start = 0;
    for (unsigned i = 0; i < index && i < s.size(); ++i)
      start += s[i];
    unsigned len = index < s.size() ? s[index] : 0;
    if (start + len > total)
      return {total, 0};
    return {start, len};
  }
  unsigned singles = 0, others = 0;
  for (const OpGroup &g : groups)
    (g.arity == GroupArity::Single ? singles : others) += 1;
  unsigned shared = total > singles && others ? (total - singles) / others : 0;
  unsigned start = 0;
  for (unsigned i = 0; i < index; ++i)
    start += groups[i].arity == GroupArity::Single ? 1 : shared;
  unsigned len = groups[index].arity == GroupArity::Single ? 1 : shared;
  if (start + len > total)
    return {total, 0};
  return {start, len};
}

OperandRange getOperandGroup(Operation *op, OpRole role) {
  const QuantumOpInfo *info = lookupQuantumOp(op);
  int index = info ? info->operandGroup(role) : -1;
  if (index < 0)
    return op->getOperands().drop_front(op->getNumOperands());
  auto [start, len] =
      locateGroup(info->operands, index, op->getNumOperands(), op->getAttr("operandSegmentSizes"));
  return op->getOperands().slice(start, len);
}

ResultRange getResultGroup(Operation *op, OpRole role) {
  const QuantumOpInfo *info = lookupQuantumOp(op);
  int index = info ? info->resultGroup(role) : -1;
  if (index < 0)
    return op->getResults().drop_front(op->getNumResults());
  auto [start, len] =
      locateGroup(info->results, index, op->getNumResults(), op->getAttr("resultSegmentSizes"));
  return op->getResults().slice(start, len);
}

std::string getRuntimeFunction(Operation *op) {
  const QuantumOpInfo *info = lookupQuantumOp(op);
  if (!info || info->runtimeEntry.empty())
    return {};
  std::string name = info->runtimeEntry.str();
  if (info->id == QOp::Custom) {
    auto gate = dyn_cast_or_null<StringAttr>(op->getAttr("gate_name"));
    if (!gate || gate.getValue().empty())
      return {};
    name += gate.getValue().str();
  }
  return name;
}

} // namespace qshape
