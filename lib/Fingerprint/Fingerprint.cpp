//===- Fingerprint.cpp - process-stable structural fingerprints -----------===//

#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Encoding.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/BLAKE3.h"

using namespace mlir;

namespace qshape {

std::string formatDigest(const Digest &d) {
  static const char *hex = "0123456789abcdef";
  std::string s = "blake3:";
  s.reserve(7 + 64);
  for (uint8_t b : d) {
    s.push_back(hex[b >> 4]);
    s.push_back(hex[b & 15]);
  }
  return s;
}

namespace {

/// Streams the encoding of an op tree into two BLAKE3 states at once: exact
/// (float bits included) and shape (float values abstracted). Values are
/// numbered by first definition; float constants are encoded inline at each
/// use, so neither their position nor their sharing matters.
class DigestWriter {
public:
  DigestWriter() : exactEnc(false), shapeEnc(true) {
    for (ByteSink *s : {&exactSink, &shapeSink}) {
      s->bytes("qshape-fingerprint");
      s->u64(kFingerprintSchemaVersion);
    }
    exactSink.u8('x');
    shapeSink.u8('s');
  }

  void encodeOp(Operation *op) {
    if (isFloatConstant(op))
      return; // encoded at its uses
    exactEnc.encodeOpHeader(op, exactSink);
    shapeEnc.encodeOpHeader(op, shapeSink);
    both([&](ByteSink &s) { s.u64(op->getNumOperands()); });
    for (Value v : op->getOperands())
      encodeOperand(v);
    both([&](ByteSink &s) { s.u64(op->getNumRegions()); });
    for (Region &region : op->getRegions()) {
      DenseMap<Block *, uint64_t> blockIds;
      for (Block &b : region)
        blockIds[&b] = blockIds.size();
      both([&](ByteSink &s) { s.u64(blockIds.size()); });
      for (Block &block : region) {
        both([&](ByteSink &s) { s.u64(block.getNumArguments()); });
        for (BlockArgument arg : block.getArguments()) {
          exactEnc.encodeType(arg.getType(), exactSink);
          shapeEnc.encodeType(arg.getType(), shapeSink);
          valueIds[arg] = nextId++;
        }
        both([&](ByteSink &s) { s.u64(block.getOperations().size()); });
        for (Operation &inner : block) {
          encodeOp(&inner);
          both([&](ByteSink &s) {
            s.u64(inner.getNumSuccessors());
            for (Block *succ : inner.getSuccessors())
              s.u64(blockIds.lookup(succ));
          });
        }
      }
      flush();
    }
    for (Value r : op->getResults())
      valueIds[r] = nextId++;
    if (exactSink.size() > (1 << 16))
      flush();
  }

  Fingerprint finish() {
    flush();
    Fingerprint fp;
    fp.exact = exactHash.final();
    fp.shape = shapeHash.final();
    return fp;
  }

private:
  template <typename Fn> void both(Fn fn) {
    fn(exactSink);
    fn(shapeSink);
  }

  void encodeOperand(Value v) {
    Operation *def = v.getDefiningOp();
    if (def && isFloatConstant(def)) {
      Attribute value = def->getAttr("value");
      exactSink.u8('C');
      exactEnc.encodeAttr(value, exactSink);
      shapeSink.u8('C');
      shapeEnc.encodeAttr(value, shapeSink);
      return;
    }
    auto it = valueIds.find(v);
    // A value from outside the fingerprinted op: only its type is known.
    uint64_t id = it == valueIds.end() ? ~uint64_t(0) : it->second;
    both([&](ByteSink &s) { s.u64(id); });
    if (it == valueIds.end()) {
      exactEnc.encodeType(v.getType(), exactSink);
      shapeEnc.encodeType(v.getType(), shapeSink);
    }
  }

  void flush() {
    exactHash.update(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(exactSink.str().data()), exactSink.size()));
    shapeHash.update(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(shapeSink.str().data()), shapeSink.size()));
    exactSink.clear();
    shapeSink.clear();
  }

  StructuralEncoder exactEnc, shapeEnc;
  ByteSink exactSink, shapeSink;
  llvm::BLAKE3 exactHash, shapeHash;
  DenseMap<Value, uint64_t> valueIds;
  uint64_t nextId = 0;
};

Fingerprint digestOf(Operation *op) {
  DigestWriter w;
  w.encodeOp(op);
  return w.finish();
}

bool isFunctionLike(Operation *op) {
  return isa<FunctionOpInterface>(op) || op->getName().getStringRef() == "func.func";
}

std::string symbolName(Operation *op) {
  if (auto s = dyn_cast_or_null<StringAttr>(op->getAttr("sym_name")))
    return s.getValue().str();
  return "";
}

/// Runs `fn` on a canonical version of `op`: a canonicalized clone, or `op`
/// itself when the caller vouches that it is canonical.
template <typename Fn>
LogicalResult withCanonical(Operation *op, const FingerprintOptions &options, Fn fn) {
  if (!options.canonicalize) {
    fn(op);
    return success();
  }
  Operation *clone = op->clone();
  CanonicalizeOptions copts;
  LogicalResult result = canonicalize(clone, copts);
  if (succeeded(result))
    fn(clone);
  clone->erase();
  return result;
}

} // namespace

FailureOr<Fingerprint> computeFingerprint(Operation *op, const FingerprintOptions &options) {
  Fingerprint fp;
  if (failed(withCanonical(op, options, [&](Operation *c) { fp = digestOf(c); })))
    return failure();
  return fp;
}

FailureOr<ModuleFingerprints> computeModuleFingerprints(Operation *module,
                                                        const FingerprintOptions &options) {
  ModuleFingerprints result;
  LogicalResult ok = withCanonical(module, options, [&](Operation *c) {
    result.module = digestOf(c);
    c->walk([&](Operation *op) {
      if (isFunctionLike(op))
        result.functions.push_back({symbolName(op), digestOf(op)});
    });
  });
  if (failed(ok))
    return failure();
  return result;
}

} // namespace qshape
