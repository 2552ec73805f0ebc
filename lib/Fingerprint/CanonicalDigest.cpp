//===- CanonicalDigest.cpp - digests of the canonical form ----------------===//

#include "qshape/Fingerprint/Fingerprint.h"
#include "CanonicalView.h"
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

/// The reference implementation (FingerprintOptions::reference): encodes a
/// canonicalized clone. Streams the encoding of an op tree into two BLAKE3
/// states at once: exact (float bits included) and shape (float values
/// abstracted). Values are numbered by first definition; float constants are
/// encoded inline at each use, so neither their position nor their sharing
/// matters. ViewDigester below writes the same bytes from a CanonicalView.
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
  copts.reference = true; // the rule-by-rule implementation, not the view
  LogicalResult result = canonicalize(clone, copts);
  if (succeeded(result))
    fn(clone);
  clone->erase();
  return result;
}

FailureOr<ModuleFingerprints> referenceModuleFingerprints(Operation *module,
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

//===----------------------------------------------------------------------===//
// Digests of a canonical view: the bytes DigestWriter writes for the
// canonical clone, with the digests of the module and of every function
// computed in one walk. Each function gets its own pair of streams while its
// op is encoded; its values are numbered from where the function starts, and
// values defined before it count as defined outside it, as in a standalone
// DigestWriter run on the function.
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
    hash.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(sink.str().data()),
                                        sink.size()));
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

/// The canonical view of `op`, or null when the reference path must be used.
std::unique_ptr<fpview::CanonicalView> viewOf(Operation *op, const FingerprintOptions &options) {
  if (options.reference)
    return nullptr;
  std::unique_ptr<fpview::CanonicalView> view = fpview::CanonicalView::build(op);
  if (view && options.canonicalize)
    view->canonicalize();
  return view;
}

} // namespace

FailureOr<Fingerprint> computeFingerprint(Operation *op, const FingerprintOptions &options) {
  if (std::unique_ptr<fpview::CanonicalView> view = viewOf(op, options))
    return ViewDigester(*view, /*collectFunctions=*/false).run();
  Fingerprint fp;
  if (failed(withCanonical(op, options, [&](Operation *c) { fp = digestOf(c); })))
    return failure();
  return fp;
}

FailureOr<ModuleFingerprints> computeModuleFingerprints(Operation *module,
                                                        const FingerprintOptions &options) {
  std::unique_ptr<fpview::CanonicalView> view = viewOf(module, options);
  if (!view)
    return referenceModuleFingerprints(module, options);
  ModuleFingerprints result;
  ViewDigester digester(*view, /*collectFunctions=*/true);
  result.module = digester.run();
  result.functions = std::move(digester.functions);
  return result;
}

} // namespace qshape
