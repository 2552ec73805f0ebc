//===- CanonicalView.cpp - the canonical form without a clone -------------===//
//
// Each rule below mirrors the function of the same name in CanonicalForm.cpp;
// comments say where the view differs in means (never in effect).
//
//===----------------------------------------------------------------------===//

#include "CanonicalView.h"

#include "qshape/Fingerprint/CanonicalForm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <numeric>
#include <queue>

using namespace mlir;

namespace qshape {
namespace fpview {

using canonical::mix64;

namespace {
/// DenseMap keys that may be pointers: DenseMapInfo<uint64_t> keeps their
/// zero low bits and would cluster them.
struct MixedKeyInfo : llvm::DenseMapInfo<uint64_t> {
  static unsigned getHashValue(uint64_t k) { return unsigned(mix64(k)); }
};
} // namespace

static constexpr size_t kLargeBytes = 64 * 1024;

void *allocateLarge(size_t bytes) {
  if (bytes < kLargeBytes)
    return llvm::safe_malloc(bytes ? bytes : 1);
  std::error_code ec;
  llvm::sys::MemoryBlock block = llvm::sys::Memory::allocateMappedMemory(
      bytes, nullptr, llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE, ec);
  if (ec || !block.base())
    llvm::report_bad_alloc_error("qshape fingerprint: out of memory");
  return block.base();
}

void deallocateLarge(void *p, size_t bytes) {
  if (bytes < kLargeBytes) {
    std::free(p);
    return;
  }
  size_t page = llvm::sys::Process::getPageSizeEstimate();
  llvm::sys::MemoryBlock block(p, (bytes + page - 1) / page * page);
  llvm::sys::Memory::releaseMappedMemory(block);
}

//===----------------------------------------------------------------------===//
// Building the shadow.
//===----------------------------------------------------------------------===//

CanonicalView::IdentityKey CanonicalView::IdentityKeyInfo::getEmptyKey() {
  return {llvm::DenseMapInfo<Operation *>::getEmptyKey(), 0};
}
CanonicalView::IdentityKey CanonicalView::IdentityKeyInfo::getTombstoneKey() {
  return {llvm::DenseMapInfo<Operation *>::getTombstoneKey(), 0};
}

/// Same name, discardable attributes, properties and result types: the
/// encoded header (StructuralEncoder::encodeOpHeader) is a function of these.
static bool sameIdentity(Operation *a, Operation *b) {
  if (a->getName() != b->getName() || a->getRawDictionaryAttrs() != b->getRawDictionaryAttrs() ||
      a->getNumResults() != b->getNumResults() ||
      !llvm::equal(a->getResultTypes(), b->getResultTypes()) ||
      a->getPropertiesStorageSize() != b->getPropertiesStorageSize())
    return false;
  return !a->getPropertiesStorageSize() ||
         a->getName().compareOpProperties(a->getPropertiesStorage(), b->getPropertiesStorage());
}

bool CanonicalView::IdentityKeyInfo::isEqual(const IdentityKey &a, const IdentityKey &b) {
  if (a.op == b.op)
    return true;
  if (a.op == getEmptyKey().op || a.op == getTombstoneKey().op || b.op == getEmptyKey().op ||
      b.op == getTombstoneKey().op)
    return false;
  return a.hash == b.hash && sameIdentity(a.op, b.op);
}

Idx CanonicalView::internHeader(const ByteSink &exact, const ByteSink &shape) {
  auto [it, inserted] = exactHeaders.try_emplace(exact.str(), Idx(headers.size()));
  if (inserted) {
    StringRef shapeKey = shapeHeaders.try_emplace(shape.str(), 0).first->getKey();
    headers.push_back({it->getKey(), shapeKey});
  }
  return it->second;
}

Idx CanonicalView::identityOf(Operation *op) {
  // Runs of ops with one identity are common (a gate name repeated, a
  // column of tensor.extract): a few recent identities are tried first.
  for (unsigned i = 0; i < 4; ++i) {
    Idx id = lastIdentity[i];
    if (id != kNone && sameIdentity(op, identityOp[id])) {
      std::swap(lastIdentity[0], lastIdentity[i]);
      return id;
    }
  }
  llvm::hash_code h = llvm::hash_combine(op->getName().getAsOpaquePointer(),
                                         op->getRawDictionaryAttrs().getAsOpaquePointer(),
                                         op->getNumResults());
  for (Type t : op->getResultTypes())
    h = llvm::hash_combine(h, t.getAsOpaquePointer());
  if (op->getPropertiesStorageSize())
    h = llvm::hash_combine(h, op->getName().hashOpProperties(op->getPropertiesStorage()));
  auto [it, inserted] =
      identities.try_emplace(IdentityKey{op, unsigned(h)}, Idx(identityHeader.size()));
  if (inserted) {
    ByteSink exact, shape;
    exactEncoder.encodeOpHeader(op, exact);
    shapeEncoder.encodeOpHeader(op, shape);
    identityHeader.push_back(internHeader(exact, shape));
    identityOp.push_back(op);
  }
  std::move_backward(lastIdentity, lastIdentity + 3, lastIdentity + 4);
  lastIdentity[0] = it->second;
  return it->second;
}

int CanonicalView::nameInfo(Operation *op) {
  const void *key = op->getName().getAsOpaquePointer();
  if (key == lastName)
    return lastNameIdx;
  auto it = nameIndices.find(key);
  if (it == nameIndices.end()) {
    if (names.size() > 0xffff)
      return -1;
    NameInfo ni;
    ni.name = op->getName().getStringRef();
    ni.kind = classify(ni.name);
    ni.registered = op->isRegistered();
    ni.constantLike = op->hasTrait<OpTrait::ConstantLike>();
    ni.terminator = op->hasTrait<OpTrait::IsTerminator>();
    ni.isolated = op->hasTrait<OpTrait::IsIsolatedFromAbove>();
    ni.funcLike = isa<FunctionOpInterface>(op) || ni.name == "func.func";
    // arith.constant keeps exactly one property, `value`: its header is
    // built from that attribute instead of getPropertiesAsAttribute(), which
    // would create a dictionary attribute per distinct constant. Verified
    // against the generic encoding on the first one.
    ni.fastConstant = ni.registered && ni.name == "arith.constant" ? 0 : -1;
    it = nameIndices.try_emplace(key, uint16_t(names.size())).first;
    names.push_back(ni);
  }
  lastName = key;
  lastNameIdx = it->second;
  return it->second;
}

void CanonicalView::computeHeader(Idx o) {
  Operation *op = ops[o].op;
  NameInfo &ni = names[ops[o].name];
  // Float arith.constants (usually as many as the gates, nearly all
  // distinct) skip the generic path: their shape header depends only on the
  // value's type, and two of them have equal exact headers exactly when
  // their values are equal (FloatAttr is uniqued by type and bits, and the
  // result type is the value's), provided their other attributes are qshape
  // annotations, which are not encoded (see constKey).
  if (ni.fastConstant >= 0 && (state[o].flags & kFloatConst) &&
      isa<FloatAttr>(floatValues[ops[o].aux])) {
    auto value = cast<FloatAttr>(floatValues[ops[o].aux]);
    DictionaryAttr raw = op->getRawDictionaryAttrs();
    bool plain = true;
    if (raw)
      for (NamedAttribute na : raw)
        if (!isQShapeAnnotation(na.getName().getValue())) {
          plain = false;
          break;
        }
    std::optional<Attribute> inherent = op->getInherentAttr("value");
    if (plain && inherent && *inherent == value &&
        op->getResult(0).getType() == value.getType()) {
      auto encodeFast = [&](ByteSink &exact, ByteSink &shape) {
        SmallVector<NamedAttribute, 1> a1{NamedAttribute(valueName, value)}, a2(a1);
        exactEncoder.encodeOpHeader(ni.name, a1, op->getResultTypes(), exact);
        shapeEncoder.encodeOpHeader(ni.name, a2, op->getResultTypes(), shape);
      };
      if (ni.fastConstant == 0) {
        ByteSink exact, shape, e2, s2;
        encodeFast(exact, shape);
        exactEncoder.encodeOpHeader(op, e2);
        shapeEncoder.encodeOpHeader(op, s2);
        ni.fastConstant = e2.str() == exact.str() && s2.str() == shape.str() ? 1 : -1;
      }
      if (ni.fastConstant == 1) {
        auto [it, inserted] = fastShapeHeaders.try_emplace(value.getType(), kNone);
        if (inserted) {
          ByteSink exact, shape;
          encodeFast(exact, shape);
          it->second = internHeader(exact, shape);
        }
        ops[o].header = it->second;
        state[o].flags |= kFastFloat;
        return;
      }
    }
  }
  ops[o].identity = identityOf(op);
  ops[o].header = identityHeader[ops[o].identity];
}

/// Constants with equal keys have equal exact headers, and the converse.
/// The exact header of a kFastFloat constant is not computed: its key is its
/// value attribute (a pointer, so even); the others' is from their header
/// (odd). No kFastFloat constant has the exact header of another constant:
/// that one would have a different name, another value kind, or a
/// non-annotation attribute, all of which are encoded.
uint64_t CanonicalView::constKey(Idx o) const {
  if (has(o, kFastFloat))
    return reinterpret_cast<uintptr_t>(floatValues[ops[o].aux].getAsOpaquePointer());
  return 2 * uint64_t(ops[o].header) + 1;
}

Value CanonicalView::value(Idx v) const {
  Idx d = valueDef[v];
  if (!(d & kArgBit))
    return ops[d].op->getResult(v - ops[d].firstResult);
  const BlockRec &b = blocks[d & ~kArgBit];
  return b.block->getArgument(v - b.firstArg);
}

/// Operands mostly use values defined shortly before: their ops are found in
/// a small direct-mapped cache of recently added ops. The others are
/// resolved after the walk (build), with a map of just the ops they need.
unsigned CanonicalView::recentSlot(Operation *op) {
  auto p = reinterpret_cast<uintptr_t>(op);
  return unsigned((p >> 4) ^ (p >> 16)) & (kRecent - 1);
}

Idx CanonicalView::lookupValue(Value v) {
  if (auto r = dyn_cast<OpResult>(v)) {
    Operation *owner = r.getOwner();
    auto &[recent, idx] = recentOps[recentSlot(owner)];
    if (recent == owner)
      return ops[idx].firstResult + r.getResultNumber();
    return kNone;
  }
  auto a = cast<BlockArgument>(v);
  auto it = blockIndices.find(a.getOwner());
  if (it != blockIndices.end())
    return blocks[it->second].firstArg + a.getArgNumber();
  return kNone;
}

bool CanonicalView::addOp(Operation *op, Idx parentBlock) {
  Idx o = ops.size();
  if (o >= kArgBit || valueDef.size() + op->getNumResults() >= kArgBit)
    return false;
  OpRec &r = ops.emplace_back();
  OpState &st = state.emplace_back();
  r.op = op;
  st.block = parentBlock;
  recentOps[recentSlot(op)] = {op, o};
  int name = nameInfo(op);
  if (name < 0 || op->getNumRegions() > 0xffff || op->getNumSuccessors() > 0xffff)
    return false;
  r.name = name;
  const NameInfo &ni = names[name];
  st.kind = ni.kind;
  r.numRegions = op->getNumRegions();
  r.numResults = op->getNumResults();
  r.numSuccessors = op->getNumSuccessors();
  r.firstResult = valueDef.size();
  for (unsigned i = 0; i < r.numResults; ++i)
    valueDef.push_back(o);
  r.operandBegin = operandValues.size();
  r.numOperands = op->getNumOperands();
  for (Value v : op->getOperands()) {
    Idx s = lookupValue(v);
    if (s == kNone)
      pendingOperands.push_back({Idx(operandValues.size()), v});
    operandValues.push_back(s);
  }
  if (ni.registered && ni.constantLike && r.numOperands == 0 && r.numRegions == 0 &&
      r.numResults == 1) {
    st.flags |= kConst;
    if (isFloatConstant(op)) {
      st.flags |= kFloatConst;
      r.aux = floatValues.size();
      floatValues.push_back(op->getAttr("value"));
    }
  }
  if (ni.terminator)
    st.flags |= kTerminator;
  if (ni.isolated)
    st.flags |= kIsolated;
  if (ni.funcLike)
    st.flags |= kFuncLike;
  // isMergeable matters only for non-constants (constants never merge with
  // anything else, see mergeEqualOps, and scheduleBlock skips them first).
  if (!(st.flags & kConst) && ni.registered && r.numRegions == 0 && r.numResults > 0 &&
      ni.kind == QOpKind::NotQuantum && !ni.terminator && isMemoryEffectFree(op))
    st.flags |= kMergeable;
  if (r.numRegions && canonical::mayEditRegionsOf(op))
    st.flags |= kEditable;
  if (ni.kind == QOpKind::Extract || ni.kind == QOpKind::Insert) {
    r.aux = staticIdxs.size();
    staticIdxs.push_back(0);
    if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr("idx_attr"))) {
      r.hasStaticIdx = true;
      staticIdxs.back() = i.getInt();
    }
  }
  computeHeader(o);
  // isOrdered() is needed for nearly every non-constant op (rules 5 and 6):
  // computed while the op is in cache. (A memory-effect-free op without
  // regions is never ordered.)
  if (state[o].flags & kMergeable)
    ops[o].ordered = 0;
  else if (!(state[o].flags & kConst))
    ops[o].ordered = qshape::isOrdered(op) ? 1 : 0;
  Idx accessBegin = postAccess.size();

  unsigned nr = ops[o].numRegions;
  Idx firstRegion = regions.size();
  ops[o].firstRegion = firstRegion;
  regions.resize(regions.size() + nr);
  for (unsigned i = 0; i < nr; ++i) {
    Region &region = op->getRegion(i);
    Idx first = blocks.size();
    regions[firstRegion + i].firstBlock = first;
    // All blocks (and their arguments) first: a block may use a value of a
    // block listed after it.
    for (Block &b : region) {
      Idx bi = blocks.size();
      if (bi >= kArgBit)
        return false;
      blocks.emplace_back();
      blocks.back().block = &b;
      blocks.back().parentOp = o;
      blocks.back().firstArg = valueDef.size();
      blocks.back().numArgs = b.getNumArguments();
      blockIndices.try_emplace(&b, bi);
      for (unsigned k = 0, e = b.getNumArguments(); k < e; ++k)
        valueDef.push_back(bi | kArgBit);
    }
    Idx end = blocks.size();
    regions[firstRegion + i].numBlocks = end - first;
    for (Idx bi = first; bi < end; ++bi)
      for (Operation &inner : *blocks[bi].block) {
        Idx c = ops.size();
        if (!addOp(&inner, bi))
          return false;
        blocks[bi].ops.push_back(c);
      }
  }
  QOpKind k = state[o].kind;
  if (k == QOpKind::Extract || k == QOpKind::Insert || k == QOpKind::Alloc)
    postAccess.push_back(o);
  if (state[o].flags & kFuncLike) {
    postFuncs.push_back(o);
    accessRange[o] = {accessBegin, Idx(postAccess.size())};
  }
  return true;
}

std::unique_ptr<CanonicalView> CanonicalView::build(Operation *root) {
  std::unique_ptr<CanonicalView> v(new CanonicalView());
  v->valueName = StringAttr::get(root->getContext(), "value");
  v->recentOps.assign(kRecent, {nullptr, kNone});
  if (!v->addOp(root, kNone))
    return nullptr;
  if (!v->pendingOperands.empty()) {
    // The ops that define the remaining operands, by one pass over the ops.
    llvm::DenseMap<Operation *, Idx> wanted;
    for (auto &[pos, value] : v->pendingOperands)
      if (auto r = dyn_cast<OpResult>(value))
        wanted.try_emplace(r.getOwner(), kNone);
    for (Idx o = 0, e = v->ops.size(); o < e; ++o)
      if (auto it = wanted.find(v->ops[o].op); it != wanted.end())
        it->second = o;
    for (auto &[pos, value] : v->pendingOperands) {
      Idx s = kNone;
      if (auto r = dyn_cast<OpResult>(value)) {
        Idx o = wanted.lookup(r.getOwner());
        if (o != kNone)
          s = v->ops[o].firstResult + r.getResultNumber();
      } else {
        s = v->lookupValue(value);
      }
      if (s == kNone)
        return nullptr; // a value from outside the root
      v->operandValues[pos] = s;
    }
    v->pendingOperands.clear();
  }
  v->recentOps = {};
  size_t nv = v->valueDef.size();
  v->repl.resize(nv);
  for (Idx i = 0; i < nv; ++i)
    v->repl[i] = i;
  v->uses.assign(nv, 0);
  for (size_t i = 0, e = v->operandValues.size(); i < e; ++i)
    ++v->uses[v->operandValues[i]];
  return v;
}

//===----------------------------------------------------------------------===//
// Edits of the view.
//===----------------------------------------------------------------------===//

void CanonicalView::replaceAllUses(Idx from, Idx to) {
  from = resolve(from);
  to = resolve(to);
  if (from == to)
    return;
  ++edits;
  repl[from] = to;
  uses[to] += uses[from];
  uses[from] = 0;
}

void CanonicalView::setOperand(Idx o, unsigned i, Idx v) {
  ++edits;
  dirtyOps.push_back(o);
  Idx &slot = operandValues[ops[o].operandBegin + i];
  --uses[resolve(slot)];
  slot = v;
  ++uses[resolve(v)];
}

void CanonicalView::eraseOperand(Idx o, unsigned i) {
  ++edits;
  dirtyOps.push_back(o);
  OpRec &r = ops[o];
  --uses[resolve(operandValues[r.operandBegin + i])];
  for (unsigned k = i + 1; k < r.numOperands; ++k)
    operandValues[r.operandBegin + k - 1] = operandValues[r.operandBegin + k];
  --r.numOperands;
}

void CanonicalView::erase(Idx o) {
  ++edits;
  OpRec &r = ops[o];
  state[o].alive = false;
  for (unsigned i = 0; i < r.numOperands; ++i)
    --uses[resolve(operandValues[r.operandBegin + i])];
  for (unsigned ri = 0; ri < r.numRegions; ++ri) {
    const RegionRec &reg = regions[r.firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      forEachOpIn(b, [&](Idx inner) { erase(inner); });
  }
}

bool CanonicalView::useEmpty(Idx o) const {
  const OpRec &r = ops[o];
  for (unsigned i = 0; i < r.numResults; ++i)
    if (uses[r.firstResult + i])
      return false;
  return true;
}

/// isOrdered() never changes under the rules: they only remove or move ops
/// that are not ordered, and isOrdered() of an op with regions is "some
/// nested op is ordered".
bool CanonicalView::isOrdered(Idx o) {
  if (ops[o].ordered < 0)
    ops[o].ordered = qshape::isOrdered(ops[o].op) ? 1 : 0;
  return ops[o].ordered;
}

/// RegisterAccess::get on the view.
std::optional<CanonicalView::VAccess> CanonicalView::access(Idx o) {
  const OpRec &r = ops[o];
  QOpKind kind = state[o].kind;
  if (kind != QOpKind::Extract && kind != QOpKind::Insert)
    return std::nullopt;
  unsigned n = r.numOperands;
  if (n == 0 || r.numResults != 1)
    return std::nullopt;
  VAccess a;
  a.op = o;
  a.isInsert = kind == QOpKind::Insert;
  a.reg = operand(o, 0);
  a.result = r.firstResult;
  a.hasStatic = r.hasStaticIdx;
  a.staticIdx = staticIdx(o);
  if (a.isInsert) {
    if (n < 2 || n > 3)
      return std::nullopt;
    a.qubit = operand(o, n - 1);
    if (n == 3)
      a.dynamicIdx = operand(o, 1);
  } else {
    if (n > 2)
      return std::nullopt;
    a.qubit = a.result;
    if (n == 2)
      a.dynamicIdx = operand(o, 1);
  }
  return a;
}

/// The header after `op->setAttr(attrName, i64 value)`: computed on a
/// detached, operand-free copy of the op's name, attributes, properties and
/// result types (the erased index operand is not part of the header).
void CanonicalView::overrideAttr(Idx o, StringRef attrName, int64_t value) {
  ++edits;
  attrEdits.push_back({o, attrName, value});
  OpRec &r = ops[o];
  auto compute = [&]() {
    Operation *orig = r.op;
    Operation *tmp = Operation::create(orig->getLoc(), orig->getName(), orig->getResultTypes(),
                                       ValueRange{}, orig->getRawDictionaryAttrs(),
                                       orig->getPropertiesStorage(), BlockRange{}, 0);
    tmp->setAttr(attrName, Builder(orig->getContext()).getI64IntegerAttr(value));
    ByteSink exact, shape;
    exactEncoder.encodeOpHeader(tmp, exact);
    shapeEncoder.encodeOpHeader(tmp, shape);
    tmp->destroy();
    return internHeader(exact, shape);
  };
  if (r.identity == kNone) { // never the case for register ops
    r.header = compute();
    return;
  }
  auto [it, inserted] = overriddenHeaders.try_emplace({r.identity, value}, kNone);
  if (inserted)
    it->second = compute();
  r.header = it->second;
  r.identity = kNone; // the op no longer has its original attributes
}

/// GateView::getOutFor and the in/ctrl qubit ranges of a gate, which depend
/// only on the name, the attributes and the operand and result counts.
const CanonicalView::GateInfo &CanonicalView::gateInfo(Idx o) {
  const OpRec &r = ops[o];
  std::unique_ptr<GateInfo> &slot = gateInfos[{r.identity, r.numOperands}];
  if (!slot || r.identity == kNone) {
    slot = std::make_unique<GateInfo>();
    std::optional<GateView> g = GateView::get(r.op);
    for (unsigned k = 0; k < r.numOperands; ++k) {
      Value out = g->getOutFor(k);
      slot->outFor.push_back(out ? int32_t(cast<OpResult>(out).getResultNumber()) : -1);
    }
    OperandRange in = g->getInQubits(), ctrl = g->getCtrlQubits();
    slot->inBegin = in.empty() ? 0 : in.getBeginOperandIndex();
    slot->inSize = in.size();
    slot->ctrlBegin = ctrl.empty() ? 0 : ctrl.getBeginOperandIndex();
    slot->ctrlSize = ctrl.size();
  }
  return *slot;
}

//===----------------------------------------------------------------------===//
// Traversals.
//===----------------------------------------------------------------------===//

/// The live ops of block `b`, in order (constants hoisted out of `b` are
/// still listed there until compaction and are skipped).
template <typename Fn> void CanonicalView::forEachOpIn(Idx b, Fn fn) {
  // Index loop: `fn` may erase ops but never edits the list.
  for (size_t i = 0; i < blocks[b].ops.size(); ++i) {
    Idx o = blocks[b].ops[i];
    if (state[o].alive && state[o].block == b)
      fn(o);
  }
}

void CanonicalView::forEachEditableBlock(Idx rootOp, function_ref<void(Idx)> fn) {
  for (unsigned ri = 0; ri < ops[rootOp].numRegions; ++ri) {
    RegionRec reg = regions[ops[rootOp].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b) {
      fn(b);
      forEachOpIn(b, [&](Idx o) {
        if (ops[o].numRegions && has(o, kEditable) && !has(o, kIsolated))
          forEachEditableBlock(o, fn);
      });
    }
  }
}

/// Operation::walk (post-order) over the live ops nested in `o`, then `o`.
void CanonicalView::collectPostOrder(Idx o, function_ref<void(Idx)> fn) {
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      forEachOpIn(b, [&](Idx inner) { collectPostOrder(inner, fn); });
  }
  fn(o);
}

void CanonicalView::compactBlocksUnder(Idx o) {
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b) {
      llvm::erase_if(blocks[b].ops, [&](Idx x) { return !state[x].alive || state[x].block != b; });
      for (size_t i = 0; i < blocks[b].ops.size(); ++i)
        if (ops[blocks[b].ops[i]].numRegions)
          compactBlocksUnder(blocks[b].ops[i]);
    }
  }
}

//===----------------------------------------------------------------------===//
// The rules (CanonicalForm.cpp, Canonicalizer).
//===----------------------------------------------------------------------===//

void CanonicalView::canonicalize() {
  // canonicalize(): the function-like ops, in Operation::walk order (no rule
  // creates, erases or moves one out of its block).
  SmallVector<Idx> funcs;
  if (has(0, kFuncLike))
    funcs.push_back(0);
  else
    funcs.append(postFuncs.begin(), postFuncs.end());
  if (!funcs.empty()) {
    valueScratch.resize(numValues());
    keyStamp.assign(numValues(), 0);
    opKeys.resize(ops.size());
    opSlot.assign(ops.size(), kNone);
    // Op names by rank (rule 6 compares ranks, not strings).
    SmallVector<uint16_t> byName(names.size());
    std::iota(byName.begin(), byName.end(), 0);
    llvm::sort(byName, [&](uint16_t x, uint16_t y) { return names[x].name < names[y].name; });
    nameRank.resize(names.size());
    for (size_t i = 0; i < byName.size(); ++i)
      nameRank[byName[i]] = i;
  }
  // runOn compacts the blocks under each function, and the rules edit
  // nothing outside one: no second pass over the lists (on a 10^6-op
  // function it would stream the op records once more).
  for (Idx f : funcs)
    runOn(f);
}

bool CanonicalView::runRule(unsigned i, bool (CanonicalView::*rule)()) {
  if (quietAt[i] == edits)
    return false;
  bool changed = (this->*rule)();
  quietAt[i] = changed ? ~uint64_t(0) : edits;
  return changed;
}

void CanonicalView::runOn(Idx f) {
  func = f;
  std::fill(std::begin(quietAt), std::end(quietAt), ~uint64_t(0));
  // Rules 1 and 4 walk every op under the function (Operation::walk): the
  // register ops never move, so their walk order is the one recorded.
  auto [begin, end] = accessRange.lookup(f);
  accessOps = llvm::ArrayRef<Idx>(postAccess).slice(begin, end - begin);
  // As Canonicalizer::run: rules 1 and 2 once (with the dead ops erased
  // before the constants are sorted), then rules 3-5 to a fixpoint. Rules 3,
  // 4 and 5 depend on the view only through the edits counted in `edits`
  // (not on the order of constants, which rule 2 moves), so one that
  // changed nothing is skipped until the next edit.
  staticIndices();
  runRule(2, &CanonicalView::eraseDeadOps);
  hoistConstants();
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    changed |= runRule(0, &CanonicalView::mergeEqualOps);
    changed |= runRule(1, &CanonicalView::forwardAccesses);
    changed |= runRule(2, &CanonicalView::eraseDeadOps);
    if (!changed)
      break;
  }
  compactBlocksUnder(f);
  ++currentKeyStamp;
  for (unsigned ri = 0; ri < ops[f].numRegions; ++ri) {
    RegionRec reg = regions[ops[f].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      computeKeys(b);
  }
  forEachEditableBlock(f, [&](Idx b) { scheduleBlock(b); });
}

//===--- Rule 1 ------------------------------------------------------------===//

bool CanonicalView::staticIndices() {
  bool changed = false;
  for (Idx o : accessOps) {
    if (!state[o].alive)
      continue;
    QOpKind kind = state[o].kind;
    if (kind == QOpKind::Extract || kind == QOpKind::Insert) {
      std::optional<VAccess> a = access(o);
      APInt v;
      if (a && a->dynamicIdx != kNone &&
          matchPattern(value(a->dynamicIdx), m_ConstantInt(&v)) && !v.isNegative()) {
        // setStaticIndex
        if (std::optional<VAccess> b = access(o)) {
          if (b->dynamicIdx != kNone)
            eraseOperand(o, 1);
          int64_t idx = v.getSExtValue();
          overrideAttr(o, "idx_attr", idx);
          ops[o].hasStaticIdx = true;
          staticIdxs[ops[o].aux] = idx;
        }
        changed = true;
        ++counts.staticIndices;
      }
    } else if (kind == QOpKind::Alloc && ops[o].numOperands == 1) {
      APInt v;
      if (matchPattern(value(operand(o, 0)), m_ConstantInt(&v)) && !v.isNegative()) {
        eraseOperand(o, 0);
        overrideAttr(o, "nqubits_attr", v.getSExtValue());
        changed = true;
        ++counts.staticIndices;
      }
    }
  }
  return changed;
}

//===--- Rule 2 ------------------------------------------------------------===//

void CanonicalView::hoistConstants() {
  const OpRec &f = ops[func];
  if (f.numRegions == 0 || regions[f.firstRegion].numBlocks == 0)
    return;
  Idx entry = regions[f.firstRegion].firstBlock;
  LargeVector<Idx> plain, floats;
  floats.reserve(blocks[entry].ops.size());
  forEachEditableBlock(func, [&](Idx b) {
    forEachOpIn(b, [&](Idx o) {
      if (has(o, kConst))
        (has(o, kFloatConst) ? floats : plain).push_back(o);
    });
  });
  if (plain.empty() && floats.empty())
    return;

  // Sorted by exact header bytes, float constants last. The order of the
  // float constants among themselves is not computed: nothing depends on it
  // (the encoder skips them and counts them, rule 6 leaves constants alone,
  // and their keys do not depend on their position), so they stay in
  // collection order. (Whether the rule changed anything is not computed
  // either: Canonicalizer::run applies it once and ignores that.)
  llvm::stable_sort(plain, [&](Idx a, Idx b) {
    return headers[ops[a].header].exact < headers[ops[b].header].exact;
  });
  auto merge = [&](Idx op, Idx keep) {
    replaceAllUses(ops[op].firstResult, ops[keep].firstResult);
    erase(op);
    ++counts.constantsMerged;
  };
  size_t numPlain = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    if (numPlain && constKey(plain[i]) == constKey(plain[numPlain - 1])) {
      merge(plain[i], plain[numPlain - 1]);
      continue;
    }
    plain[numPlain++] = plain[i];
  }
  plain.resize(numPlain);
  // Equal keys among the floats: the first in collection order stays
  // (stable_sort keeps equal keys in that order). Found by sorting (key,
  // position) pairs: on large modules a hash set of the keys is a cache miss
  // per constant, the sort streams. (The order of the merges does not
  // matter: each only forwards one value and erases one op.)
  LargeVector<std::pair<uint64_t, Idx>> byKey(floats.size());
  for (size_t i = 0; i < floats.size(); ++i)
    byKey[i] = {constKey(floats[i]), Idx(i)};
  llvm::sort(byKey);
  LargeVector<char> merged(floats.size(), 0);
  for (size_t i = 1, first = 0; i < byKey.size(); ++i) {
    if (byKey[i].first != byKey[first].first) {
      first = i;
      continue;
    }
    merge(floats[byKey[i].second], floats[byKey[first].second]);
    merged[byKey[i].second] = 1;
  }
  size_t numFloats = 0;
  for (size_t i = 0; i < floats.size(); ++i)
    if (!merged[i])
      floats[numFloats++] = floats[i];
  floats.resize(numFloats);
  // The new entry block: the constants, then the other ops in order.
  hoistEntries.push_back(entry);
  for (LargeVector<Idx> *group : {&plain, &floats})
    for (Idx o : *group) {
      if (state[o].block != entry)
        hoistedFrom.try_emplace(o, state[o].block);
      state[o].block = entry;
    }
  LargeVector<Idx> &order = floats;
  order.insert(order.begin(), plain.begin(), plain.end());
  forEachOpIn(entry, [&](Idx o) {
    if (!has(o, kConst))
      order.push_back(o);
  });
  blocks[entry].ops = std::move(order);
}

//===--- Rule 3 ------------------------------------------------------------===//

bool CanonicalView::mergeEqualOps() {
  // Constants are left out: after rule 2 they are unique by exact header,
  // and OperationEquivalence never equates a constant with a non-constant
  // (same name, no operands) or two constants with different headers.
  bool changed = false;
  using Scope = llvm::DenseMap<uint64_t, SmallVector<Idx, 1>, MixedKeyInfo>;
  SmallVector<Scope> scopes;
  SmallVector<std::pair<Value, Idx>, 8> local;
  auto localValue = [&](Value v) -> Idx {
    for (auto &[val, s] : local)
      if (val == v)
        return s;
    return kNone;
  };
  auto hashOf = [&](Idx o) {
    // Any hash that equal ops share: identity and the multiset of operands.
    uint64_t sum = 0;
    for (unsigned i = 0; i < ops[o].numOperands; ++i)
      sum += mix64(uint64_t(operand(o, i)) + 1);
    return mix64(sum ^ (uint64_t(ops[o].identity) << 32));
  };
  auto equivalent = [&](Idx a, Idx b) {
    // OperationEquivalence::isEquivalentTo(IgnoreLocations) on the real ops,
    // comparing operands after the view's replacements.
    local.clear();
    for (Idx o : {a, b})
      for (unsigned i = 0; i < ops[o].numOperands; ++i)
        local.push_back({ops[o].op->getOperand(i), operand(o, i)});
    return OperationEquivalence::isEquivalentTo(
        ops[a].op, ops[b].op,
        [&](Value l, Value r) { return success(localValue(l) == localValue(r)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations,
        [&](ValueRange l, ValueRange r) {
          if (l.size() != r.size())
            return failure();
          SmallVector<Idx, 4> ls, rs;
          for (Value v : l)
            ls.push_back(localValue(v));
          for (Value v : r)
            rs.push_back(localValue(v));
          llvm::sort(ls);
          llvm::sort(rs);
          return success(ls == rs);
        });
  };
  std::function<void(Idx)> visitRegion = [&](Idx ri) {
    RegionRec reg = regions[ri];
    if (reg.numBlocks != 1)
      return;
    scopes.emplace_back();
    forEachOpIn(reg.firstBlock, [&](Idx o) {
      if (has(o, kMergeable)) {
        uint64_t h = hashOf(o);
        Idx found = kNone;
        // Same block only (mirrors CanonicalForm.cpp's mergeEqualOps).
        {
          Scope &scope = scopes.back();
          auto it = scope.find(h);
          if (it != scope.end())
            for (Idx c : it->second)
              if (equivalent(o, c)) {
                found = c;
                break;
              }
        }
        if (found != kNone) {
          for (unsigned i = 0; i < ops[o].numResults; ++i)
            replaceAllUses(ops[o].firstResult + i, ops[found].firstResult + i);
          erase(o);
          changed = true;
          ++counts.opsMerged;
          return;
        }
        scopes.back()[h].push_back(o);
      }
      if (ops[o].numRegions && has(o, kEditable) && !has(o, kIsolated))
        for (unsigned i = 0; i < ops[o].numRegions; ++i)
          visitRegion(ops[o].firstRegion + i);
    });
    scopes.pop_back();
  };
  for (unsigned i = 0; i < ops[func].numRegions; ++i)
    visitRegion(ops[func].firstRegion + i);
  return changed;
}

//===--- Rule 4 ------------------------------------------------------------===//

static bool sameIndex(const CanonicalView::VAccess &a, const CanonicalView::VAccess &b) {
  if (a.hasStatic && b.hasStatic)
    return a.staticIdx == b.staticIdx;
  return a.dynamicIdx != kNone && a.dynamicIdx == b.dynamicIdx;
}

static bool differentIndex(const CanonicalView::VAccess &a, const CanonicalView::VAccess &b) {
  return a.hasStatic && b.hasStatic && a.staticIdx != b.staticIdx;
}

bool CanonicalView::forwardAccesses() {
  bool changed = false;
  SmallVector<Idx> accesses;
  for (Idx o : accessOps)
    if (state[o].alive && (state[o].kind == QOpKind::Extract || state[o].kind == QOpKind::Insert))
      accesses.push_back(o);
  for (Idx op : accesses) {
    if (!state[op].alive)
      continue;
    std::optional<VAccess> a = access(op);
    if (!a)
      continue;
    if (!a->isInsert) {
      // Walk back through inserts at other static indices.
      while (true) {
        std::optional<VAccess> ins = accessOfDef(a->reg);
        if (!ins || !ins->isInsert)
          break;
        if (sameIndex(*a, *ins)) {
          replaceAllUses(ops[op].firstResult, ins->qubit);
          erase(op);
          changed = true;
          ++counts.accessesForwarded;
          break;
        }
        if (!differentIndex(*a, *ins))
          break;
        setOperand(op, 0, ins->reg);
        a->reg = ins->reg;
        changed = true;
        ++counts.accessesForwarded;
      }
      continue;
    }
    // insert(r, i, q) is r when r already holds q at i.
    {
      Idx r = a->reg;
      bool noop = false;
      while (true) {
        std::optional<VAccess> ins = accessOfDef(r);
        if (!ins || !ins->isInsert)
          break;
        if (sameIndex(*a, *ins)) {
          noop = ins->qubit == a->qubit;
          break;
        }
        if (!differentIndex(*a, *ins))
          break;
        r = ins->reg;
      }
      if (noop) {
        replaceAllUses(ops[op].firstResult, a->reg);
        erase(op);
        changed = true;
        ++counts.accessesForwarded;
        continue;
      }
    }
    // insert(insert(r, i, a), i, b) is insert(r, i, b), past single-use
    // inserts at other static indices.
    {
      Idx user = op;
      Idx r = a->reg;
      while (true) {
        std::optional<VAccess> prev = accessOfDef(r);
        if (!prev || !prev->isInsert)
          break;
        if (sameIndex(*a, *prev)) {
          if (user == op || uses[resolve(r)] == 1) {
            setOperand(user, 0, prev->reg);
            if (user == op)
              a->reg = prev->reg;
            changed = true;
            ++counts.accessesForwarded;
          }
          break;
        }
        if (!differentIndex(*a, *prev) || uses[resolve(r)] != 1)
          break;
        user = prev->op;
        r = prev->reg;
      }
    }
    // insert(r, i, extract(r', i)) is r when r holds at i what r' held.
    if (std::optional<VAccess> ext = accessOfDef(a->qubit);
        ext && !ext->isInsert && sameIndex(*a, *ext)) {
      Idx r = a->reg;
      while (r != ext->reg) {
        std::optional<VAccess> ins = accessOfDef(r);
        if (!ins || !ins->isInsert || !differentIndex(*a, *ins))
          break;
        r = ins->reg;
      }
      if (r == ext->reg) {
        replaceAllUses(ops[op].firstResult, a->reg);
        erase(op);
        changed = true;
        ++counts.accessesForwarded;
      }
    }
  }
  return changed;
}

//===--- Rule 5 ------------------------------------------------------------===//

bool CanonicalView::eraseDeadOps() {
  bool changed = false;
  LargeVector<Idx> order;
  order.reserve(ops.size());
  forEachEditableBlock(func, [&](Idx b) { forEachOpIn(b, [&](Idx o) { order.push_back(o); }); });
  for (Idx o : llvm::reverse(order)) {
    if (!state[o].alive) // erased here, or nested in an op erased here
      continue;
    if (!useEmpty(o) || has(o, kTerminator) || isOrdered(o))
      continue;
    erase(o);
    changed = true;
    ++counts.deadOpsErased;
  }
  return changed;
}

//===--- Rule 6 ------------------------------------------------------------===//

void CanonicalView::argKey(Idx v, unsigned argNumber) {
  ByteSink a;
  a.u8('a');
  a.u64(argNumber);
  shapeEncoder.encodeType(value(v).getType(), a);
  valueScratch[v] = llvm::xxh3_64bits(a.str());
  keyStamp[v] = currentKeyStamp;
}

uint64_t CanonicalView::opKey(Idx o) {
  ByteSink sink;
  sink.raw(headers[ops[o].header].shape);
  for (unsigned i = 0; i < ops[o].numOperands; ++i) {
    Idx v = operand(o, i);
    sink.u64(keyStamp[v] == currentKeyStamp ? valueScratch[v] : 0);
  }
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    sink.u8('{');
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b) {
      for (unsigned k = 0; k < blocks[b].numArgs; ++k)
        argKey(blocks[b].firstArg + k, k);
      SmallVector<uint64_t> nested;
      for (size_t i = 0; i < blocks[b].ops.size(); ++i)
        nested.push_back(opKey(blocks[b].ops[i]));
      llvm::sort(nested);
      for (uint64_t k : nested)
        sink.u64(k);
    }
    sink.u8('}');
  }
  uint64_t key = llvm::xxh3_64bits(sink.str());
  opKeys[o] = key;
  for (unsigned i = 0; i < ops[o].numResults; ++i) {
    Idx v = ops[o].firstResult + i;
    valueScratch[v] = mix64(key + 0x9E3779B97F4A7C15ull * (uint64_t(i) + 1));
    keyStamp[v] = currentKeyStamp;
  }
  return key;
}

void CanonicalView::computeKeys(Idx b) {
  for (unsigned k = 0; k < blocks[b].numArgs; ++k)
    argKey(blocks[b].firstArg + k, k);
  for (size_t i = 0; i < blocks[b].ops.size(); ++i)
    opKey(blocks[b].ops[i]);
}

void CanonicalView::scheduleBlock(Idx b) {
  constexpr uint32_t kFloatingBit = 0x80000000u;
  // Blocks are compacted: the list holds exactly the live ops of `b`.
  LargeVector<Idx> &list = blocks[b].ops;
  Idx terminator = !list.empty() && has(list.back(), kTerminator) ? list.back() : kNone;
  LargeVector<Idx> mainOps, floatingOps;
  for (Idx o : list) {
    if (o == terminator || has(o, kConst))
      continue;
    if (has(o, kMergeable)) {
      opSlot[o] = kFloatingBit | uint32_t(floatingOps.size());
      floatingOps.push_back(o);
      continue;
    }
    opSlot[o] = mainOps.size();
    mainOps.push_back(o);
  }
  llvm::scope_exit resetSlots([&] {
    for (Idx o : mainOps)
      opSlot[o] = kNone;
    for (Idx o : floatingOps)
      opSlot[o] = kNone;
  });
  size_t n = mainOps.size();
  auto isFloating = [&](Idx o) { return opSlot[o] != kNone && (opSlot[o] & kFloatingBit); };
  auto isMain = [&](Idx o) { return opSlot[o] != kNone && !(opSlot[o] & kFloatingBit); };

  // Block::findAncestorOpInBlock on the view.
  auto producerInBlock = [&](Idx v) -> Idx {
    Idx d = definingOp(v);
    while (d != kNone) {
      Idx db = state[d].block;
      if (db == b)
        return d;
      if (db == kNone)
        return kNone;
      d = blocks[db].parentOp;
    }
    return kNone;
  };
  // Operands of `op` and of the ops nested in it (Operation::walk order).
  std::function<void(Idx, function_ref<void(Idx)>)> forEachNestedOperand =
      [&](Idx o, function_ref<void(Idx)> fn) {
        for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
          RegionRec reg = regions[ops[o].firstRegion + ri];
          for (Idx nb = reg.firstBlock; nb < reg.firstBlock + reg.numBlocks; ++nb)
            for (size_t i = 0; i < blocks[nb].ops.size(); ++i) {
              Idx inner = blocks[nb].ops[i];
              forEachNestedOperand(inner, fn);
              for (unsigned k = 0; k < ops[inner].numOperands; ++k)
                fn(operand(inner, k));
            }
        }
      };
  auto forEachOperand = [&](Idx o, function_ref<void(Idx)> fn) {
    for (unsigned k = 0; k < ops[o].numOperands; ++k)
      fn(operand(o, k));
    if (ops[o].numRegions)
      forEachNestedOperand(o, fn);
  };
  // Main-op producers of a floating op, looking through floating chains.
  LargeVector<SmallVector<unsigned, 2>> floatingProducers(floatingOps.size());
  LargeVector<char> producersKnown(floatingOps.size(), 0);
  std::function<const SmallVector<unsigned, 2> &(Idx)> producersOf =
      [&](Idx f) -> const SmallVector<unsigned, 2> & {
    uint32_t fi = opSlot[f] & ~kFloatingBit;
    if (producersKnown[fi])
      return floatingProducers[fi];
    SmallVector<unsigned, 2> result;
    for (unsigned k = 0; k < ops[f].numOperands; ++k) {
      Idx p = producerInBlock(operand(f, k));
      if (p == kNone)
        continue;
      if (isFloating(p)) {
        for (unsigned q : producersOf(p))
          if (!llvm::is_contained(result, q))
            result.push_back(q);
      } else if (isMain(p)) {
        if (!llvm::is_contained(result, opSlot[p]))
          result.push_back(opSlot[p]);
      }
    }
    producersKnown[fi] = 1;
    floatingProducers[fi] = std::move(result);
    return floatingProducers[fi];
  };

  // Edges, in compressed rows: every edge into i is added while visiting i.
  LargeVector<unsigned> predStart(n + 1), preds;
  preds.reserve(2 * n);
  int lastOrdered = -1;
  for (unsigned i = 0; i < n; ++i) {
    predStart[i] = preds.size();
    auto addEdge = [&](unsigned from) {
      if (from == i || std::find(preds.begin() + predStart[i], preds.end(), from) != preds.end())
        return;
      preds.push_back(from);
    };
    Idx o = mainOps[i];
    forEachOperand(o, [&](Idx v) {
      Idx p = producerInBlock(v);
      if (p == kNone)
        return;
      if (isFloating(p)) {
        for (unsigned q : producersOf(p))
          addEdge(q);
      } else if (isMain(p)) {
        addEdge(opSlot[p]);
      }
    });
    if (isOrdered(o)) {
      if (lastOrdered >= 0)
        addEdge(unsigned(lastOrdered));
      lastOrdered = int(i);
    }
  }
  predStart[n] = preds.size();
  LargeVector<unsigned> userStart(n + 1, 0), users(preds.size()), indegree(n);
  for (unsigned p : preds)
    ++userStart[p + 1];
  for (size_t i = 0; i < n; ++i) {
    userStart[i + 1] += userStart[i];
    indegree[i] = predStart[i + 1] - predStart[i];
  }
  {
    LargeVector<unsigned> fill(userStart.begin(), userStart.end() - 1);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned k = predStart[i]; k < predStart[i + 1]; ++k)
        users[fill[preds[k]]++] = i;
  }

  // Wires: the static index a qubit was extracted from, carried through
  // gates (out qubit k continues in qubit k). Kept in the value scratch,
  // marked by a fresh stamp (the keys there are not needed any more).
  uint32_t wstamp = ++currentKeyStamp;
  auto wireOfValue = [&](Idx v) -> int64_t {
    return keyStamp[v] == wstamp ? int64_t(valueScratch[v]) : -1;
  };
  auto setWire = [&](Idx v, int64_t w) {
    keyStamp[v] = wstamp;
    valueScratch[v] = uint64_t(w);
  };
  auto isGate = [&](Idx o) {
    return state[o].kind == QOpKind::Gate || state[o].kind == QOpKind::GlobalPhase;
  };
  for (Idx o : list) {
    if (std::optional<VAccess> a = access(o)) {
      if (!a->isInsert && a->hasStatic)
        setWire(a->result, a->staticIdx);
      continue;
    }
    if (isGate(o)) {
      const GateInfo &gi = gateInfo(o);
      for (unsigned k = 0; k < ops[o].numOperands; ++k)
        if (gi.outFor[k] >= 0)
          if (int64_t w = wireOfValue(operand(o, k)); w >= 0)
            setWire(ops[o].firstResult + gi.outFor[k], w);
    }
  }
  auto wireOfOp = [&](Idx o) -> int64_t {
    if (std::optional<VAccess> a = access(o))
      return a->isInsert ? wireOfValue(a->qubit) : (a->hasStatic ? a->staticIdx : -1);
    int64_t w = -1;
    if (isGate(o)) {
      const GateInfo &gi = gateInfo(o);
      auto consider = [&](unsigned begin, unsigned size) {
        for (unsigned k = begin; k < begin + size; ++k)
          if (int64_t x = wireOfValue(operand(o, k)); x >= 0 && (w < 0 || x < w))
            w = x;
      };
      consider(gi.inBegin, gi.inSize);
      consider(gi.ctrlBegin, gi.ctrlSize);
    }
    return w;
  };

  struct Item {
    bool ordered;
    int recency;
    uint32_t rank;
    int64_t wire;
    uint64_t key;
    unsigned idx;
  };
  auto worse = [](const Item &a, const Item &b) { // priority_queue: top is best
    if (a.ordered != b.ordered)
      return a.ordered;
    if (a.recency != b.recency)
      return a.recency < b.recency;
    if (a.rank != b.rank)
      return a.rank > b.rank;
    if (a.wire != b.wire)
      return a.wire > b.wire;
    if (a.key != b.key)
      return a.key > b.key;
    return a.idx > b.idx;
  };
  LargeVector<int> pos(n, -1);
  auto makeItem = [&](unsigned i) {
    int recency = -1;
    for (unsigned k = predStart[i]; k < predStart[i + 1]; ++k)
      recency = std::max(recency, pos[preds[k]]);
    Idx o = mainOps[i];
    return Item{isOrdered(o), recency, nameRank[ops[o].name], wireOfOp(o), opKeys[o], i};
  };
  std::priority_queue<Item, LargeVector<Item>, decltype(worse)> ready(worse);
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      ready.push(makeItem(i));
  LargeVector<Idx> mainOrder;
  mainOrder.reserve(n);
  int counter = 0;
  while (!ready.empty()) {
    Item it = ready.top();
    ready.pop();
    pos[it.idx] = counter++;
    mainOrder.push_back(mainOps[it.idx]);
    for (unsigned k = userStart[it.idx]; k < userStart[it.idx + 1]; ++k)
      if (--indegree[users[k]] == 0)
        ready.push(makeItem(users[k]));
  }
  if (mainOrder.size() != n)
    return; // a use before its definition (graph-like block): leave it

  // Interleave floating ops: each right before its first user, its own
  // floating operands first (operand order).
  LargeVector<Idx> order;
  order.reserve(list.size());
  for (Idx o : list) // constants stay first, in their order
    if (has(o, kConst) && o != terminator)
      order.push_back(o);
  LargeVector<char> placed(floatingOps.size(), 0);
  std::function<void(Idx)> place = [&](Idx f) {
    uint32_t fi = opSlot[f] & ~kFloatingBit;
    if (placed[fi])
      return;
    placed[fi] = 1;
    for (unsigned k = 0; k < ops[f].numOperands; ++k)
      if (Idx p = producerInBlock(operand(f, k)); p != kNone && isFloating(p))
        place(p);
    order.push_back(f);
  };
  auto placeOperandsOf = [&](Idx o) {
    forEachOperand(o, [&](Idx v) {
      if (Idx p = producerInBlock(v); p != kNone && isFloating(p))
        place(p);
    });
  };
  for (Idx o : mainOrder) {
    placeOperandsOf(o);
    order.push_back(o);
  }
  if (terminator != kNone)
    placeOperandsOf(terminator);
  for (Idx o : list) // floating ops without users in this block
    if (isFloating(o) && !placed[opSlot[o] & ~kFloatingBit])
      place(o);
  if (terminator != kNone)
    order.push_back(terminator);
  assert(order.size() == list.size());
  list = std::move(order);
}

//===----------------------------------------------------------------------===//
// Writing the view back to the IR.
//===----------------------------------------------------------------------===//

/// Rule 2's order of the float constants, which the view leaves in
/// collection order (see hoistConstants): by exact header bytes, as
/// Canonicalizer::hoistConstants sorts them. The float constants are the
/// tail of the run of constants that starts `list`.
void CanonicalView::sortFloatConstants(LargeVector<Idx> &list) {
  size_t end = 0;
  while (end < list.size() && has(list[end], kConst))
    ++end;
  size_t begin = end;
  while (begin > 0 && has(list[begin - 1], kFloatConst))
    --begin;
  if (end - begin < 2)
    return;
  // Exact header bytes of each, in one buffer. A kFastFloat constant's are
  // built from its value as computeHeader verified they can be.
  std::string bytes;
  struct Key {
    Idx op;
    uint32_t size;
    uint64_t offset;
    uint64_t head; ///< big-endian bytes [prefix, prefix + 8): compares as the text
  };
  LargeVector<Key> keys;
  keys.reserve(end - begin);
  ByteSink sink;
  for (size_t i = begin; i < end; ++i) {
    Idx o = list[i];
    StringRef exact;
    if (has(o, kFastFloat)) {
      SmallVector<NamedAttribute, 1> attrs{NamedAttribute(valueName, constValue(o))};
      sink.clear();
      exactEncoder.encodeOpHeader(names[ops[o].name].name, attrs, ops[o].op->getResultTypes(),
                                  sink);
      exact = sink.str();
    } else {
      exact = headers[ops[o].header].exact;
    }
    keys.push_back({o, uint32_t(exact.size()), bytes.size(), 0});
    bytes.append(exact.begin(), exact.end());
  }
  auto text = [&](const Key &k) { return StringRef(bytes.data() + k.offset, k.size); };
  // Most comparisons are decided by the 8 bytes after the prefix all keys
  // share (for f64 constants: the value's bits).
  size_t prefix = keys[0].size;
  for (const Key &k : keys) {
    StringRef a = text(keys[0]), b = text(k);
    size_t n = 0, m = std::min({prefix, a.size(), b.size()});
    while (n < m && a[n] == b[n])
      ++n;
    prefix = n;
  }
  for (Key &k : keys) {
    StringRef t = text(k);
    for (size_t i = 0; i < 8; ++i)
      k.head = (k.head << 8) | (prefix + i < t.size() ? uint8_t(t[prefix + i]) : 0);
  }
  // Equal headers were merged by rule 2, so no two keys are equal and the
  // order is total.
  llvm::sort(keys, [&](const Key &a, const Key &b) {
    if (a.head != b.head)
      return a.head < b.head;
    return text(a).drop_front(prefix) < text(b).drop_front(prefix);
  });
  for (size_t i = begin; i < end; ++i)
    list[i] = keys[i - begin].op;
}

LogicalResult CanonicalView::materialize(CanonicalizeStats &stats, bool sortFloats) {
  MLIRContext *ctx = ops[0].op->getContext();
  // Every IR use of a replaced value goes to its replacement.
  for (Idx v = 0, e = numValues(); v < e; ++v)
    if (repl[v] != v)
      value(v).replaceAllUsesWith(value(resolve(v)));
  // Operand lists edited in place: static indices first (they drop an
  // operand), then every operand as the view has it.
  for (const AttrEdit &edit : attrEdits) {
    Operation *op = ops[edit.op].op;
    if (!state[edit.op].alive)
      continue;
    if (edit.name == "idx_attr") {
      setStaticIndex(op, edit.value);
    } else {
      op->eraseOperand(0);
      op->setAttr(edit.name, Builder(ctx).getI64IntegerAttr(edit.value));
    }
  }
  for (Idx o : dirtyOps) {
    if (!state[o].alive)
      continue;
    Operation *op = ops[o].op;
    if (op->getNumOperands() != ops[o].numOperands)
      return op->emitError("qshape canonical form: internal error: operand count of the view ")
             << ops[o].numOperands << " differs from the op's " << op->getNumOperands();
    for (unsigned i = 0; i < ops[o].numOperands; ++i)
      if (Value want = value(operand(o, i)); op->getOperand(i) != want)
        op->setOperand(i, want);
  }
  // Orders, and the constants hoisted into entry blocks: every live op of a
  // changed block moves to its end in the view's order, leaving the dead
  // ops in front. (Before erasing: a live constant may still sit in a dead
  // op's region.)
  if (sortFloats)
    for (Idx b : hoistEntries)
      sortFloatConstants(blocks[b].ops);
  // From the back of each block, every live op goes right before its
  // successor unless it is there already, so only ops that change place
  // move, and the list is never walked (on large blocks each step of a walk
  // is a cache miss; the ops here come from an array and are prefetched).
  for (Idx b = 0, nb = blocks.size(); b < nb; ++b) {
    BlockRec &rec = blocks[b];
    if (state[rec.parentOp].alive &&
        canonical::placeInOrder(*rec.block, rec.ops.size(),
                                [&](size_t i) { return ops[rec.ops[i]].op; }, nullptr))
      ++stats.blocksReordered;
  }
  // Dead ops: the outermost ones where they are in the IR (a dead constant
  // may still be in the block it was hoisted from), after every dead op has
  // dropped its operands (dead ops may use each other's results).
  LargeVector<Operation *> dead;
  for (Idx o = 1, e = ops.size(); o < e; ++o) {
    if (state[o].alive)
      continue;
    Idx b = state[o].block;
    if (has(o, kConst))
      if (auto it = hoistedFrom.find(o); it != hoistedFrom.end())
        b = it->second;
    if (state[blocks[b].parentOp].alive)
      dead.push_back(ops[o].op);
  }
  for (Operation *op : dead)
    op->dropAllReferences();
  for (Operation *op : dead) {
    if (!op->use_empty())
      return op->emitError("qshape canonical form: internal error: an op the view erased is "
                           "still used");
    op->erase();
  }
  stats.opsBefore += ops.size() - 1;
  stats.staticIndices += counts.staticIndices;
  stats.constantsMerged += counts.constantsMerged;
  stats.opsMerged += counts.opsMerged;
  stats.accessesForwarded += counts.accessesForwarded;
  stats.deadOpsErased += counts.deadOpsErased;
  return success();
}

void CanonicalView::blockOrder(BlockOrder &order) {
  std::function<void(Idx)> visit = [&](Idx o) {
    for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
      RegionRec reg = regions[ops[o].firstRegion + ri];
      for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b) {
        std::vector<Operation *> list;
        list.reserve(blocks[b].ops.size());
        for (Idx inner : blocks[b].ops) {
          if (ops[inner].numRegions)
            visit(inner);
          list.push_back(ops[inner].op);
        }
        order.blocks.push_back(blocks[b].block);
        order.ops.push_back(std::move(list));
      }
    }
  };
  visit(0);
}

} // namespace fpview
} // namespace qshape
