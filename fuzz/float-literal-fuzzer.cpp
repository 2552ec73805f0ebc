//===- float-literal-fuzzer.cpp - the skeleton scanner against MLIR's parser ===//
//
// Input: bytes that spell one or two f64 values (from an alphabet of digits,
// '.', 'e', 'E', '+', '-', 'x', hex digits, "inf", "nan", ' ') and a byte that
// picks where they stand: `arith.constant S : f64`, a splat `dense<S>` or a
// list `dense<[S1, S2]>`. The topology index (qshape-compile
// --share-topology) reads float literals with scanSkeleton() and
// literalValue(), never with MLIR. Whenever MLIR's parser accepts the
// program, each element spelling must be, for the scanner, either
//  - no literal at all (it stays in the skeleton: a program with another
//    spelling has another key), or
//  - exactly one literal that covers the whole spelling and reads as the
//    bits MLIR's parser gives the element.
//  - or literals inside it that read other bits than the parser's (the
//    parser's minus is a token of its own: "- 83." is -83, its literal
//    "83." reads 83), which mapLiterals() refuses, since a literal must be
//    its slot's value bit for bit.
// A literal that covers the spelling but reads other bits, or covers part of
// it and reads the parser's bits, could give the wrong value from the cache,
// and is a crash here.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/ArtifactCache/TopologyIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/bit.h"

#include <string>
#include <vector>

using namespace qshape::compile;
using qshape::fuzz::fail;

namespace {
constexpr llvm::StringLiteral kAlphabet = "0123456789.eE+-xabcdefABCDEF infa.0-";

/// One or two spellings from the fuzzer's bytes: ',' (byte 255) splits them.
std::vector<std::string> spellings(const uint8_t *data, size_t size) {
  std::vector<std::string> out(1);
  for (size_t k = 0; k < size; ++k) {
    if (data[k] == 255 && out.size() < 2)
      out.emplace_back();
    else
      out.back() += kAlphabet[data[k] % kAlphabet.size()];
  }
  return out;
}

/// The values MLIR's parser gives the constant of `module`'s function, in
/// element order; empty when there is no f64 constant.
std::vector<double> parsedValues(mlir::ModuleOp module) {
  std::vector<double> values;
  module.walk([&](mlir::arith::ConstantOp c) {
    if (auto f = llvm::dyn_cast<mlir::FloatAttr>(c.getValue()))
      values.push_back(f.getValueAsDouble());
    else if (auto d = llvm::dyn_cast<mlir::DenseFPElementsAttr>(c.getValue()))
      for (llvm::APFloat v : d.getValues<llvm::APFloat>())
        values.push_back(v.convertToDouble());
  });
  return values;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  unsigned form = data[0] % 3;
  std::vector<std::string> elements = spellings(data + 1, size - 1);
  if (form != 2)
    elements.resize(1);
  // The program, and where each element's spelling sits in it.
  std::string text = "func.func @f() -> tensor<2xf64> {\n  %c = arith.constant ";
  std::vector<std::pair<size_t, size_t>> spans;
  // A spelling's span is without its surrounding spaces (the alphabet has
  // ' '), which MLIR's lexer skips as it skips any whitespace.
  auto add = [&](const std::string &s) {
    llvm::StringRef all(s);
    llvm::StringRef core = all.trim(' ');
    size_t lead = core.empty() ? 0 : size_t(core.data() - all.data());
    spans.push_back({text.size() + lead, core.size()});
    text += s;
  };
  if (form == 0) {
    add(elements[0]);
    text += " : f64\n  %t = tensor.from_elements %c, %c : tensor<2xf64>\n";
  } else {
    text += form == 1 ? "dense<" : "dense<[";
    add(elements[0]);
    if (form == 2) {
      text += ", ";
      add(elements.size() > 1 ? elements[1] : std::string("0.5"));
    }
    text += form == 1 ? "> : tensor<2xf64>\n" : "]> : tensor<2xf64>\n";
  }
  text += form == 0 ? "  return %t : tensor<2xf64>\n}\n" : "  return %c : tensor<2xf64>\n}\n";

  mlir::MLIRContext &ctx = qshape::fuzz::freshContext();
  mlir::OwningOpRef<mlir::ModuleOp> module = qshape::fuzz::parseModule(text, ctx);
  if (!module)
    return 0; // the index is never used for a text MLIR refuses
  std::vector<double> values = parsedValues(*module);
  if (values.size() < spans.size())
    fail("the parser gave " + llvm::Twine(values.size()) + " values for " +
         llvm::Twine(spans.size()) + " spellings in:\n" + text);

  SourceSkeleton skeleton = scanSkeleton(text);
  for (auto [index, span] : llvm::enumerate(spans)) {
    auto [start, length] = span;
    std::vector<const SourceSkeleton::Literal *> inside;
    for (const SourceSkeleton::Literal &l : skeleton.literals)
      if (l.offset < start + length && l.offset + l.length > start)
        inside.push_back(&l);
    if (inside.empty())
      continue; // in the skeleton
    llvm::StringRef spelling = llvm::StringRef(text).substr(start, length);
    std::optional<double> read = literalValue(text, *inside[0]);
    bool sameBits =
        read && llvm::bit_cast<uint64_t>(*read) == llvm::bit_cast<uint64_t>(values[index]);
    bool exact = inside.size() == 1 && inside[0]->offset == start && inside[0]->length == length;
    // A literal inside a spelling the parser reads otherwise ("- 83.": the
    // parser's minus is a token of its own) is safe as long as its value
    // differs: mapLiterals() refuses a literal that is not its slot's value.
    if (!exact && sameBits)
      fail("the scanner's literal does not cover the spelling '" + spelling +
           "' exactly, yet reads the parser's value");
    if (exact && !sameBits)
      fail("the scanner reads '" + spelling + "' as " + (read ? std::to_string(*read) : "nothing") +
           ", the parser as " + std::to_string(values[index]));
  }
  return 0;
}
