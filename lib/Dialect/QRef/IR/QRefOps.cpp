//===- QRefOps.cpp - qref dialect verifiers and custom syntax -------------===//
//
// The verifiers check what Catalyst's check (its QRefOps.cpp and the verifier
// of its QuantumGate interface, 2026-08), in the same order and with the same
// messages, so that a module verifies in qshape exactly when it verifies in
// Catalyst. One rule is qshape's own (qref.get's index), as for
// quantum.extract; it says so where it is checked.
//
// qref.operator has Catalyst's hand-written syntax, parsed and printed below
// with the helpers quantum.operator uses (OpSupport.h).
//
//===----------------------------------------------------------------------===//

#include "qshape/Dialect/QRef/IR/QRefOps.h"
#include "qshape/Dialect/Quantum/IR/OpSupport.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace qshape::qref;
using qshape::quantum::TypedOperands;

#define GET_OP_CLASSES
#include "qshape/Dialect/QRef/IR/QRefOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

namespace {

/// Catalyst's QuantumGate interface: one control value per control qubit,
/// and no qubit twice among targets and controls. Interface verifiers report
/// without the op-name prefix and run before the op's own, so this comes
/// first in every gate's verifier.
LogicalResult verifyGateQubits(Operation *op, ValueRange qubits, ValueRange ctrlQubits,
                               ValueRange ctrlValues) {
  if (ctrlValues.size() != ctrlQubits.size())
    return op->emitError() << "number of controlling qubits in input (" << ctrlQubits.size()
                           << ") and controlling values (" << ctrlValues.size()
                           << ") must be the same";
  llvm::SmallPtrSet<Value, 8> seen;
  for (ValueRange group : {qubits, ctrlQubits})
    for (Value qubit : group)
      if (!seen.insert(qubit).second)
        return op->emitError("all qubits on a quantum gate must be distinct (including controls)");
  return success();
}

template <typename GateOp> LogicalResult verifyGateQubits(GateOp op) {
  return verifyGateQubits(op, op.getQubits(), op.getCtrlQubits(), op.getCtrlValues());
}

template <typename Pred> bool regionContains(Region &region, Pred pred) {
  return region
      .walk([&](Operation *inner) {
        return pred(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// What qref.ctrl rejects: the measurement processes of `quantum`,
/// qref.measure, and Catalyst's reference-semantics Pauli-product and MBQC
/// measurements (dialects qshape lacks, so read by name).
bool isCtrlMeasurement(Operation *op) {
  if (qshape::quantum::isMeasurementProcess(op) || isa<MeasureOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name == "pbc.ref.ppm" || name == "mbqc.ref.measure_in_basis";
}

} // namespace

//===----------------------------------------------------------------------===//
// Qubit management
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  Value dynamicSize = getNqubits();
  IntegerAttr staticSize = getNqubitsAttrAttr();
  if (!dynamicSize && !staticSize)
    return emitOpError("expected op to have a non-null allocation size");
  if (dynamicSize && staticSize)
    return emitOpError("must have a single allocation size");
  QuregType type = getQreg().getType();
  // Catalyst's messages name the type `!qref.qreg`, not `!qref.reg`.
  if (dynamicSize && !type.isDynamic())
    return emitOpError("expected result to have dynamic allocation size !qref.qreg<?>");
  if (staticSize && (!type.isStatic() || type.getSize().getInt() != staticSize.getInt()))
    return emitOpError() << "expected result to have static allocation size !qref.qreg<"
                         << staticSize.getInt() << ">";
  return success();
}

// qshape's rule (Catalyst's qref.get has no verifier): the pretty form holds
// exactly one index, so an op with none or both could not be printed back.
LogicalResult GetOp::verify() {
  if (!getIdx() && !getIdxAttrAttr())
    return emitOpError("expected op to have a non-null index");
  if (getIdx() && getIdxAttrAttr())
    return emitOpError("has both a dynamic index operand and a static index attribute; it must "
                       "have one");
  return success();
}

//===----------------------------------------------------------------------===//
// Gates
//===----------------------------------------------------------------------===//

LogicalResult CustomOp::verify() {
  if (failed(verifyGateQubits(*this)))
    return failure();
  if (getQubits().empty())
    return emitOpError("expected op to have at least one qubit");
  return success();
}

LogicalResult PauliRotOp::verify() {
  if (failed(verifyGateQubits(*this)))
    return failure();
  ArrayAttr word = getPauliProduct();
  if (word.size() != getQubits().size())
    return emitOpError() << "length of Pauli word (" << word.size() << ") and number of qubits ("
                         << getQubits().size() << ") must be the same";
  for (Attribute letter : word) {
    StringRef s = cast<StringAttr>(letter).getValue();
    if (s != "X" && s != "Y" && s != "Z" && s != "I")
      return emitOpError(R"(Only "X", "Y", "Z", and "I" are valid Pauli words.)");
  }
  return success();
}

LogicalResult GlobalPhaseOp::verify() {
  return verifyGateQubits(*this, ValueRange(), getCtrlQubits(), getCtrlValues());
}

LogicalResult MultiRZOp::verify() { return verifyGateQubits(*this); }

LogicalResult PCPhaseOp::verify() { return verifyGateQubits(*this); }

LogicalResult QubitUnitaryOp::verify() {
  if (failed(verifyGateQubits(*this)))
    return failure();
  if (!qshape::quantum::isGateMatrix(getMatrix().getType(), getQubits().size()))
    return emitOpError("The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)");
  return success();
}

//===----------------------------------------------------------------------===//
// qref.operator
//===----------------------------------------------------------------------===//

LogicalResult OperatorOp::verify() {
  if (failed(verifyGateQubits(*this)))
    return failure();
  bool registerMode = static_cast<bool>(getQreg());
  if (registerMode && !getQubits().empty())
    return emitOpError("must use either qubits or registers, but not both");
  if (!getForwardArgs().empty() && !getUID())
    return emitOpError("forward_args can only be present when UID is provided");
  bool qubitControls = !getCtrlQubits().empty() || !getCtrlValues().empty();
  Value ctrlIndices = getArrCtrlIndices(), ctrlValues = getArrCtrlValues();
  if (qubitControls && (ctrlIndices || ctrlValues))
    return emitOpError("cannot mix qubit controls (ctrl_qubits/ctrl_values) with register "
                       "controls (arr_ctrl_indices/arr_ctrl_values)");
  if (failed(qshape::quantum::verifyRegisterControls(*this, ctrlIndices, ctrlValues)))
    return failure();
  size_t numTargets = registerMode ? getArrQubitIndices().size() : getQubits().size();
  return qshape::quantum::verifyOperatorMaps(*this, getParamMapAttr(), getParams().size(),
                                             getQubitMapAttr(), numTargets, registerMode);
}

// Syntax (Catalyst's, section by section, each after a line break except the
// first line's):
//   qref.operator "Name"(%p: t, ...) [adj] [qubits(%q, ...)] [{attrs}]
//     [UID(n) [forward(%f: t, ...)]]
//     [quregs(%r : !qref.reg<..>) indices(%i: t, ...)]
//     [ctrls(%c, ...) ctrl_vals(%v, ...) | ctrls(%ci: t) ctrl_vals(%cv: t)]
//     [static_data = {...}]
//     [param_map = {name = [0, ...]}] [qubit_map = {name = [0, ...]}]
// `qubits(...)` is printed whenever there is no register, even when empty.

static constexpr llvm::StringLiteral kOperatorSyntaxAttrs[] = {
    "op_name", "adjoint", "UID", "static_data", "param_map", "qubit_map", "operandSegmentSizes"};

void OperatorOp::print(OpAsmPrinter &p) {
  using qshape::quantum::printPositionMap;
  using qshape::quantum::printTypedValues;
  p << ' ';
  p.printString(getOpName());
  printTypedValues(p, getParams());
  if (getAdjoint())
    p << " adj";
  if (!getQreg())
    p << " qubits(" << getQubits() << ')';
  SmallVector<StringRef> elided(std::begin(kOperatorSyntaxAttrs), std::end(kOperatorSyntaxAttrs));
  p.printOptionalAttrDict((*this)->getAttrs(), elided);

  p.increaseIndent();
  if (IntegerAttr uid = getUIDAttr()) {
    p.printNewline();
    // Signed, as quantum.operator prints it (Catalyst prints the unsigned
    // value, which its parser rejects for a negative UID).
    p << "UID(" << uid.getInt() << ')';
    if (!getForwardArgs().empty()) {
      p << " forward";
      printTypedValues(p, getForwardArgs());
    }
  }
  if (Value reg = getQreg()) {
    p.printNewline();
    p << "quregs(" << reg << " : " << reg.getType() << ") indices";
    printTypedValues(p, getArrQubitIndices());
  }
  if (!getCtrlQubits().empty()) {
    p.printNewline();
    p << "ctrls(" << getCtrlQubits() << ") ctrl_vals(" << getCtrlValues() << ')';
  } else if (Value ctrlIndices = getArrCtrlIndices()) {
    p.printNewline();
    p << "ctrls";
    printTypedValues(p, ctrlIndices);
    p << " ctrl_vals";
    printTypedValues(p, getArrCtrlValues() ? ValueRange(getArrCtrlValues()) : ValueRange());
  }
  if (DictionaryAttr staticData = getStaticDataAttr()) {
    p.printNewline();
    p << "static_data = " << staticData;
  }
  DictionaryAttr paramMap = getParamMapAttr(), qubitMap = getQubitMapAttr();
  if (paramMap || qubitMap)
    p.printNewline();
  if (paramMap)
    printPositionMap(p, "param_map", paramMap);
  if (paramMap && qubitMap)
    p << ' ';
  if (qubitMap)
    printPositionMap(p, "qubit_map", qubitMap);
  p.decreaseIndent();
}

ParseResult OperatorOp::parse(OpAsmParser &parser, OperationState &result) {
  using qshape::quantum::parsePositionMap;
  Builder &b = parser.getBuilder();
  auto &props = result.getOrAddProperties<Properties>();

  std::string name;
  if (parser.parseString(&name))
    return failure();
  props.op_name = b.getStringAttr(name);

  SMLoc paramsLoc = parser.getCurrentLocation();
  TypedOperands params;
  if (params.parse(parser))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("adj")))
    props.adjoint = b.getUnitAttr();

  SmallVector<OpAsmParser::UnresolvedOperand> qubits;
  if (succeeded(parser.parseOptionalKeyword("qubits")) &&
      parser.parseOperandList(qubits, OpAsmParser::Delimiter::Paren))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  SMLoc forwardLoc = parser.getCurrentLocation();
  TypedOperands forward;
  if (succeeded(parser.parseOptionalKeyword("UID"))) {
    int64_t uid = 0;
    if (parser.parseLParen() || parser.parseInteger(uid) || parser.parseRParen())
      return failure();
    props.UID = b.getI64IntegerAttr(uid);
    forwardLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("forward")) && forward.parse(parser))
      return failure();
  }

  // Register mode: `quregs(%r : type)`, the register typed (its size is part
  // of the type), then the index tensors.
  SMLoc regLoc = parser.getCurrentLocation();
  TypedOperands reg;
  SMLoc indicesLoc = regLoc;
  TypedOperands indices;
  if (succeeded(parser.parseOptionalKeyword("quregs"))) {
    regLoc = parser.getCurrentLocation();
    if (reg.parseOne(parser) || parser.parseKeyword("indices"))
      return failure();
    indicesLoc = parser.getCurrentLocation();
    if (indices.parse(parser))
      return failure();
  }
  bool registerMode = !reg.operands.empty();

  // Controls: qubits and i1 values in qubit mode, one index tensor and one
  // value tensor (typed) in register mode.
  SmallVector<OpAsmParser::UnresolvedOperand> ctrlQubits, ctrlValues;
  SMLoc ctrlLoc = parser.getCurrentLocation();
  TypedOperands ctrlIndexArray, ctrlValueArray;
  if (succeeded(parser.parseOptionalKeyword("ctrls"))) {
    if (registerMode) {
      if (ctrlIndexArray.parseOne(parser) || parser.parseKeyword("ctrl_vals") ||
          ctrlValueArray.parseOne(parser))
        return failure();
    } else if (parser.parseOperandList(ctrlQubits, OpAsmParser::Delimiter::Paren) ||
               parser.parseKeyword("ctrl_vals") ||
               parser.parseOperandList(ctrlValues, OpAsmParser::Delimiter::Paren)) {
      return failure();
    }
  }

  if (succeeded(parser.parseOptionalKeyword("static_data"))) {
    if (parser.parseEqual() || parser.parseAttribute(props.static_data))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("param_map"))) {
    if (parser.parseEqual() || parsePositionMap(parser, props.param_map))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("qubit_map"))) {
    if (parser.parseEqual() || parsePositionMap(parser, props.qubit_map))
      return failure();
  }

  // Operands in ODS segment order.
  Type qubitType = QubitType::get(parser.getContext());
  if (params.resolve(parser, paramsLoc, result) || forward.resolve(parser, forwardLoc, result) ||
      parser.resolveOperands(qubits, qubitType, result.operands) ||
      parser.resolveOperands(ctrlQubits, qubitType, result.operands) ||
      parser.resolveOperands(ctrlValues, b.getI1Type(), result.operands) ||
      reg.resolve(parser, regLoc, result) || indices.resolve(parser, indicesLoc, result) ||
      ctrlIndexArray.resolve(parser, ctrlLoc, result) ||
      ctrlValueArray.resolve(parser, ctrlLoc, result))
    return failure();
  auto size = [](size_t n) { return static_cast<int32_t>(n); };
  llvm::copy(ArrayRef<int32_t>{size(params.operands.size()), size(forward.operands.size()),
                               size(qubits.size()), size(ctrlQubits.size()),
                               size(ctrlValues.size()), size(reg.operands.size()),
                               size(indices.operands.size()), size(ctrlIndexArray.operands.size()),
                               size(ctrlValueArray.operands.size())},
             props.operandSegmentSizes.begin());
  return success();
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

LogicalResult AdjointOp::verify() {
  if (regionContains(getRegion(), qshape::quantum::isMeasurementProcess))
    return emitOpError("quantum measurements are not allowed in the adjoint regions");
  if (getRegion().front().getNumArguments() != 0)
    return emitOpError("qref.adjoint op must have no arguments on its block");
  return success();
}

LogicalResult CtrlOp::verify() {
  if (regionContains(getRegion(), isCtrlMeasurement))
    return emitOpError("quantum measurements are not allowed in the ctrl regions");
  if (getRegion().front().getNumArguments() != 0)
    return emitOpError("qref.ctrl op must have no arguments on its block");
  if (getCtrlValues().size() != getCtrlQubits().size())
    return emitOpError(
        "Ctrl op number of control values must be the same as the number of control qubits");
  return success();
}

//===----------------------------------------------------------------------===//
// Observables
//===----------------------------------------------------------------------===//

LogicalResult ComputationalBasisOp::verify() {
  if (!getQubits().empty() && getQreg())
    return emitOpError(
        "computational basis op cannot simultaneously take in both qubits and quregs");
  return success();
}

LogicalResult HermitianOp::verify() {
  if (!qshape::quantum::isGateMatrix(getMatrix().getType(), getQubits().size()))
    return emitOpError("The Hermitian matrix must be of size 2^(num_qubits) * 2^(num_qubits)");
  return success();
}
