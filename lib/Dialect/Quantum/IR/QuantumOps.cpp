//===- QuantumOps.cpp - quantum dialect verifiers and custom syntax -------===//
//
// The verifiers check what Catalyst's verifiers check (its QuantumOps.cpp and
// the verifiers of its QuantumOperation / QuantumGate interfaces, 2026-08),
// with Catalyst's messages, so that a module verifies in qshape exactly when
// it verifies in Catalyst. The few extra rules reject forms Catalyst's own
// printer cannot print back (a register index or size given both ways or
// not at all); each says so where it is checked.
//
// quantum.operator has a hand-written syntax (Catalyst's), parsed and printed
// below; quantum.ctrl uses a custom directive for its possibly empty type
// lists.
//
//===----------------------------------------------------------------------===//

#include "qshape/Dialect/Quantum/IR/QuantumOps.h"
#include "qshape/Dialect/Quantum/IR/OpSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace qshape::quantum;

//===----------------------------------------------------------------------===//
// Custom directives (declared before the generated code that calls them).
//===----------------------------------------------------------------------===//

/// A comma-separated type list that may be empty: quantum.ctrl prints its
/// control and target type lists with ODS's `type(...)`, which prints nothing
/// for an empty list, and a plain type list cannot be parsed back from
/// nothing.
static ParseResult parseOptionalTypeList(OpAsmParser &parser, SmallVectorImpl<Type> &types) {
  Type first;
  OptionalParseResult r = parser.parseOptionalType(first);
  if (!r.has_value())
    return success();
  if (failed(*r))
    return failure();
  types.push_back(first);
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseType(types.emplace_back()))
      return failure();
  return success();
}

static void printOptionalTypeList(OpAsmPrinter &p, Operation *, TypeRange types) {
  llvm::interleaveComma(types, p);
}

#define GET_OP_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

namespace {

/// Catalyst's QuantumOperation interface: as many qubits (targets and
/// controls) come out as go in. Its interface verifiers report without the
/// op-name prefix, so these do too.
LogicalResult verifyQubitFlow(Operation *op, size_t in, size_t out) {
  if (in != out)
    return op->emitError() << "number of qubits in input (" << in << ") and output (" << out
                           << ") must be the same";
  return success();
}

/// Catalyst's QuantumGate interface: one control value per control qubit, and
/// every control qubit comes out again.
LogicalResult verifyControls(Operation *op, size_t ctrls, size_t values, size_t outCtrls) {
  if (values != ctrls)
    return op->emitError() << "number of controlling qubits in input (" << ctrls
                           << ") and controlling values (" << values << ") must be the same";
  if (outCtrls != ctrls)
    return op->emitError() << "number of controlling qubits in input (" << ctrls << ") and output ("
                           << outCtrls << ") must be the same";
  return success();
}

/// Both interface rules for the ops with target and control qubit groups.
template <typename GateOp> LogicalResult verifyUnitaryGate(GateOp op) {
  size_t ctrls = op.getInCtrlQubits().size(), outCtrls = op.getOutCtrlQubits().size();
  if (failed(verifyQubitFlow(op, op.getInQubits().size() + ctrls,
                             op.getOutQubits().size() + outCtrls)))
    return failure();
  return verifyControls(op, ctrls, op.getInCtrlValues().size(), outCtrls);
}

/// True when `type` is a shaped type of exactly `dims` (all static).
bool hasExactShape(Type type, ArrayRef<int64_t> dims) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() && shaped.getShape() == dims;
}

/// 2^n, or -1 when it does not fit (no static dimension can match then).
int64_t powerOfTwo(size_t n) { return n < 63 ? int64_t(1) << n : -1; }

/// What a measurement's observable operand is, by the op that defines it.
/// Catalyst's verifiers accept only observables defined by an observable op
/// (theirs or the reference-semantics `qref` ones), never block arguments.
struct ObservableDef {
  bool known = false;
  /// Qubits of a computational basis (0 for a register) or results of an
  /// mcmobs; unset for the other observables.
  std::optional<size_t> numQubits;
  bool isNamed = false;        ///< quantum.namedobs or qref.namedobs
  bool isQuantumNamed = false; ///< quantum.namedobs
};

ObservableDef describeObservable(Value obs) {
  ObservableDef d;
  Operation *def = obs.getDefiningOp();
  if (!def)
    return d;
  if (auto basis = dyn_cast<ComputationalBasisOp>(def)) {
    d.known = true;
    d.numQubits = basis.getQubits().size();
  } else if (auto mcm = dyn_cast<MCMObsOp>(def)) {
    d.known = true;
    d.numQubits = mcm.getMcms().size();
  } else if (isa<NamedObsOp>(def)) {
    d.known = d.isNamed = d.isQuantumNamed = true;
  } else if (isa<HermitianOp, TensorOp, HamiltonianOp>(def)) {
    d.known = true;
  } else {
    // The `qref` dialect's observables, read by name: the qref library links
    // this one, not the other way round, and a host without qref (Catalyst's
    // tools, or a generic-form module) has them unregistered.
    // qref.compbasis has the same qubits/qreg segments.
    StringRef name = def->getName().getStringRef();
    if (name == "qref.compbasis") {
      d.known = true;
      auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(def->getAttr("operandSegmentSizes"));
      d.numQubits = sizes && !sizes.empty() ? size_t(sizes[0]) : def->getNumOperands();
    } else if (name == "qref.namedobs") {
      d.known = d.isNamed = true;
    } else if (name == "qref.hermitian") {
      d.known = true;
    }
  }
  return d;
}

/// Catalyst checks where measurements stand only in a quantum kernel, which
/// it recognizes by the transform module its frontend places first among
/// the nested modules of the QNode module.
LogicalResult verifyInQNodeFunction(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return success();
  ModuleOp firstNested;
  for (Operation &child : module.getBody()->getOperations()) {
    firstNested = dyn_cast<ModuleOp>(&child);
    if (firstNested)
      break;
  }
  if (!firstNested || !firstNested->hasAttr("transform.with_named_sequence"))
    return success();
  Operation *func = op->getParentOp();
  while (func && func->getName().getStringRef() != "func.func")
    func = func->getParentOp();
  if (!func)
    return op->emitOpError("must be nested inside a 'func.func' operation");
  if (!func->hasAttrOfType<UnitAttr>("quantum.node"))
    return op->emitOpError("requires parent function to carry 'quantum.node' attribute");
  return success();
}

/// A measurement returns a tensor (value form) or writes into memrefs
/// (bufferized form), never both and never neither.
LogicalResult verifyResultOrBuffer(Operation *op, bool hasBuffer, bool hasResult) {
  if (hasBuffer == hasResult)
    return op->emitOpError("either tensors must be returned or memrefs must be used as inputs");
  return success();
}

/// A returned tensor has a static shape and no shape operand, or a dynamic
/// shape and a shape operand.
LogicalResult verifyResultShape(Operation *op, Value result, bool hasDynamicShape) {
  if (!result)
    return success();
  bool isStatic = cast<ShapedType>(result.getType()).hasStaticShape();
  if (isStatic && hasDynamicShape)
    return op->emitOpError(
        "with static return shapes should not specify dynamic shape in arguments");
  if (!isStatic && !hasDynamicShape)
    return op->emitOpError("with dynamic return shapes must specify dynamic shape in arguments");
  return success();
}

/// The common prologue of sample, counts, probs and state.
FailureOr<ObservableDef> verifyMeasurementObservable(Operation *op, Value obs) {
  if (failed(verifyInQNodeFunction(op)))
    return failure();
  ObservableDef d = describeObservable(obs);
  if (!d.known)
    return op->emitOpError("observable must be locally defined");
  return d;
}

/// Ops that measure: no region of quantum.adjoint may hold a measurement
/// process (isMeasurementProcess), no region of quantum.ctrl any of these.
bool isAnyMeasurement(Operation *op) {
  if (isMeasurementProcess(op) || isa<MeasureOp>(op))
    return true;
  // Catalyst's Pauli-product and MBQC measurements (dialects qshape lacks).
  StringRef name = op->getName().getStringRef();
  return name == "pbc.ppm" || name == "mbqc.measure_in_basis";
}

template <typename Pred> bool regionContains(Region &region, Pred pred) {
  return region
      .walk([&](Operation *inner) {
        return pred(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The entry block takes the op's target arguments, type for type.
LogicalResult verifyRegionArguments(Operation *op, Region &region, ValueRange args,
                                    StringRef opWord) {
  Block &entry = region.front();
  if (entry.getNumArguments() != args.size())
    return op->emitOpError() << opWord
                             << " op number of operands must be the same as the number of "
                                "arguments on its block";
  for (auto [operand, arg] : llvm::zip_equal(args, entry.getArguments()))
    if (operand.getType() != arg.getType())
      return op->emitOpError()
             << opWord << " op operand types must be the same as the argument types on its block";
  return success();
}

/// qshape's rule for the register ops (Catalyst checks only "neither" for
/// extract and insert): the pretty form holds one of the two, so an op with
/// both would print without its attribute.
LogicalResult verifyNotBoth(Operation *op, Value dynamic, Attribute stat, StringRef what) {
  if (dynamic && stat)
    return op->emitOpError() << "has both a dynamic " << what << " operand and a static " << what
                             << " attribute; it must have one";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Qubit management
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  if (failed(verifyNotBoth(*this, getNqubits(), getNqubitsAttrAttr(), "size")))
    return failure();
  // Catalyst has no alloc verifier, but its printer cannot print an alloc
  // without a size (`quantum.alloc(<<NULL ATTRIBUTE>>)`).
  if (!getNqubits() && !getNqubitsAttrAttr())
    return emitOpError("expected op to have a size (an nqubits operand or an nqubits_attr)");
  return success();
}

LogicalResult ExtractOp::verify() {
  if (!getIdx() && !getIdxAttrAttr())
    return emitOpError("expected op to have a non-null index");
  return verifyNotBoth(*this, getIdx(), getIdxAttrAttr(), "index");
}

LogicalResult InsertOp::verify() {
  if (!getIdx() && !getIdxAttrAttr())
    return emitOpError("expected op to have a non-null index");
  return verifyNotBoth(*this, getIdx(), getIdxAttrAttr(), "index");
}

//===----------------------------------------------------------------------===//
// State preparation and gates
//===----------------------------------------------------------------------===//

// Catalyst checks neither the state's length nor the basis state's against
// the qubits (its bufferization tests prepare one qubit from a 2-bit basis
// state): the device decides at run time.
LogicalResult SetStateOp::verify() {
  return verifyQubitFlow(*this, getInQubits().size(), getOutQubits().size());
}

LogicalResult SetBasisStateOp::verify() {
  return verifyQubitFlow(*this, getInQubits().size(), getOutQubits().size());
}

LogicalResult CustomOp::verify() {
  if (failed(verifyUnitaryGate(*this)))
    return failure();
  if (getInQubits().empty())
    return emitOpError("expected op to have at least one qubit");
  return success();
}

LogicalResult PauliRotOp::verify() {
  if (failed(verifyUnitaryGate(*this)))
    return failure();
  ArrayAttr word = getPauliProduct();
  if (word.size() != getInQubits().size())
    return emitOpError() << "length of Pauli word (" << word.size() << ") and number of qubits ("
                         << getInQubits().size() << ") must be the same";
  for (Attribute letter : word) {
    StringRef s = cast<StringAttr>(letter).getValue();
    if (s != "X" && s != "Y" && s != "Z" && s != "I")
      return emitOpError(R"(Only "X", "Y", "Z", and "I" are valid Pauli words.)");
  }
  return success();
}

LogicalResult GlobalPhaseOp::verify() {
  size_t ctrls = getInCtrlQubits().size(), outCtrls = getOutCtrlQubits().size();
  if (failed(verifyQubitFlow(*this, ctrls, outCtrls)))
    return failure();
  return verifyControls(*this, ctrls, getInCtrlValues().size(), outCtrls);
}

LogicalResult MultiRZOp::verify() { return verifyUnitaryGate(*this); }

// Catalyst does not bound `dim`: the device checks it at run time.
LogicalResult PCPhaseOp::verify() { return verifyUnitaryGate(*this); }

LogicalResult QubitUnitaryOp::verify() {
  if (failed(verifyUnitaryGate(*this)))
    return failure();
  if (!isGateMatrix(getMatrix().getType(), getInQubits().size()))
    return emitOpError("The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)");
  return success();
}

//===----------------------------------------------------------------------===//
// quantum.operator
//===----------------------------------------------------------------------===//

LogicalResult OperatorOp::verify() {
  if (failed(verifyUnitaryGate(*this)))
    return failure();

  bool qregIn = static_cast<bool>(getInQreg()), qregOut = static_cast<bool>(getOutQreg());
  bool registerMode = qregIn || qregOut;
  bool qubitMode = !getInQubits().empty() || !getOutQubits().empty();
  if (registerMode && qubitMode)
    return emitOpError("must use either qubits or registers, but not both");
  if (qregIn != qregOut)
    return emitOpError("in_qreg and out_qreg must either both be present or absent");
  if (!getForwardArgs().empty() && !getUID())
    return emitOpError("forward_args can only be present when UID is provided");

  bool qubitControls =
      !getInCtrlQubits().empty() || !getInCtrlValues().empty() || !getOutCtrlQubits().empty();
  Value ctrlIndices = getArrCtrlIndices(), ctrlValues = getArrCtrlValues();
  if (qubitControls && (ctrlIndices || ctrlValues))
    return emitOpError("cannot mix qubit controls (in_ctrl_qubits/in_ctrl_values/"
                       "out_ctrl_qubits) with register controls (arr_ctrl_indices/"
                       "arr_ctrl_values)");
  if (failed(verifyRegisterControls(*this, ctrlIndices, ctrlValues)))
    return failure();
  size_t numTargets = registerMode ? getArrQubitIndices().size() : getInQubits().size();
  return verifyOperatorMaps(*this, getParamMapAttr(), getParams().size(), getQubitMapAttr(),
                            numTargets, registerMode);
}

// Syntax (Catalyst's, section by section, each after a line break except the
// first line's):
//   quantum.operator "Name"(%p: t, ...) [adj] [qubits(%q, ...)] [{attrs}]
//     [UID(n) [forward(%f: t, ...)]]
//     [quregs(%r) indices(%i: t, ...)]
//     [ctrls(%c, ...) ctrl_vals(%v, ...) | ctrls(%ci: t) ctrl_vals(%cv: t)]
//     [static_data = {...}]
//     [param_map = {name = [0, ...]}] [qubit_map = {name = [0, ...]}]
// `qubits(...)` is printed whenever there is no register, even when empty.

static constexpr llvm::StringLiteral kOperatorSyntaxAttrs[] = {"op_name",
                                                               "adjoint",
                                                               "UID",
                                                               "static_data",
                                                               "param_map",
                                                               "qubit_map",
                                                               "operandSegmentSizes",
                                                               "resultSegmentSizes"};

void OperatorOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printString(getOpName());
  printTypedValues(p, getParams());
  if (getAdjoint())
    p << " adj";
  if (!getInQreg())
    p << " qubits(" << getInQubits() << ')';
  SmallVector<StringRef> elided(std::begin(kOperatorSyntaxAttrs), std::end(kOperatorSyntaxAttrs));
  p.printOptionalAttrDict((*this)->getAttrs(), elided);

  p.increaseIndent();
  if (IntegerAttr uid = getUIDAttr()) {
    p.printNewline();
    // Signed: Catalyst's printer shows the unsigned value, which its parser
    // rejects for a negative UID.
    p << "UID(" << uid.getInt() << ')';
    if (!getForwardArgs().empty()) {
      p << " forward";
      printTypedValues(p, getForwardArgs());
    }
  }
  if (Value reg = getInQreg()) {
    p.printNewline();
    p << "quregs(" << reg << ") indices";
    printTypedValues(p, getArrQubitIndices());
  }
  if (!getInCtrlQubits().empty()) {
    p.printNewline();
    p << "ctrls(" << getInCtrlQubits() << ") ctrl_vals(" << getInCtrlValues() << ')';
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
  Builder &b = parser.getBuilder();
  MLIRContext *ctx = parser.getContext();
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

  std::optional<OpAsmParser::UnresolvedOperand> reg;
  SMLoc indicesLoc = parser.getCurrentLocation();
  TypedOperands indices;
  if (succeeded(parser.parseOptionalKeyword("quregs"))) {
    if (parser.parseLParen() || parser.parseOperand(reg.emplace()) || parser.parseRParen() ||
        parser.parseKeyword("indices"))
      return failure();
    indicesLoc = parser.getCurrentLocation();
    if (indices.parse(parser))
      return failure();
  }

  // Controls: qubits and i1 values in qubit mode, one index tensor and one
  // value tensor (typed) in register mode.
  SmallVector<OpAsmParser::UnresolvedOperand> ctrlQubits, ctrlValues;
  SMLoc ctrlLoc = parser.getCurrentLocation();
  TypedOperands ctrlIndexArray, ctrlValueArray;
  if (succeeded(parser.parseOptionalKeyword("ctrls"))) {
    if (reg) {
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
  Type qubitType = QubitType::get(ctx), qregType = QuregType::get(ctx);
  if (params.resolve(parser, paramsLoc, result) || forward.resolve(parser, forwardLoc, result) ||
      parser.resolveOperands(qubits, qubitType, result.operands) ||
      parser.resolveOperands(ctrlQubits, qubitType, result.operands) ||
      parser.resolveOperands(ctrlValues, b.getI1Type(), result.operands) ||
      (reg && parser.resolveOperand(*reg, qregType, result.operands)) ||
      indices.resolve(parser, indicesLoc, result) ||
      ctrlIndexArray.resolve(parser, ctrlLoc, result) ||
      ctrlValueArray.resolve(parser, ctrlLoc, result))
    return failure();
  auto size = [](size_t n) { return static_cast<int32_t>(n); };
  llvm::copy(ArrayRef<int32_t>{size(params.operands.size()), size(forward.operands.size()),
                               size(qubits.size()), size(ctrlQubits.size()),
                               size(ctrlValues.size()), reg ? 1 : 0, size(indices.operands.size()),
                               size(ctrlIndexArray.operands.size()),
                               size(ctrlValueArray.operands.size())},
             props.operandSegmentSizes.begin());

  // Results: one qubit per target and per control, or the new register.
  result.addTypes(SmallVector<Type>(qubits.size() + ctrlQubits.size(), qubitType));
  if (reg)
    result.addTypes(qregType);
  llvm::copy(ArrayRef<int32_t>{size(qubits.size()), size(ctrlQubits.size()), reg ? 1 : 0},
             props.resultSegmentSizes.begin());
  return success();
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

// Catalyst does not compare what the region yields with the op's results;
// neither does qshape (qshape-sim reports a mismatch when it runs the op).
LogicalResult AdjointOp::verify() {
  if (regionContains(getRegion(), isMeasurementProcess))
    return emitOpError("quantum measurements are not allowed in the adjoint regions");
  return verifyRegionArguments(*this, getRegion(), getArgs(), "Adjoint");
}

LogicalResult CtrlOp::verify() {
  if (regionContains(getRegion(), isAnyMeasurement))
    return emitOpError("quantum measurements are not allowed in the ctrl regions");
  if (getInCtrlValues().size() != getInCtrlQubits().size())
    return emitOpError(
        "Ctrl op number of control values must be the same as the number of control qubits");
  return verifyRegionArguments(*this, getRegion(), getArgs(), "Ctrl");
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
  if (!isGateMatrix(getMatrix().getType(), getQubits().size()))
    return emitOpError("The Hermitian matrix must be of size 2^(num_qubits) * 2^(num_qubits)");
  return success();
}

//===----------------------------------------------------------------------===//
// Measurements
//===----------------------------------------------------------------------===//

LogicalResult ExpvalOp::verify() { return verifyInQNodeFunction(*this); }

LogicalResult VarianceOp::verify() { return verifyInQNodeFunction(*this); }

LogicalResult SampleOp::verify() {
  if (failed(verifyMeasurementObservable(*this, getObs())))
    return failure();
  if (failed(verifyResultOrBuffer(*this, static_cast<bool>(getInData()),
                                  static_cast<bool>(getSamples()))))
    return failure();
  return verifyResultShape(*this, getSamples(), !getDynamicShape().empty());
}

LogicalResult ProbsOp::verify() {
  FailureOr<ObservableDef> obs = verifyMeasurementObservable(*this, getObs());
  if (failed(obs))
    return failure();
  if (!obs->numQubits)
    return emitOpError("only computational basis observables are supported");
  if (failed(verifyResultOrBuffer(*this, static_cast<bool>(getStateIn()),
                                  static_cast<bool>(getProbabilities()))))
    return failure();
  return verifyResultShape(*this, getProbabilities(), static_cast<bool>(getDynamicShape()));
}

LogicalResult StateOp::verify() {
  FailureOr<ObservableDef> obs = verifyMeasurementObservable(*this, getObs());
  if (failed(obs))
    return failure();
  if (!obs->numQubits)
    return emitOpError("only computational basis observables are supported");
  if (failed(verifyResultOrBuffer(*this, static_cast<bool>(getStateIn()),
                                  static_cast<bool>(getState()))))
    return failure();
  return verifyResultShape(*this, getState(), static_cast<bool>(getDynamicShape()));
}

LogicalResult CountsOp::verify() {
  FailureOr<ObservableDef> obs = verifyMeasurementObservable(*this, getObs());
  if (failed(obs))
    return failure();
  // Catalyst decides the form by the counts buffer alone.
  if (failed(verifyResultOrBuffer(*this, static_cast<bool>(getInCounts()),
                                  static_cast<bool>(getCounts()))))
    return failure();
  if (failed(verifyResultShape(*this, getCounts(), static_cast<bool>(getDynamicShape()))))
    return failure();
  // qshape's rule: the pretty form prints both buffers or neither (Catalyst's
  // verifier lets one through, and its printer then fails).
  if (static_cast<bool>(getInEigvals()) != static_cast<bool>(getInCounts()))
    return emitOpError("bufferized form needs both eigenvalue and count buffers");

  // A named observable has two eigenvalues; a computational basis or a set
  // of mid-circuit measurements on n qubits has 2^n bitstrings.
  size_t numQubits = obs->numQubits.value_or(0);
  int64_t numEigvals;
  if (obs->isNamed)
    numEigvals = 2;
  else if (obs->numQubits)
    numEigvals = powerOfTwo(numQubits);
  else
    return emitOpError("cannot determine the number of eigenvalues for general observable");

  Value eigvals = getEigvals() ? Value(getEigvals()) : Value(getInEigvals());
  Value counts = getCounts() ? Value(getCounts()) : Value(getInCounts());
  // A dynamic length, or a computational basis of a whole register (no
  // qubit count), is checked at run time.
  if (cast<ShapedType>(eigvals.getType()).isDynamicDim(0) ||
      (!obs->isQuantumNamed && numQubits == 0))
    return success();
  if (!hasExactShape(eigvals.getType(), {numEigvals}) ||
      !hasExactShape(counts.getType(), {numEigvals}))
    return emitOpError("number of eigenvalues or counts did not match observable");
  return success();
}
