//===- Encoding.cpp - process-stable structural encoding ------------------===//

#include "qshape/Fingerprint/Encoding.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace qshape {

bool isQShapeAnnotation(StringRef name) {
  return name == "qshape.fingerprint" || name == "qshape.shape_fingerprint" ||
         name == "qshape.cache_key" || name == "qshape.cache_hit";
}

const std::string &StructuralEncoder::typeText(Type type) {
  auto [it, inserted] = texts->types.try_emplace(type);
  if (inserted) {
    llvm::raw_string_ostream os(it->second);
    type.print(os);
  }
  return it->second;
}

const std::string &StructuralEncoder::attrText(Attribute attr) {
  auto [it, inserted] = texts->attrs.try_emplace(attr);
  if (inserted) {
    llvm::raw_string_ostream os(it->second);
    attr.print(os);
  }
  return it->second;
}

void StructuralEncoder::encodeType(Type type, ByteSink &out) {
  if (!type) {
    out.u8('0');
    return;
  }
  // The printed form of a type is its content: uniqued, pointer-free and the
  // same whether the dialect is registered (qshape's or Catalyst's) or not.
  out.u8('t');
  out.bytes(typeText(type));
}

static void encodeAPInt(const llvm::APInt &v, ByteSink &out) {
  out.u64(v.getBitWidth());
  for (unsigned i = 0, e = v.getNumWords(); i < e; ++i)
    out.u64(v.getRawData()[i]);
}

void StructuralEncoder::encodeAttr(Attribute attr, ByteSink &out) {
  if (!attr) {
    out.u8('0');
    return;
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    out.u8('F');
    encodeType(f.getType(), out);
    if (!abstractFloats)
      encodeAPInt(f.getValue().bitcastToAPInt(), out); // bits: -0.0 != 0.0, NaN payloads kept
    return;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    out.u8('I');
    encodeType(i.getType(), out);
    encodeAPInt(i.getValue(), out);
    return;
  }
  if (auto s = dyn_cast<StringAttr>(attr)) {
    out.u8('S');
    out.bytes(s.getValue());
    return;
  }
  if (isa<UnitAttr>(attr)) {
    out.u8('U');
    return;
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    out.u8('A');
    out.u64(a.size());
    for (Attribute e : a)
      encodeAttr(e, out);
    return;
  }
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    out.u8('D');
    out.u64(d.size());
    for (NamedAttribute na : d) {
      out.bytes(na.getName().getValue());
      encodeAttr(na.getValue(), out);
    }
    return;
  }
  if (auto t = dyn_cast<TypeAttr>(attr)) {
    out.u8('T');
    encodeType(t.getValue(), out);
    return;
  }
  if (auto d = dyn_cast<DenseArrayAttr>(attr)) {
    out.u8('R');
    encodeType(d.getElementType(), out);
    out.u64(d.getSize());
    out.bytes(StringRef(d.getRawData().data(), d.getRawData().size()));
    return;
  }
  if (auto d = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    out.u8('E');
    encodeType(d.getType(), out);
    Type elt = d.getElementType();
    bool isFloat = isa<FloatType>(elt) || (isa<ComplexType>(elt) &&
                                           isa<FloatType>(cast<ComplexType>(elt).getElementType()));
    if (abstractFloats && isFloat)
      return;
    // MLIR stores a splat as one element whatever the source text said.
    out.u8(d.isSplat() ? 1 : 0);
    ArrayRef<char> raw = d.getRawData();
    out.bytes(StringRef(raw.data(), raw.size()));
    return;
  }
  if (isa<LocationAttr>(attr)) {
    out.u8('L'); // locations never count
    return;
  }
  // Anything else (symbol refs, enums, dialect attributes): its printed form.
  out.u8('P');
  out.bytes(attrText(attr));
}

void StructuralEncoder::encodeAttrList(SmallVectorImpl<NamedAttribute> &attrs, ByteSink &out) {
  llvm::sort(attrs, [](const NamedAttribute &a, const NamedAttribute &b) {
    return a.getName().getValue() < b.getName().getValue();
  });
  uint64_t n = 0;
  for (const NamedAttribute &na : attrs)
    n += !isQShapeAnnotation(na.getName().getValue());
  out.u64(n);
  for (const NamedAttribute &na : attrs) {
    if (isQShapeAnnotation(na.getName().getValue()))
      continue;
    out.bytes(na.getName().getValue());
    encodeAttr(na.getValue(), out);
  }
}

void StructuralEncoder::encodeOpAttrs(Operation *op, ByteSink &out) {
  SmallVector<NamedAttribute, 8> attrs;
  if (Attribute props = op->getPropertiesAsAttribute())
    if (auto dict = dyn_cast<DictionaryAttr>(props))
      attrs.append(dict.begin(), dict.end());
  for (NamedAttribute na : op->getDiscardableAttrs())
    attrs.push_back(na);
  encodeAttrList(attrs, out);
}

void StructuralEncoder::encodeOpHeader(Operation *op, ByteSink &out) {
  out.u8('O');
  out.bytes(op->getName().getStringRef());
  encodeOpAttrs(op, out);
  out.u64(op->getNumResults());
  for (Type t : op->getResultTypes())
    encodeType(t, out);
}

void StructuralEncoder::encodeOpHeader(StringRef opName, SmallVectorImpl<NamedAttribute> &attrs,
                                       TypeRange resultTypes, ByteSink &out) {
  out.u8('O');
  out.bytes(opName);
  encodeAttrList(attrs, out);
  out.u64(resultTypes.size());
  for (Type t : resultTypes)
    encodeType(t, out);
}

} // namespace qshape
