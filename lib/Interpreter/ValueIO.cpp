//===- ValueIO.cpp - JSON arguments and results of qshape-sim -------------===//

#include "qshape/Interpreter/ValueIO.h"

#include "InterpreterImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace mlir;

namespace qshape::interp {

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static std::string jsonText(const llvm::json::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

static llvm::Expected<RtValue> scalarFromJSON(const ElemInfo &info, const llvm::json::Value &v,
                                              const std::string &where) {
  auto bad = [&](StringRef expected) -> llvm::Error {
    return llvm::createStringError(where + ": expected " + expected.str() + ", got " + jsonText(v));
  };
  switch (info.kind) {
  case ScalarKind::Float: {
    std::optional<double> d = v.getAsNumber();
    if (!d)
      return bad("a number");
    return RtValue::getFloat(info.isF32 ? static_cast<double>(static_cast<float>(*d)) : *d);
  }
  case ScalarKind::Int: {
    if (info.isBool()) {
      if (std::optional<bool> b = v.getAsBoolean())
        return RtValue::getInt(*b ? -1 : 0);
      std::optional<int64_t> i = v.getAsInteger();
      if (!i || (*i != 0 && *i != 1))
        return bad("a bool (or 0/1)");
      return RtValue::getInt(*i ? -1 : 0);
    }
    std::optional<int64_t> i = v.getAsInteger();
    if (!i)
      return bad("an integer");
    if (info.width < 64) {
      // Signed and unsigned spellings: [-2^(w-1), 2^w - 1]. The upper bound is
      // unsigned: for i63 it is INT64_MAX, and 2^63 overflows int64_t.
      int64_t lo = -(int64_t{1} << (info.width - 1));
      uint64_t hi = (uint64_t{1} << info.width) - 1;
      if (*i < lo || (*i > 0 && static_cast<uint64_t>(*i) > hi))
        return llvm::createStringError(where + ": " + std::to_string(*i) + " does not fit i" +
                                       std::to_string(info.width));
    }
    return RtValue::getInt(wrapInt(*i, info.width));
  }
  case ScalarKind::Complex: {
    if (std::optional<double> d = v.getAsNumber())
      return RtValue::getComplex({*d, 0.0});
    const llvm::json::Array *pair = v.getAsArray();
    if (!pair || pair->size() != 2 || !(*pair)[0].getAsNumber() || !(*pair)[1].getAsNumber())
      return bad("[re, im] (or a number)");
    return RtValue::getComplex({*(*pair)[0].getAsNumber(), *(*pair)[1].getAsNumber()});
  }
  }
  return bad("a scalar");
}

/// Collects the leaves of nested lists along `typeShape`; fills `shape`
/// (dynamic dimensions from the data). Returns an error message or "".
static std::string collectNested(const llvm::json::Value &v, unsigned depth,
                                 ArrayRef<int64_t> typeShape, SmallVectorImpl<int64_t> &shape,
                                 std::vector<const llvm::json::Value *> &leaves) {
  if (depth == typeShape.size()) {
    leaves.push_back(&v);
    return "";
  }
  const llvm::json::Array *arr = v.getAsArray();
  if (!arr)
    return "expected a list at depth " + std::to_string(depth) + ", got " + jsonText(v);
  auto n = static_cast<int64_t>(arr->size());
  if (!ShapedType::isDynamic(typeShape[depth]) && typeShape[depth] != n)
    return "dimension " + std::to_string(depth) + " has " + std::to_string(n) +
           " entries, expected " + std::to_string(typeShape[depth]);
  if (shape[depth] < 0)
    shape[depth] = n;
  else if (shape[depth] != n)
    return "ragged nested lists at depth " + std::to_string(depth);
  for (const llvm::json::Value &e : *arr) {
    std::string err = collectNested(e, depth + 1, typeShape, shape, leaves);
    if (!err.empty())
      return err;
  }
  return "";
}

static llvm::Expected<RtValue> tensorFromJSON(RankedTensorType type, const llvm::json::Value &v,
                                              const std::string &where) {
  std::optional<ElemInfo> info = getElemInfo(type.getElementType());
  if (!info)
    return llvm::createStringError(where + ": element type " + typeString(type.getElementType()) +
                                   " is not supported");
  auto t = std::make_shared<Tensor>();
  t->elem = info->kind;
  std::vector<const llvm::json::Value *> leaves;
  if (type.getRank() == 0) {
    leaves.push_back(&v);
  } else {
    SmallVector<int64_t, 4> shape(type.getRank(), -1);
    std::string err = collectNested(v, 0, type.getShape(), shape, leaves);
    if (!err.empty() && type.getRank() >= 2 && type.hasStaticShape()) {
      // A flat, row-major list.
      const llvm::json::Array *arr = v.getAsArray();
      if (arr && static_cast<int64_t>(arr->size()) == type.getNumElements()) {
        leaves.clear();
        for (const llvm::json::Value &e : *arr)
          leaves.push_back(&e);
        shape.assign(type.getShape().begin(), type.getShape().end());
        err.clear();
      }
    }
    if (!err.empty()) {
      std::string expected =
          type.hasStaticShape()
              ? (type.getRank() == 1
                     ? "a list of " + std::to_string(type.getNumElements()) + " entries"
                     : "nested lists of shape " +
                           llvm::join(llvm::map_range(type.getShape(),
                                                      [](int64_t d) { return std::to_string(d); }),
                                      "x") +
                           " or a flat list of " + std::to_string(type.getNumElements()) +
                           " entries")
              : "nested lists";
      return llvm::createStringError(where + ": expected " + expected + " (" + err + ")");
    }
    for (int64_t &d : shape)
      if (d < 0)
        d = 0;
    t->shape.assign(shape.begin(), shape.end());
  }
  t->resize(static_cast<int64_t>(leaves.size()));
  for (auto [k, leaf] : llvm::enumerate(leaves)) {
    llvm::Expected<RtValue> e = scalarFromJSON(
        *info, *leaf, where + (type.getRank() ? " element " + std::to_string(k) : ""));
    if (!e)
      return e.takeError();
    RtValue::setElement(*t, k, *e);
  }
  return RtValue::getTensor(std::move(t));
}

std::vector<const char *> rewriteArgsFileOption(int argc, char **argv,
                                                std::vector<std::string> &storage) {
  storage.clear();
  for (int i = 0; i < argc; ++i) {
    StringRef a = argv[i];
    if ((a == "--args" || a == "-args") && i + 1 < argc && argv[i + 1][0] == '@')
      storage.push_back("--args-file=" + std::string(argv[++i] + 1));
    else if (a.starts_with("--args=@") || a.starts_with("-args=@"))
      storage.push_back("--args-file=" + a.substr(a.find('@') + 1).str());
    else
      storage.push_back(a.str());
  }
  std::vector<const char *> out;
  for (const std::string &a : storage)
    out.push_back(a.c_str());
  return out;
}

llvm::Expected<std::string> readArgsText(StringRef text, StringRef file) {
  if (file.empty())
    return text.str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return llvm::createStringError("--args: cannot read '" + file.str() +
                                   "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

/// The offset of the first `[` or `{` that opens a level deeper than
/// kMaxArgsDepth, outside strings; none when the text nests less. LLVM's
/// JSON parser recurses once per level and overflows its stack at about
/// 50,000.
static std::optional<size_t> tooDeep(StringRef json) {
  constexpr unsigned kMaxArgsDepth = 1000;
  unsigned depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (quoted) {
      if (c == '\\')
        ++i; // the escaped character
      else if (c == '"')
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxArgsDepth)
        return i;
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

llvm::Expected<SmallVector<RtValue>> parseArguments(TypeRange types, StringRef json) {
  if (json.trim().empty())
    json = "[]";
  if (std::optional<size_t> at = tooDeep(json))
    return llvm::createStringError("--args nests lists or objects more than 1000 deep (at byte " +
                                   std::to_string(*at) + "); no argument needs that");
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return llvm::createStringError("--args is not valid JSON: " +
                                   llvm::toString(parsed.takeError()));
  const llvm::json::Array *list = parsed->getAsArray();
  if (!list)
    return llvm::createStringError(
        "--args must be a JSON list with one entry per function argument");
  if (list->size() != types.size())
    return llvm::createStringError("the entry function takes " + std::to_string(types.size()) +
                                   " argument(s) but --args has " + std::to_string(list->size()));
  SmallVector<RtValue> values;
  for (auto [k, type] : llvm::enumerate(types)) {
    std::string where = "--args: argument #" + std::to_string(k) + " (" + typeString(type) + ")";
    const llvm::json::Value &v = (*list)[k];
    if (auto tt = dyn_cast<RankedTensorType>(type)) {
      llvm::Expected<RtValue> r = tensorFromJSON(tt, v, where);
      if (!r)
        return r.takeError();
      values.push_back(*r);
      continue;
    }
    std::optional<ElemInfo> info = getElemInfo(type);
    if (!info)
      return llvm::createStringError(where + ": arguments of this type are not supported");
    llvm::Expected<RtValue> r = scalarFromJSON(*info, v, where);
    if (!r)
      return r.takeError();
    values.push_back(*r);
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

std::string formatFloat(double v, bool isF32) {
  if (std::isnan(v))
    return "NaN";
  if (std::isinf(v))
    return v > 0 ? "Infinity" : "-Infinity";
  char buf[40];
  int lo = isF32 ? 6 : 15, hi = isF32 ? 9 : 17;
  for (int prec = lo; prec <= hi; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    bool same =
        isF32 ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v;
    if (same)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

namespace {
class ResultPrinter {
public:
  ResultPrinter(llvm::raw_ostream &os, const FormatOptions &options) : os(os), options(options) {}

  llvm::Error print(Type type, const RtValue &v) {
    if (auto tt = dyn_cast<RankedTensorType>(type)) {
      std::optional<ElemInfo> info = getElemInfo(tt.getElementType());
      if (!info || v.getKind() != RtValue::Kind::Tensor || v.getTensor().elem != info->kind)
        return mismatch(type);
      const Tensor &t = v.getTensor();
      int64_t next = 0;
      printNested(t, *info, tt.getElementType(), 0, next);
      return llvm::Error::success();
    }
    std::optional<ElemInfo> info = getElemInfo(type);
    if (!info || !v.isScalar())
      return mismatch(type);
    printScalar(*info, type, v);
    return llvm::Error::success();
  }

private:
  llvm::Error mismatch(Type type) {
    return llvm::createStringError("cannot print a result of type " + typeString(type));
  }

  void printFloat(double v, bool isF32) {
    if (options.decimals && std::isfinite(v) && std::fabs(v) < 1e15) {
      double scale = std::pow(10.0, *options.decimals);
      v = std::round(v * scale) / scale + 0.0;
    }
    os << formatFloat(v, isF32);
  }

  void printScalar(const ElemInfo &info, Type type, const RtValue &v) {
    switch (info.kind) {
    case ScalarKind::Float:
      printFloat(v.getFloat(), info.isF32);
      return;
    case ScalarKind::Int:
      if (info.isBool())
        os << (v.getInt() ? "true" : "false");
      else if (type.isUnsignedInteger())
        os << zextInt(v.getInt(), info.width);
      else
        os << v.getInt();
      return;
    case ScalarKind::Complex:
      os << "[";
      printFloat(v.getComplex().real(), false);
      os << ", ";
      printFloat(v.getComplex().imag(), false);
      os << "]";
      return;
    }
  }

  void printNested(const Tensor &t, const ElemInfo &info, Type elemType, size_t depth,
                   int64_t &next) {
    if (depth == t.shape.size()) {
      printScalar(info, elemType, RtValue::getElement(t, next++));
      return;
    }
    os << "[";
    for (int64_t k = 0; k < t.shape[depth]; ++k) {
      if (k)
        os << ", ";
      printNested(t, info, elemType, depth + 1, next);
    }
    os << "]";
  }

  llvm::raw_ostream &os;
  const FormatOptions &options;
};
} // namespace

llvm::Expected<std::string> formatResults(TypeRange types, ArrayRef<RtValue> values,
                                          const FormatOptions &options) {
  if (types.size() != values.size())
    return llvm::createStringError("expected " + std::to_string(types.size()) + " results, got " +
                                   std::to_string(values.size()));
  std::string text;
  llvm::raw_string_ostream os(text);
  ResultPrinter printer(os, options);
  os << "{\"results\": [";
  for (auto [k, type] : llvm::enumerate(types)) {
    if (k)
      os << ", ";
    if (llvm::Error err = printer.print(type, values[k]))
      return std::move(err);
  }
  os << "]}";
  return text;
}

} // namespace qshape::interp
