//===- QuantumOps.cpp - quantum dialect verifiers -------------------------===//
//
// Verifiers check what the assembly format cannot: operand counts that must
// agree across segments, exactly-one-of static/dynamic indices, matrix sizes
// and Pauli words. Messages name the numbers so the fix is obvious.
//
//===----------------------------------------------------------------------===//

#include "qshape/Dialect/Quantum/IR/QuantumOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace qshape::quantum;

#define GET_OP_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumOps.cpp.inc"

namespace {

/// Exactly one of a dynamic operand and a static attribute gives an index or size.
LogicalResult verifyOneOf(Operation *op, Value dynamic, Attribute stat,
                          StringRef what) {
  if (static_cast<bool>(dynamic) == static_cast<bool>(stat))
    return op->emitOpError() << "expects exactly one of a dynamic " << what
                             << " operand or a static " << what << " attribute, got "
                             << (dynamic ? "both" : "neither");
  return success();
}

LogicalResult verifyControls(Operation *op, size_t nCtrlQubits, size_t nCtrlValues,
                             size_t nOutCtrl) {
  if (nCtrlQubits != nCtrlValues)
    return op->emitOpError() << "has " << nCtrlQubits << " control qubits but "
                             << nCtrlValues << " control values; they must match";
  if (nOutCtrl != nCtrlQubits)
    return op->emitOpError() << "has " << nCtrlQubits << " control qubits but "
                             << nOutCtrl << " output control qubits; they must match";
  return success();
}

template <typename GateOp> LogicalResult verifyGate(GateOp op) {
  if (op.getOutQubits().size() != op.getInQubits().size())
    return op.emitOpError() << "has " << op.getInQubits().size() << " input qubits but "
                            << op.getOutQubits().size()
                            << " output qubits; they must match";
  return verifyControls(op, op.getInCtrlQubits().size(), op.getInCtrlValues().size(),
                        op.getOutCtrlQubits().size());
}

/// `type` must be a square 2^n x 2^n tensor or memref when its shape is static.
LogicalResult verifyMatrix(Operation *op, Type type, size_t nQubits) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || shaped.getRank() != 2)
    return op->emitOpError("expects a rank-2 matrix");
  int64_t dim = int64_t(1) << nQubits;
  for (int64_t d : shaped.getShape())
    if (!ShapedType::isDynamic(d) && d != dim)
      return op->emitOpError() << "acts on " << nQubits << " qubits, so its matrix must be "
                               << dim << "x" << dim << ", got " << shaped;
  return success();
}

/// Region ops take their target arguments as entry block arguments and
/// yield values whose types are the op's (non-control) results.
LogicalResult verifyRegion(Operation *op, Region &region, TypeRange args,
                           TypeRange expected) {
  Block &entry = region.front();
  if (entry.getArgumentTypes() != args)
    return op->emitOpError() << "region takes (" << entry.getArgumentTypes()
                             << ") but the op's target arguments are (" << args
                             << "); they must match";
  Operation *term = entry.empty() ? nullptr : &entry.back();
  if (!term || term->getName().getStringRef() != "quantum.yield")
    return op->emitOpError("region must end in quantum.yield");
  if (term->getOperandTypes() != expected)
    return op->emitOpError() << "region yields (" << term->getOperandTypes()
                             << ") but the op returns (" << expected
                             << "); they must match";
  return success();
}

} // namespace

LogicalResult AllocOp::verify() {
  return verifyOneOf(*this, getNqubits(), getNqubitsAttrAttr(), "size");
}

LogicalResult ExtractOp::verify() {
  return verifyOneOf(*this, getIdx(), getIdxAttrAttr(), "index");
}

LogicalResult InsertOp::verify() {
  return verifyOneOf(*this, getIdx(), getIdxAttrAttr(), "index");
}

LogicalResult SetStateOp::verify() {
  if (getInQubits().size() != getOutQubits().size())
    return emitOpError("must return one qubit per input qubit");
  auto shaped = cast<ShapedType>(getInState().getType());
  int64_t expected = int64_t(1) << getInQubits().size();
  if (!shaped.isDynamicDim(0) && shaped.getDimSize(0) != expected)
    return emitOpError() << "prepares " << getInQubits().size()
                         << " qubits, so the state must have " << expected
                         << " amplitudes, got " << shaped.getDimSize(0);
  return success();
}

LogicalResult SetBasisStateOp::verify() {
  if (getInQubits().size() != getOutQubits().size())
    return emitOpError("must return one qubit per input qubit");
  auto shaped = cast<ShapedType>(getBasisState().getType());
  if (!shaped.isDynamicDim(0) &&
      shaped.getDimSize(0) != static_cast<int64_t>(getInQubits().size()))
    return emitOpError() << "prepares " << getInQubits().size()
                         << " qubits, so the basis state must have as many bits, got "
                         << shaped.getDimSize(0);
  return success();
}

LogicalResult CustomOp::verify() {
  if (getGateName().empty())
    return emitOpError("gate_name must not be empty");
  return verifyGate(*this);
}

LogicalResult PauliRotOp::verify() {
  ArrayAttr word = getPauliProduct();
  if (word.size() != getInQubits().size())
    return emitOpError() << "Pauli word has " << word.size() << " letters but the op acts on "
                         << getInQubits().size() << " qubits";
  for (Attribute letter : word) {
    StringRef s = cast<StringAttr>(letter).getValue();
    if (s != "I" && s != "X" && s != "Y" && s != "Z")
      return emitOpError() << "Pauli word letter '" << s
                           << "' is not one of \"I\", \"X\", \"Y\", \"Z\"";
  }
  return verifyGate(*this);
}

LogicalResult GlobalPhaseOp::verify() {
  return verifyControls(*this, getInCtrlQubits().size(), getInCtrlValues().size(),
                        getOutCtrlQubits().size());
}

LogicalResult MultiRZOp::verify() { return verifyGate(*this); }

LogicalResult PCPhaseOp::verify() {
  // `dim` is an I64Attr, whose accessor returns uint64_t: read it signed.
  int64_t dim = getDimAttr().getInt();
  size_t n = getInQubits().size();
  if (dim < 0 || (n < 63 && dim > (int64_t(1) << n)))
    return emitOpError() << "dim must be between 0 and 2^" << n << " = "
                         << (n < 63 ? (int64_t(1) << n) : INT64_MAX) << ", got " << dim;
  return verifyGate(*this);
}

LogicalResult QubitUnitaryOp::verify() {
  if (failed(verifyMatrix(*this, getMatrix().getType(), getInQubits().size())))
    return failure();
  return verifyGate(*this);
}

LogicalResult AdjointOp::verify() {
  return verifyRegion(*this, getRegion(), getArgs().getTypes(), getResults().getTypes());
}

LogicalResult CtrlOp::verify() {
  if (failed(verifyControls(*this, getInCtrlQubits().size(), getInCtrlValues().size(),
                            getOutCtrlQubits().size())))
    return failure();
  if (getArgs().getTypes() != getResults().getTypes())
    return emitOpError("result types must match the types of the target arguments");
  return verifyRegion(*this, getRegion(), getArgs().getTypes(), getResults().getTypes());
}

LogicalResult ComputationalBasisOp::verify() {
  if (!getQubits().empty() && getQreg())
    return emitOpError("takes either qubits or a register, not both");
  return success();
}

LogicalResult HermitianOp::verify() {
  return verifyMatrix(*this, getMatrix().getType(), getQubits().size());
}

LogicalResult HamiltonianOp::verify() {
  auto shaped = cast<ShapedType>(getCoeffs().getType());
  if (!shaped.isDynamicDim(0) &&
      shaped.getDimSize(0) != static_cast<int64_t>(getTerms().size()))
    return emitOpError() << "has " << getTerms().size() << " terms but "
                         << shaped.getDimSize(0) << " coefficients";
  return success();
}

/// Measurements return a tensor (value form) or write into a memref
/// (bufferized form `in(...)`), never both and never neither.
static LogicalResult verifyMeasurementForm(Operation *op, bool hasBuffer,
                                           bool hasResult) {
  if (hasBuffer == hasResult)
    return op->emitOpError(hasBuffer ? "cannot both write into a buffer and return a result"
                                     : "must either return a result or write into a buffer");
  return success();
}

LogicalResult ProbsOp::verify() {
  return verifyMeasurementForm(*this, static_cast<bool>(getStateIn()),
                               static_cast<bool>(getProbabilities()));
}

LogicalResult StateOp::verify() {
  return verifyMeasurementForm(*this, static_cast<bool>(getStateIn()),
                               static_cast<bool>(getState()));
}

LogicalResult SampleOp::verify() {
  return verifyMeasurementForm(*this, static_cast<bool>(getInData()),
                               static_cast<bool>(getSamples()));
}

LogicalResult CountsOp::verify() {
  bool hasBuffer = getInEigvals() || getInCounts();
  if (static_cast<bool>(getInEigvals()) != static_cast<bool>(getInCounts()))
    return emitOpError("bufferized form needs both eigenvalue and count buffers");
  return verifyMeasurementForm(*this, hasBuffer, getNumResults() != 0);
}
