//===- Fingerprint.cpp - digests of the canonical form --------------------===//

#include "qshape/Fingerprint/Fingerprint.h"
#include "CanonicalView.h"
#include "qshape/Conversion/ToValueSemantics.h"
#include "qshape/Fingerprint/Encoding.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
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

std::string symbolName(Operation *op) {
  if (auto s = dyn_cast_or_null<StringAttr>(op->getAttr("sym_name")))
    return s.getValue().str();
  return "";
}

//===----------------------------------------------------------------------===//
// The encoding of a canonical view, streamed into two BLAKE3 states at once:
// exact (float bits included) and shape (float values abstracted). Values
// are numbered by first definition; a value defined outside the encoded op
// is encoded by its type; float constants are encoded inline at each use, so
// neither their position nor their sharing matters. The digests of the
// module and of every function are computed in one walk: each function gets
// its own pair of streams while its op is encoded, its values are numbered
// from where the function starts, and values defined before it count as
// defined outside it, as if the function were encoded alone.
//===----------------------------------------------------------------------===//

class ViewDigester {
public:
  ViewDigester(fpview::CanonicalView &view, bool collectFunctions)
      : view(view), collectFunctions(collectFunctions), ids(view.takeValueScratch()) {
    ids.assign(view.numValues(), kUnassigned); // reuses the view's memory
  }

  Fingerprint run() {
    push();
    encodeOp(0);
    return pop();
  }
  SmallVector<std::pair<std::string, Fingerprint>> functions;

private:
  using Idx = fpview::Idx;
  static constexpr uint64_t kUnassigned = ~uint64_t(0);
  static constexpr size_t kFlushAt = 1 << 16;

  struct Stream {
    ByteSink exact, shape;
    llvm::BLAKE3 exactHash, shapeHash;
    uint64_t base;
  };

  void push() {
    auto s = std::make_unique<Stream>();
    s->base = nextId;
    for (ByteSink *sink : {&s->exact, &s->shape}) {
      sink->bytes("qshape-fingerprint");
      sink->u64(kFingerprintSchemaVersion);
    }
    s->exact.u8('x');
    s->shape.u8('s');
    s->exact.reserve(2 * kFlushAt);
    s->shape.reserve(2 * kFlushAt);
    streams.push_back(std::move(s));
  }
  static void flush(ByteSink &sink, llvm::BLAKE3 &hash) {
    hash.update(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(sink.str().data()), sink.size()));
    sink.clear();
  }
  Fingerprint pop() {
    Stream &s = *streams.back();
    flush(s.exact, s.exactHash);
    flush(s.shape, s.shapeHash);
    Fingerprint fp;
    fp.exact = s.exactHash.final();
    fp.shape = s.shapeHash.final();
    streams.pop_back();
    return fp;
  }
  void u64(uint64_t v) {
    for (auto &s : streams) {
      s->exact.u64(v);
      s->shape.u64(v);
    }
  }
  void raw(StringRef exact, StringRef shape) {
    for (auto &s : streams) {
      s->exact.raw(exact);
      s->shape.raw(shape);
    }
  }
  StringRef typeBytes(Type t) {
    auto [it, inserted] = typeCache.try_emplace(t);
    if (inserted) {
      ByteSink b;
      exactEnc.encodeType(t, b); // the same in both encodings
      it->second = b.str().str();
    }
    return it->second;
  }

  void encodeOperand(Idx v) {
    Idx def = view.definingOp(v);
    if (def != fpview::kNone && view.has(def, fpview::CanonicalView::kFloatConst)) {
      Attribute value = view.constValue(def);
      ByteSink e, s;
      e.u8('C');
      exactEnc.encodeAttr(value, e);
      s.u8('C');
      shapeEnc.encodeAttr(value, s);
      raw(e.str(), s.str());
      return;
    }
    uint64_t id = ids[v];
    for (auto &s : streams) {
      if (id != kUnassigned && id >= s->base) {
        s->exact.u64(id - s->base);
        s->shape.u64(id - s->base);
        continue;
      }
      // A value from outside the encoded op: only its type is known.
      StringRef t = typeBytes(view.value(v).getType());
      s->exact.u64(~uint64_t(0));
      s->shape.u64(~uint64_t(0));
      s->exact.raw(t);
      s->shape.raw(t);
    }
  }

  void encodeOp(Idx o) {
    const fpview::CanonicalView::OpRec &r = view.op(o);
    if (view.has(o, fpview::CanonicalView::kFloatConst))
      return; // encoded at its uses
    bool isFunction = collectFunctions && view.has(o, fpview::CanonicalView::kFuncLike);
    if (isFunction)
      push();
    const fpview::HeaderBytes &h = view.header(r.header);
    raw(h.exact, h.shape);
    u64(r.numOperands);
    for (unsigned i = 0; i < r.numOperands; ++i)
      encodeOperand(view.operand(o, i));
    u64(r.numRegions);
    for (unsigned ri = 0; ri < r.numRegions; ++ri) {
      const fpview::CanonicalView::RegionRec &region = view.region(r.firstRegion + ri);
      u64(region.numBlocks);
      for (Idx b = region.firstBlock; b < region.firstBlock + region.numBlocks; ++b) {
        const fpview::CanonicalView::BlockRec &block = view.block(b);
        u64(block.numArgs);
        for (unsigned k = 0; k < block.numArgs; ++k) {
          StringRef t = typeBytes(view.value(block.firstArg + k).getType());
          raw(t, t);
          ids[block.firstArg + k] = nextId++;
        }
        u64(block.ops.size());
        for (Idx inner : block.ops) {
          encodeOp(inner);
          u64(view.op(inner).numSuccessors);
          flushLarge();
          if (!view.op(inner).numSuccessors)
            continue;
          for (Block *succ : view.op(inner).op->getSuccessors()) {
            Idx sb = view.blockIndex(succ);
            bool inRegion = sb != fpview::kNone && sb >= region.firstBlock &&
                            sb < region.firstBlock + region.numBlocks;
            u64(inRegion ? sb - region.firstBlock : 0);
          }
        }
      }
    }
    for (unsigned i = 0; i < r.numResults; ++i)
      ids[r.firstResult + i] = nextId++;
    if (isFunction)
      functions.push_back({symbolName(r.op), pop()});
  }
  /// Hashes what the sinks hold once it is large (where the bytes are cut
  /// does not change the digests).
  void flushLarge() {
    for (auto &s : streams) {
      if (s->exact.size() > kFlushAt)
        flush(s->exact, s->exactHash);
      if (s->shape.size() > kFlushAt)
        flush(s->shape, s->shapeHash);
    }
  }

  fpview::CanonicalView &view;
  bool collectFunctions;
  fpview::LargeVector<uint64_t> ids;
  uint64_t nextId = 0;
  SmallVector<std::unique_ptr<Stream>, 4> streams;
  StructuralEncoder exactEnc{/*abstractFloats=*/false}, shapeEnc{/*abstractFloats=*/true};
  DenseMap<Type, std::string> typeCache;
};

/// The digests of `op`'s canonical form (with `functions`, of every
/// function-like op in it too).
FailureOr<ModuleFingerprints> digestsOf(Operation *op, bool functions) {
  // A qref module is fingerprinted in its value-semantics form, converted
  // on a copy: one program, one fingerprint and one cache key, whichever
  // frontend wrote it.
  FailureOr<OwningOpRef<ModuleOp>> converted = OwningOpRef<ModuleOp>();
  if (auto module = dyn_cast<ModuleOp>(op))
    converted = valueSemanticsCopy(module);
  if (failed(converted))
    return failure(); // diagnosed by the conversion
  if (*converted)
    op = **converted;
  std::unique_ptr<fpview::CanonicalView> view = fpview::CanonicalView::build(op);
  if (!view)
    return failure(); // diagnosed by build
  view->canonicalize();
  ModuleFingerprints result;
  ViewDigester digester(*view, functions);
  result.module = digester.run();
  result.functions = std::move(digester.functions);
  return result;
}

} // namespace

FailureOr<Fingerprint> computeFingerprint(Operation *op) {
  FailureOr<ModuleFingerprints> fps = digestsOf(op, /*functions=*/false);
  if (failed(fps))
    return failure();
  return fps->module;
}

FailureOr<ModuleFingerprints> computeModuleFingerprints(Operation *module) {
  return digestsOf(module, /*functions=*/true);
}

} // namespace qshape
