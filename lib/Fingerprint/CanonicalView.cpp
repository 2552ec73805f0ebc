//===- CanonicalView.cpp - the canonical form's engine: the view ----------===//
//
// Building the view, its edits and traversals, and writing it back to the IR.
// The rules are in CanonicalRules.cpp.
//
//===----------------------------------------------------------------------===//

#include "CanonicalView.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/Barriers.h"
#include "qshape/GateView/GateView.h"

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

namespace qshape::fpview {

static constexpr size_t kLargeBytes = size_t{1024} * 1024;

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
  (void)llvm::sys::Memory::releaseMappedMemory(block); // best effort: at worst a leak
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
  for (Idx &slot : lastIdentity) {
    Idx id = slot;
    if (id != kNone && sameIdentity(op, identityOp[id])) {
      std::swap(lastIdentity[0], slot);
      return id;
    }
  }
  llvm::hash_code h =
      llvm::hash_combine(op->getName().getAsOpaquePointer(),
                         op->getRawDictionaryAttrs().getAsOpaquePointer(), op->getNumResults());
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
    if (plain && inherent && *inherent == value && op->getResult(0).getType() == value.getType()) {
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
  if (d & kExternalBit)
    return externalValues[d & ~(kArgBit | kExternalBit)];
  const BlockRec &b = blocks[d & ~kArgBit];
  return b.block->getArgument(v - b.firstArg);
}

/// Operands mostly use values defined shortly before: their ops are found in
/// a small direct-mapped cache of recently added ops. The others are
/// resolved after the walk (build), with a map of just the ops they need.
unsigned CanonicalView::recentSlot(Operation *op) const {
  auto p = reinterpret_cast<uintptr_t>(op);
  return unsigned((p >> 4) ^ (p >> 16)) & (recentOps.size() - 1);
}

void CanonicalView::growRecent() {
  size_t slots = std::min<size_t>(2 * recentOps.size(), kRecent);
  recentOps.assign(slots, {nullptr, kNone});
  for (Idx o = ops.size() - std::min<size_t>(ops.size(), slots); o < ops.size(); ++o)
    recentOps[recentSlot(ops[o].op)] = {ops[o].op, o};
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
  if (o == recentOps.size() && o < kRecent)
    growRecent();
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
      pendingOperands.emplace_back(Idx(operandValues.size()), v);
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
  // A qref op never floats: its place among the barriers is part of the
  // program, as its value-semantics twin's is.
  if (!(st.flags & kConst) && ni.registered && r.numRegions == 0 && r.numResults > 0 &&
      ni.kind == QOpKind::NotQuantum && !ni.terminator && !isQRefOp(op) && isMemoryEffectFree(op))
    st.flags |= kMergeable;
  if (r.numRegions && canonical::mayEditRegionsOf(op))
    st.flags |= kEditable;
  if (ni.kind == QOpKind::Extract || ni.kind == QOpKind::Insert) {
    r.aux = staticIdxs.size();
    staticIdxs.push_back(0);
    accessEpochs.push_back(parentBlock == kNone ? 0 : blocks[parentBlock].barriers);
    if (auto i = dyn_cast_or_null<IntegerAttr>(op->getAttr(kStaticIndexAttr))) {
      r.hasStaticIdx = true;
      staticIdxs.back() = i.getInt();
    }
  }
  computeHeader(o);
  // isOrdered() is needed for nearly every non-constant op (eraseDeadOps, the schedule):
  // computed while the op is in cache. (A memory-effect-free op without
  // regions is never ordered.)
  if (state[o].flags & kMergeable)
    ops[o].ordered = 0;
  else if (!(state[o].flags & kConst))
    ops[o].ordered = buildFacts->isOrdered(op) ? 1 : 0;
  Idx accessBegin = postAccess.size();

  if (!addRegions(o, op))
    return false;
  // Barriers, and the ops they pin: the nested ops' flags are known by now.
  // (A pure op, e.g. a gate, is never a barrier.)
  // (`st` is still this op's: the segments of `state` never move.)
  QOpKind k = st.kind;
  if (ops[o].ordered == 1 ||
      (k == QOpKind::NotQuantum && !(st.flags & (kConst | kMergeable | kTerminator))))
    if (buildFacts->isBarrier(op))
      st.flags |= kBarrier;
  if (k != QOpKind::NotQuantum || isQRefOp(op) || ops[o].ordered == 1 ||
      (st.flags & kPinnedInside)) {
    st.flags |= kPinned;
    if (parentBlock != kNone)
      state[blocks[parentBlock].parentOp].flags |= kPinnedInside;
  }
  if (k == QOpKind::Extract || k == QOpKind::Insert || k == QOpKind::Alloc)
    postAccess.push_back(o);
  if (state[o].flags & kFuncLike) {
    postFuncs.push_back(o);
    accessRange[o] = {accessBegin, Idx(postAccess.size())};
  }
  return true;
}

bool CanonicalView::addRegions(Idx o, Operation *op) {
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
      if (bi >= kExternalBit)
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
        if (state[c].flags & kBarrier)
          ++blocks[bi].barriers;
      }
  }
  return true;
}

std::unique_ptr<CanonicalView> CanonicalView::build(Operation *root, EncoderTexts *texts) {
  std::unique_ptr<CanonicalView> v = buildShadow(root, texts);
  if (!v)
    root->emitError("qshape canonical form: the module exceeds the canonical view's limits "
                    "(2^31 ops, values or blocks, 2^16 op names); split it");
  return v;
}

std::unique_ptr<CanonicalView> CanonicalView::buildShadow(Operation *root, EncoderTexts *texts) {
  std::unique_ptr<CanonicalView> v(new CanonicalView());
  if (texts) {
    v->exactEncoder.shareTexts(*texts);
    v->shapeEncoder.shareTexts(*texts);
  }
  v->valueName = StringAttr::get(root->getContext(), "value");
  v->recentOps.assign(kRecentFirst, {nullptr, kNone});
  v->buildFacts.emplace();
  bool added = v->addOp(root, kNone);
  v->buildFacts.reset();
  if (!added)
    return nullptr;
  if (!v->pendingOperands.empty()) {
    // The ops that define the remaining operands, by one pass over the ops;
    // the values defined outside the root become external values.
    llvm::DenseMap<Operation *, Idx> wanted;
    for (auto &[pos, value] : v->pendingOperands)
      if (auto r = dyn_cast<OpResult>(value))
        wanted.try_emplace(r.getOwner(), kNone);
    for (Idx o = 0, e = v->ops.size(); o < e; ++o)
      if (auto it = wanted.find(v->ops[o].op); it != wanted.end())
        it->second = o;
    llvm::DenseMap<Value, Idx> externals;
    for (auto &[pos, value] : v->pendingOperands) {
      Idx s = kNone;
      if (auto r = dyn_cast<OpResult>(value)) {
        Idx o = wanted.lookup(r.getOwner());
        if (o != kNone)
          s = v->ops[o].firstResult + r.getResultNumber();
      } else {
        s = v->lookupValue(value);
      }
      if (s == kNone) {
        auto [it, inserted] = externals.try_emplace(value, Idx(v->valueDef.size()));
        if (inserted) {
          if (v->valueDef.size() >= kArgBit || v->externalValues.size() >= kExternalBit)
            return nullptr;
          v->valueDef.push_back(kArgBit | kExternalBit | Idx(v->externalValues.size()));
          v->externalValues.push_back(value);
        }
        s = it->second;
      }
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
      for (Idx op : blocks[b].ops)
        if (ops[op].numRegions)
          compactBlocksUnder(op);
    }
  }
}

//===----------------------------------------------------------------------===//
// Writing the view back to the IR.
//===----------------------------------------------------------------------===//

/// The order of the float constants, which the view leaves in collection
/// order (see hoistConstants): by exact header bytes, as the other constants.
/// The float constants are the tail of the run of constants that starts
/// `list`.
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
  // Equal headers were merged by hoistConstants, so no two keys are equal and the
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
    if (edit.name == kStaticIndexAttr) {
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
  for (BlockRec &rec : blocks) {
    if (state[rec.parentOp].alive)
      canonical::placeInOrder(
          *rec.block, rec.ops.size(), [&](size_t i) { return ops[rec.ops[i]].op; }, nullptr);
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
  stats.rewrites.resize(counts.size());
  for (size_t i = 0; i < counts.size(); ++i)
    stats.rewrites[i] += counts[i];
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

} // namespace qshape::fpview
