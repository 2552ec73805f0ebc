//===- Tokenizer.cpp - qshape-roll-loops: op tokens -----------------------===//

#include "Tokenizer.h"

#include "qshape/GateView/GateView.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

namespace qshape::roll {

uint64_t Tokenizer::token(Operation *op) {
  if (op->getNumRegions()) {
    if (auto it = regionTokens.find(op); it != regionTokens.end())
      return it->second;
    uint64_t t = compute(op);
    regionTokens[op] = t; // (compute may have grown the map)
    return t;
  }
  // A token depends only on the name, properties, discardable attributes
  // and operand and result types: ops equal in those share it (a circuit
  // has few distinct gates, and building the properties' dictionary is
  // most of the cost).
  OperationName name = op->getName();
  OpaqueProperties props = op->getPropertiesStorage();
  llvm::hash_code h = llvm::hash_combine(name.getAsOpaquePointer(),
                                         props ? name.hashOpProperties(props) : llvm::hash_code(0),
                                         op->getRawDictionaryAttrs().getAsOpaquePointer());
  for (Type t : op->getResultTypes())
    h = llvm::hash_combine(h, t.getAsOpaquePointer());
  for (Value v : op->getOperands())
    h = llvm::hash_combine(h, v.getType().getAsOpaquePointer());
  SmallVector<std::pair<Operation *, uint64_t>, 1> &bucket = memo[size_t(h)];
  for (auto &[rep, token] : bucket)
    if (sameTokenInputs(rep, op))
      return token;
  uint64_t t = compute(op);
  bucket.push_back({op, t});
  return t;
}

bool Tokenizer::sameTokenInputs(Operation *a, Operation *b) {
  if (a->getName() != b->getName() || a->getRawDictionaryAttrs() != b->getRawDictionaryAttrs() ||
      a->getResultTypes() != b->getResultTypes() || a->getOperandTypes() != b->getOperandTypes())
    return false;
  OpaqueProperties pa = a->getPropertiesStorage(), pb = b->getPropertiesStorage();
  if (!pa || !pb)
    return !pa && !pb;
  return a->getName().compareOpProperties(pa, pb);
}

uint64_t Tokenizer::compute(Operation *op) {
  ByteSink sink;
  sink.bytes(op->getName().getStringRef());
  SmallVector<NamedAttribute> attrs;
  if (Attribute props = op->getPropertiesAsAttribute())
    if (auto dict = dyn_cast<DictionaryAttr>(props))
      attrs.append(dict.begin(), dict.end());
  for (NamedAttribute na : op->getDiscardableAttrs())
    attrs.push_back(na);
  llvm::sort(attrs, [](const NamedAttribute &a, const NamedAttribute &b) {
    return a.getName().getValue() < b.getName().getValue();
  });
  for (NamedAttribute &na : attrs) {
    if (na.getName().getValue() == kStaticIndexAttr)
      continue;
    sink.bytes(na.getName().getValue());
    enc.encodeAttr(na.getValue(), sink);
  }
  for (Type t : op->getResultTypes())
    enc.encodeType(t, sink);
  for (Value v : op->getOperands())
    enc.encodeType(v.getType(), sink);
  // Which operands come from an index-style static/dynamic slot matters.
  sink.u64(op->getNumOperands());
  // The ops of each region's blocks, by their tokens, which hold what is
  // nested deeper (walking every depth here computed each nested region's
  // token once per enclosing level: 2^depth).
  for (Region &r : op->getRegions()) {
    sink.u8('{');
    for (Block &block : r) {
      sink.u8('^');
      for (Operation &inner : block)
        sink.u64(token(&inner));
    }
    sink.u8('}');
  }
  return llvm::xxh3_64bits(sink.str());
}

} // namespace qshape::roll
