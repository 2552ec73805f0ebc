//===- OpSupport.cpp - syntax and rules shared by quantum and qref --------===//

#include "qshape/Dialect/Quantum/IR/OpSupport.h"
#include "qshape/Dialect/Quantum/IR/QuantumOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace qshape::quantum {

void printTypedValues(OpAsmPrinter &p, ValueRange values) {
  p << '(';
  llvm::interleaveComma(values, p, [&](Value v) { p << v << ": " << v.getType(); });
  p << ')';
}

void printPositionMap(OpAsmPrinter &p, StringRef keyword, DictionaryAttr map) {
  p << keyword << " = {";
  llvm::interleaveComma(map, p, [&](NamedAttribute entry) {
    p.printKeywordOrString(entry.getName().getValue());
    p << " = [";
    llvm::interleaveComma(cast<DenseI64ArrayAttr>(entry.getValue()).asArrayRef(), p);
    p << ']';
  });
  p << '}';
}

ParseResult parsePositionMap(OpAsmParser &parser, DictionaryAttr &map) {
  Builder &b = parser.getBuilder();
  NamedAttrList entries;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Braces, [&]() -> ParseResult {
        std::string name;
        SmallVector<int64_t> positions;
        if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
            parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
              return parser.parseInteger(positions.emplace_back());
            }))
          return failure();
        entries.append(b.getStringAttr(name), b.getDenseI64ArrayAttr(positions));
        return success();
      }))
    return failure();
  map = entries.getDictionary(parser.getContext());
  return success();
}

ParseResult TypedOperands::parse(OpAsmParser &parser) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
    if (parser.parseOperand(operands.emplace_back()) || parser.parseColon() ||
        parser.parseType(types.emplace_back()))
      return failure();
    return success();
  });
}

ParseResult TypedOperands::parseOne(OpAsmParser &parser) {
  if (parser.parseLParen() || parser.parseOperand(operands.emplace_back()) || parser.parseColon() ||
      parser.parseType(types.emplace_back()) || parser.parseRParen())
    return failure();
  return success();
}

ParseResult TypedOperands::resolve(OpAsmParser &parser, SMLoc loc, OperationState &state) {
  return parser.resolveOperands(operands, types, loc, state.operands);
}

LogicalResult verifyRegisterControls(Operation *op, Value indices, Value values) {
  if (static_cast<bool>(indices) != static_cast<bool>(values))
    return op->emitOpError(
        "arr_ctrl_indices and arr_ctrl_values must either both be present or both absent");
  if (!indices)
    return success();
  // Both are 1-D tensors (ODS); a dynamic length is ShapedType::kDynamic
  // here, as in Catalyst, so two dynamic lengths agree and a dynamic and a
  // static one do not.
  int64_t n = cast<ShapedType>(indices.getType()).getDimSize(0);
  int64_t m = cast<ShapedType>(values.getType()).getDimSize(0);
  if (n != m)
    return op->emitOpError() << "number of input control qubits (" << n << ") and control values ("
                             << m << ") must be the same";
  return success();
}

/// Every index of a map lies in [0, bound); `covered` collects the distinct
/// ones.
static LogicalResult checkMapIndices(Operation *op, DictionaryAttr map, size_t bound,
                                     StringRef mapName, StringRef boundNoun,
                                     llvm::SmallBitVector &covered) {
  covered.clear();
  covered.resize(bound);
  for (NamedAttribute entry : map) {
    for (int64_t idx : cast<DenseI64ArrayAttr>(entry.getValue()).asArrayRef()) {
      if (idx < 0 || idx >= static_cast<int64_t>(bound))
        return op->emitOpError() << mapName << " index is out of bounds with respect to "
                                 << boundNoun << ": " << idx << " is not in [0, " << bound << ")";
      covered.set(idx);
    }
  }
  return success();
}

LogicalResult verifyOperatorMaps(Operation *op, DictionaryAttr paramMap, size_t numParams,
                                 DictionaryAttr qubitMap, size_t numTargets, bool registerMode) {
  llvm::SmallBitVector covered;
  if (paramMap) {
    if (failed(checkMapIndices(op, paramMap, numParams, "param_map", "params", covered)))
      return failure();
    if (covered.count() != numParams)
      return op->emitOpError() << "param_map must cover all params when provided: expected "
                               << numParams << ", got " << covered.count();
  }
  if (qubitMap) {
    if (failed(checkMapIndices(op, qubitMap, numTargets, "qubit_map",
                               registerMode ? "index arrays" : "qubits", covered)))
      return failure();
    if (covered.count() != numTargets)
      return op->emitOpError() << "qubit_map must cover all "
                               << (registerMode ? "index arrays in register mode"
                                                : "qubit values in qubit mode")
                               << ": expected " << numTargets << ", got " << covered.count();
  }
  return success();
}

bool isGateMatrix(Type type, size_t n) {
  // 2^n must fit; no static dimension can match a larger one.
  if (n >= 63)
    return false;
  int64_t dim = int64_t(1) << n;
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() && shaped.getShape() == ArrayRef<int64_t>{dim, dim};
}

bool isMeasurementProcess(Operation *op) {
  return isa<ExpvalOp, VarianceOp, ProbsOp, StateOp, SampleOp, CountsOp>(op);
}

} // namespace qshape::quantum
