//===- ClassicalOps.cpp - qshape-sim: arith, math, index, complex, tensor -===//
//
// Scalar ops are evaluated by one evaluator (evalScalar) and applied element
// by element when their operands are tensors. Integers are kept sign-extended
// from their width; every result is wrapped back to its width, so i32/i64/
// index arithmetic wraps as MLIR's does. Operations that are undefined in
// MLIR (division by zero, over-wide shifts, out-of-range float-to-int
// conversions) are errors, not guesses.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

using namespace mlir;

namespace qshape::interp {

std::optional<ElemInfo> getElemInfo(Type t) {
  if (t.isF64())
    return ElemInfo{ScalarKind::Float, false, 64};
  if (t.isF32())
    return ElemInfo{ScalarKind::Float, true, 32};
  if (t.isIndex())
    return ElemInfo{ScalarKind::Int, false, 64};
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 0 || it.getWidth() > 64)
      return std::nullopt;
    return ElemInfo{ScalarKind::Int, false, it.getWidth()};
  }
  if (auto ct = dyn_cast<ComplexType>(t))
    if (ct.getElementType().isF64())
      return ElemInfo{ScalarKind::Complex, false, 64};
  return std::nullopt;
}

static double toDouble(APFloat v) {
  bool losesInfo = false;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return v.convertToDouble();
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// A tensor value of a dense elements attribute.
static FailureOr<RtValue> decodeDense(DenseElementsAttr attr, std::string &why) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape()) {
    why = "dense constant of type " + typeString(attr.getType()) + " (needs a static tensor)";
    return failure();
  }
  std::optional<ElemInfo> info = getElemInfo(type.getElementType());
  if (!info) {
    why = "dense constant with element type " + typeString(type.getElementType());
    return failure();
  }
  auto t = std::make_shared<Tensor>();
  t->elem = info->kind;
  t->shape.assign(type.getShape().begin(), type.getShape().end());
  t->resize(t->getNumElements());
  int64_t k = 0;
  switch (info->kind) {
  case ScalarKind::Float:
    for (APFloat v : attr.getValues<APFloat>())
      t->f[k++] = toDouble(v);
    break;
  case ScalarKind::Int:
    for (APInt v : attr.getValues<APInt>())
      t->i[k++] = wrapInt(v.getSExtValue(), info->width);
    break;
  case ScalarKind::Complex:
    for (std::complex<APFloat> v : attr.getValues<std::complex<APFloat>>())
      t->c[k++] = {toDouble(v.real()), toDouble(v.imag())};
    break;
  }
  return RtValue::getTensor(std::move(t));
}

static FailureOr<RtValue> decodeConstantAttr(Attribute attr, Type type, std::string &why) {
  if (auto f = dyn_cast_or_null<FloatAttr>(attr)) {
    if (!getElemInfo(f.getType())) {
      why = "constant of type " + typeString(f.getType());
      return failure();
    }
    return RtValue::getFloat(toDouble(f.getValue()));
  }
  if (auto b = dyn_cast_or_null<BoolAttr>(attr))
    return RtValue::getInt(b.getValue() ? -1 : 0);
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr)) {
    std::optional<ElemInfo> info = getElemInfo(i.getType());
    if (!info) {
      why = "constant of type " + typeString(i.getType());
      return failure();
    }
    return RtValue::getInt(wrapInt(i.getValue().getSExtValue(), info->width));
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return decodeDense(dense, why);
  why = "constant attribute kind (only scalars and dense elements are supported)";
  (void)type;
  return failure();
}

void InterpreterImpl::decodeClassical(Operation *op, OpDesc &d) {
  auto setUnsupportedType = [&](Type t) {
    d.unsupported = "values of type " + typeString(t) + " are not supported";
  };
  auto resultInfo = [&]() -> bool {
    if (op->getNumResults() == 0)
      return true;
    Type t = getElementTypeOrSelf(op->getResult(0).getType());
    std::optional<ElemInfo> info = getElemInfo(t);
    if (!info) {
      setUnsupportedType(op->getResult(0).getType());
      return false;
    }
    d.resIsF32 = info->isF32;
    d.resWidth = info->width;
    return true;
  };

  if (isElementwise(d.code)) {
    if (d.code == OpCode::Select) {
      // The chosen operands may be of any type (even qubits); only a
      // tensor condition needs scalar elements.
      Type t = getElementTypeOrSelf(op->getResult(0).getType());
      if (std::optional<ElemInfo> info = getElemInfo(t)) {
        d.resIsF32 = info->isF32;
        d.resWidth = info->width;
      }
      return;
    }
    for (Type t : op->getOperandTypes())
      if (!getElemInfo(getElementTypeOrSelf(t)))
        return setUnsupportedType(t);
    if (!resultInfo())
      return;
    if (op->getNumOperands() > 0)
      d.opWidth = getElemInfo(getElementTypeOrSelf(op->getOperand(0).getType()))->width;
    if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      d.predicate = static_cast<int64_t>(cmp.getPredicate());
    else if (auto cmp = dyn_cast<arith::CmpFOp>(op))
      d.predicate = static_cast<int64_t>(cmp.getPredicate());
    else if (auto cmp = dyn_cast<index::CmpOp>(op))
      d.predicate = static_cast<int64_t>(cmp.getPred());
    return;
  }

  switch (d.code) {
  case OpCode::ArithConstant:
  case OpCode::IndexConstant:
  case OpCode::IndexBoolConstant: {
    FailureOr<RtValue> v =
        decodeConstantAttr(op->getAttr("value"), op->getResult(0).getType(), d.unsupported);
    if (succeeded(v))
      d.constant = *v;
    else if (d.unsupported.empty())
      d.unsupported = "unsupported constant";
    return;
  }
  case OpCode::ComplexConstant: {
    auto arr = dyn_cast_or_null<ArrayAttr>(op->getAttr("value"));
    if (!arr || arr.size() != 2 || !isa<FloatAttr>(arr[0]) || !isa<FloatAttr>(arr[1]) ||
        !getElemInfo(op->getResult(0).getType())) {
      d.unsupported = "complex constant of type " + typeString(op->getResult(0).getType());
      return;
    }
    d.constant = RtValue::getComplex({toDouble(cast<FloatAttr>(arr[0]).getValue()),
                                      toDouble(cast<FloatAttr>(arr[1]).getValue())});
    return;
  }
  case OpCode::IndexSizeOf:
    d.constant = RtValue::getInt(64);
    return;
  case OpCode::TensorExtract:
  case OpCode::TensorInsert:
  case OpCode::TensorFromElements:
  case OpCode::TensorEmpty:
  case OpCode::TensorSplat:
  case OpCode::TensorDim:
  case OpCode::TensorCast:
  case OpCode::TensorCollapseShape:
  case OpCode::TensorExpandShape: {
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
      if (auto tt = dyn_cast<TensorType>(t)) {
        if (!isa<RankedTensorType>(tt) || !getElemInfo(tt.getElementType()))
          return setUnsupportedType(t);
      }
    }
    if (d.code == OpCode::TensorFromElements || d.code == OpCode::TensorCollapseShape ||
        d.code == OpCode::TensorExpandShape) {
      auto rt = cast<RankedTensorType>(op->getResult(0).getType());
      if (!rt.hasStaticShape())
        d.unsupported = "result shape is not static";
    }
    if (op->getNumResults() == 1)
      resultInfo();
    return;
  }
  default:
    return;
  }
}

//===----------------------------------------------------------------------===//
// Tensor ops and constants
//===----------------------------------------------------------------------===//

static ScalarKind kindOf(RtValue::Kind k) {
  switch (k) {
  case RtValue::Kind::Int:
    return ScalarKind::Int;
  case RtValue::Kind::Complex:
    return ScalarKind::Complex;
  default:
    return ScalarKind::Float;
  }
}

static std::shared_ptr<Tensor> newTensor(RankedTensorType type, ArrayRef<int64_t> shape) {
  auto t = std::make_shared<Tensor>();
  t->elem = getElemInfo(type.getElementType())->kind;
  t->shape.assign(shape.begin(), shape.end());
  t->resize(t->getNumElements());
  return t;
}

LogicalResult InterpreterImpl::execTensorElementAccess(Operation *op, const OpDesc &d) {
  bool isInsert = d.code == OpCode::TensorInsert;
  unsigned tensorOperand = isInsert ? 1 : 0;
  FailureOr<const Tensor *> t = getT(op, op->getOperand(tensorOperand));
  if (failed(t))
    return failure();
  const Tensor &tensor = **t;
  auto indices = op->getOperands().drop_front(tensorOperand + 1);
  if (indices.size() != tensor.shape.size())
    return simError(op) << "tensor of rank " << tensor.shape.size() << " indexed with "
                        << indices.size() << " indices";
  int64_t linear = 0;
  for (auto [k, v] : llvm::enumerate(indices)) {
    FailureOr<int64_t> idx = getI(op, v);
    if (failed(idx))
      return failure();
    if (*idx < 0 || *idx >= tensor.shape[k])
      return simError(op) << "index " << *idx << " out of bounds for dimension " << k << " of size "
                          << tensor.shape[k];
    linear = linear * tensor.shape[k] + *idx;
  }
  if (!isInsert) {
    set(op->getResult(0), RtValue::getElement(tensor, linear));
    return success();
  }
  const RtValue &scalar = get(op->getOperand(0));
  if (!scalar.isScalar() || kindOf(scalar.getKind()) != tensor.elem)
    return simError(op) << "inserted value does not match the tensor's element type";
  auto copy = std::make_shared<Tensor>(tensor);
  RtValue::setElement(*copy, linear, scalar);
  set(op->getResult(0), RtValue::getTensor(std::move(copy)));
  return success();
}

LogicalResult InterpreterImpl::execTensorEmptyOrSplat(Operation *op, const OpDesc &d) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned firstSize = d.code == OpCode::TensorSplat ? 1 : 0;
  SmallVector<int64_t, 4> shape;
  auto sizes = op->getOperands().drop_front(firstSize);
  unsigned next = 0;
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim)) {
      shape.push_back(dim);
      continue;
    }
    if (next >= sizes.size())
      return emitUnsupported(op, "missing dynamic size operand");
    FailureOr<int64_t> size = getI(op, sizes[next++]);
    if (failed(size))
      return failure();
    if (*size < 0)
      return simError(op) << "negative tensor size " << *size;
    shape.push_back(*size);
  }
  auto t = newTensor(type, shape);
  if (d.code == OpCode::TensorSplat) {
    const RtValue &e = get(op->getOperand(0));
    if (!e.isScalar() || kindOf(e.getKind()) != t->elem)
      return simError(op) << "splat value does not match the element type";
    for (int64_t k = 0, n = t->getNumElements(); k < n; ++k)
      RtValue::setElement(*t, k, e);
  }
  set(op->getResult(0), RtValue::getTensor(std::move(t)));
  return success();
}

LogicalResult InterpreterImpl::execTensorCastOrReshape(Operation *op, const OpDesc &d) {
  const RtValue &src = get(op->getOperand(0));
  if (src.getKind() != RtValue::Kind::Tensor)
    return kindError(op, "a tensor", src.getKind());
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  const Tensor &t = src.getTensor();
  if (d.code == OpCode::TensorCast) {
    if (type.getRank() != static_cast<int64_t>(t.shape.size()))
      return simError(op) << "cast changes the rank";
    for (auto [k, dim] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(dim) && dim != t.shape[k])
        return simError(op) << "cast to " << type << " of a tensor with dimension " << k
                            << " of size " << t.shape[k];
    set(op->getResult(0), src);
    return success();
  }
  if (type.getNumElements() != t.getNumElements())
    return simError(op) << "reshape changes the number of elements";
  auto copy = std::make_shared<Tensor>(t);
  copy->shape.assign(type.getShape().begin(), type.getShape().end());
  set(op->getResult(0), RtValue::getTensor(std::move(copy)));
  return success();
}

LogicalResult InterpreterImpl::execClassical(Operation *op, const OpDesc &d) {
  switch (d.code) {
  case OpCode::ArithConstant:
  case OpCode::IndexConstant:
  case OpCode::IndexBoolConstant:
  case OpCode::ComplexConstant:
  case OpCode::IndexSizeOf:
    set(op->getResult(0), d.constant);
    return success();

  case OpCode::TensorExtract:
  case OpCode::TensorInsert:
    return execTensorElementAccess(op, d);

  case OpCode::TensorFromElements: {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    auto t = newTensor(type, type.getShape());
    if (t->getNumElements() != static_cast<int64_t>(op->getNumOperands()))
      return simError(op) << "expected " << t->getNumElements() << " elements, got "
                          << op->getNumOperands();
    for (auto [k, v] : llvm::enumerate(op->getOperands())) {
      const RtValue &e = get(v);
      if (!e.isScalar() || kindOf(e.getKind()) != t->elem)
        return simError(op) << "element " << k << " does not match the element type";
      RtValue::setElement(*t, k, e);
    }
    set(op->getResult(0), RtValue::getTensor(std::move(t)));
    return success();
  }

  case OpCode::TensorEmpty:
  case OpCode::TensorSplat:
    return execTensorEmptyOrSplat(op, d);

  case OpCode::TensorDim: {
    FailureOr<const Tensor *> t = getT(op, op->getOperand(0));
    FailureOr<int64_t> idx = getI(op, op->getOperand(1));
    if (failed(t) || failed(idx))
      return failure();
    if (*idx < 0 || *idx >= static_cast<int64_t>((*t)->shape.size()))
      return simError(op) << "dimension " << *idx << " out of range";
    set(op->getResult(0), RtValue::getInt((*t)->shape[*idx]));
    return success();
  }

  case OpCode::TensorCast:
  case OpCode::TensorCollapseShape:
  case OpCode::TensorExpandShape:
    return execTensorCastOrReshape(op, d);

  default:
    return emitUnsupported(op);
  }
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

LogicalResult InterpreterImpl::execElementwise(Operation *op, const OpDesc &d) {
  SmallVector<RtValue, 3> in;
  in.reserve(op->getNumOperands());
  const Tensor *shapeFrom = nullptr;
  for (Value v : op->getOperands()) {
    in.push_back(get(v));
    if (in.back().getKind() == RtValue::Kind::Tensor && !shapeFrom)
      shapeFrom = &in.back().getTensor();
  }
  if (d.code == OpCode::Select && !in.empty() && in[0].getKind() == RtValue::Kind::Int) {
    set(op->getResult(0), in[0].getInt() ? in[1] : in[2]);
    return success();
  }
  if (!shapeFrom) {
    for (const RtValue &v : in)
      if (!v.isScalar())
        return kindError(op, "a scalar", v.getKind());
    FailureOr<RtValue> r = evalScalar(op, d, in);
    if (failed(r))
      return failure();
    set(op->getResult(0), *r);
    return success();
  }

  // Element by element; every tensor operand has the same shape.
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !getElemInfo(resultType.getElementType()))
    return emitUnsupported(op, "tensor result of an unsupported type");
  for (const RtValue &v : in)
    if (v.getKind() == RtValue::Kind::Tensor && v.getTensor().shape != shapeFrom->shape)
      return simError(op) << "tensor operands of different shapes";
  auto result = newTensor(resultType, shapeFrom->shape);
  SmallVector<RtValue, 3> scalars(in.size());
  for (int64_t e = 0, n = result->getNumElements(); e < n; ++e) {
    for (auto [k, v] : llvm::enumerate(in))
      scalars[k] = v.getKind() == RtValue::Kind::Tensor ? RtValue::getElement(v.getTensor(), e) : v;
    FailureOr<RtValue> r = evalScalar(op, d, scalars);
    if (failed(r))
      return failure();
    RtValue::setElement(*result, e, *r);
  }
  set(op->getResult(0), RtValue::getTensor(std::move(result)));
  return success();
}

static RtValue boolValue(bool b) { return RtValue::getInt(b ? -1 : 0); }

static bool compareInt(int64_t pred, int64_t a, int64_t b, unsigned width) {
  uint64_t ua = zextInt(a, width), ub = zextInt(b, width);
  switch (pred) {
  case 0:
    return a == b;
  case 1:
    return a != b;
  case 2:
    return a < b;
  case 3:
    return a <= b;
  case 4:
    return a > b;
  case 5:
    return a >= b;
  case 6:
    return ua < ub;
  case 7:
    return ua <= ub;
  case 8:
    return ua > ub;
  case 9:
    return ua >= ub;
  default: // not a predicate of arith.cmpi
    return false;
  }
}

static bool compareFloat(arith::CmpFPredicate pred, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (pred) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  case P::AlwaysTrue:
    return true;
  }
  return false;
}

FailureOr<RtValue> InterpreterImpl::evalScalar(Operation *op, const OpDesc &d,
                                               ArrayRef<RtValue> in) {
  const unsigned w = d.resWidth;
  auto toF = [&](double v) {
    return RtValue::getFloat(d.resIsF32 ? static_cast<double>(static_cast<float>(v)) : v);
  };
  auto toI = [&](int64_t v) { return RtValue::getInt(wrapInt(v, w)); };
  auto toU = [&](uint64_t v) { return RtValue::getInt(wrapInt(static_cast<int64_t>(v), w)); };
  auto toC = [&](std::complex<double> v) { return RtValue::getComplex(v); };
  auto f = [&](unsigned k) { return in[k].getFloat(); };
  auto i = [&](unsigned k) { return in[k].getInt(); };
  auto u = [&](unsigned k) { return zextInt(in[k].getInt(), w); };
  auto c = [&](unsigned k) { return in[k].getComplex(); };
  auto divByZero = [&]() -> FailureOr<RtValue> { return simError(op) << "division by zero"; };
  auto overflow = [&]() -> FailureOr<RtValue> {
    return simError(op) << "signed division overflow";
  };
  const int64_t minSigned =
      w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (w - 1));
  auto addU = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  };
  auto subU = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  };
  auto mulU = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  };
  auto shiftAmount = [&](unsigned k) -> FailureOr<unsigned> {
    uint64_t s = zextInt(in[k].getInt(), w);
    if (s >= w)
      return simError(op) << "shift amount " << s << " is not less than the bit width " << w;
    return static_cast<unsigned>(s);
  };
  auto fpToInt = [&](double v, bool isSigned) -> FailureOr<RtValue> {
    double t = std::trunc(v);
    double lo = isSigned ? std::ldexp(-1.0, w - 1) : 0.0;
    double hi = isSigned ? std::ldexp(1.0, w - 1) : std::ldexp(1.0, w);
    if (std::isnan(v) || t < lo || t >= hi)
      return simError(op) << "float " << v << " does not fit the integer type";
    if (!isSigned && t >= std::ldexp(1.0, 63))
      return toU(static_cast<uint64_t>(t));
    return toI(static_cast<int64_t>(t));
  };
  // Integer ops of the index dialect are 64-bit; the rest uses the width of
  // the result (arith ops have equal operand and result widths).

  switch (d.code) {
  // --- arith, float.
  case OpCode::AddF:
    return toF(f(0) + f(1));
  case OpCode::SubF:
    return toF(f(0) - f(1));
  case OpCode::MulF:
    return toF(f(0) * f(1));
  case OpCode::DivF:
    return toF(f(0) / f(1));
  case OpCode::RemF:
    return toF(std::fmod(f(0), f(1)));
  case OpCode::NegF:
    return toF(-f(0));
  case OpCode::MaximumF:
  case OpCode::MinimumF: {
    double a = f(0), b = f(1);
    if (std::isnan(a) || std::isnan(b))
      return toF(std::numeric_limits<double>::quiet_NaN());
    bool isMax = d.code == OpCode::MaximumF;
    if (a == b) // +0 vs -0
      return toF(isMax ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b));
    return toF(isMax ? std::max(a, b) : std::min(a, b));
  }
  case OpCode::MaxNumF:
    return toF(std::fmax(f(0), f(1)));
  case OpCode::MinNumF:
    return toF(std::fmin(f(0), f(1)));

  // --- arith/index, integer.
  case OpCode::AddI:
  case OpCode::IdxAdd:
    return toI(addU(i(0), i(1)));
  case OpCode::SubI:
  case OpCode::IdxSub:
    return toI(subU(i(0), i(1)));
  case OpCode::MulI:
  case OpCode::IdxMul:
    return toI(mulU(i(0), i(1)));
  case OpCode::DivSI:
  case OpCode::IdxDivS:
    if (i(1) == 0)
      return divByZero();
    if (i(0) == minSigned && i(1) == -1)
      return overflow();
    return toI(i(0) / i(1));
  case OpCode::DivUI:
  case OpCode::IdxDivU:
    if (u(1) == 0)
      return divByZero();
    return toU(u(0) / u(1));
  case OpCode::RemSI:
  case OpCode::IdxRemS:
    if (i(1) == 0)
      return divByZero();
    if (i(1) == -1)
      return toI(0);
    return toI(i(0) % i(1));
  case OpCode::RemUI:
  case OpCode::IdxRemU:
    if (u(1) == 0)
      return divByZero();
    return toU(u(0) % u(1));
  case OpCode::CeilDivSI:
  case OpCode::IdxCeilDivS: {
    int64_t a = i(0), b = i(1);
    if (b == 0)
      return divByZero();
    if (a == minSigned && b == -1)
      return overflow();
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) == (b < 0)))
      ++q;
    return toI(q);
  }
  case OpCode::CeilDivUI:
  case OpCode::IdxCeilDivU: {
    uint64_t a = u(0), b = u(1);
    if (b == 0)
      return divByZero();
    return toU(a / b + (a % b != 0 ? 1 : 0));
  }
  case OpCode::FloorDivSI:
  case OpCode::IdxFloorDivS: {
    int64_t a = i(0), b = i(1);
    if (b == 0)
      return divByZero();
    if (a == minSigned && b == -1)
      return overflow();
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
      --q;
    return toI(q);
  }
  case OpCode::AndI:
  case OpCode::IdxAnd:
    return toI(i(0) & i(1));
  case OpCode::OrI:
  case OpCode::IdxOr:
    return toI(i(0) | i(1));
  case OpCode::XOrI:
  case OpCode::IdxXor:
    return toI(i(0) ^ i(1));
  case OpCode::ShLI:
  case OpCode::IdxShl: {
    FailureOr<unsigned> s = shiftAmount(1);
    if (failed(s))
      return failure();
    return toU(u(0) << *s);
  }
  case OpCode::ShRSI:
  case OpCode::IdxShrS: {
    FailureOr<unsigned> s = shiftAmount(1);
    if (failed(s))
      return failure();
    return toI(i(0) >> *s);
  }
  case OpCode::ShRUI:
  case OpCode::IdxShrU: {
    FailureOr<unsigned> s = shiftAmount(1);
    if (failed(s))
      return failure();
    return toU(u(0) >> *s);
  }
  case OpCode::MaxSI:
  case OpCode::IdxMaxS:
    return toI(std::max(i(0), i(1)));
  case OpCode::MinSI:
  case OpCode::IdxMinS:
    return toI(std::min(i(0), i(1)));
  case OpCode::MaxUI:
  case OpCode::IdxMaxU:
    return u(0) >= u(1) ? in[0] : in[1];
  case OpCode::MinUI:
  case OpCode::IdxMinU:
    return u(0) <= u(1) ? in[0] : in[1];
  case OpCode::CmpI:
  case OpCode::IdxCmp:
    return boolValue(compareInt(d.predicate, i(0), i(1), d.opWidth));
  case OpCode::CmpF:
    return boolValue(compareFloat(static_cast<arith::CmpFPredicate>(d.predicate), f(0), f(1)));
  case OpCode::Select:
    return in[0].getInt() ? in[1] : in[2];

  // --- casts.
  case OpCode::IndexCast:
  case OpCode::IdxCastS:
  case OpCode::ExtSI:
  case OpCode::TruncI:
    return toI(i(0));
  case OpCode::IndexCastUI:
  case OpCode::IdxCastU:
  case OpCode::ExtUI:
    return toU(zextInt(i(0), d.opWidth));
  case OpCode::SIToFP:
    return toF(static_cast<double>(i(0)));
  case OpCode::UIToFP:
    return toF(static_cast<double>(zextInt(i(0), d.opWidth)));
  case OpCode::FPToSI:
    return fpToInt(f(0), true);
  case OpCode::FPToUI:
    return fpToInt(f(0), false);
  case OpCode::ExtF:
  case OpCode::TruncF:
    return toF(f(0));
  case OpCode::Bitcast: {
    // Same bit width on both sides (verified): reinterpret the bits.
    const RtValue &v = in[0];
    uint64_t bits;
    if (v.getKind() == RtValue::Kind::Float) {
      if (d.opWidth == 32) {
        auto x = static_cast<float>(v.getFloat());
        uint32_t b32;
        std::memcpy(&b32, &x, sizeof b32);
        bits = b32;
      } else {
        double x = v.getFloat();
        std::memcpy(&bits, &x, sizeof bits);
      }
    } else {
      bits = zextInt(v.getInt(), d.opWidth);
    }
    if (!isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
      return toU(bits);
    if (d.resIsF32) {
      auto b32 = static_cast<uint32_t>(bits);
      float x;
      std::memcpy(&x, &b32, sizeof x);
      return toF(x);
    }
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return toF(x);
  }

  // --- math.
  case OpCode::AbsF:
    return toF(std::fabs(f(0)));
  case OpCode::AbsI:
    return toI(i(0) < 0 ? subU(0, i(0)) : i(0));
  case OpCode::Acos:
    return toF(std::acos(f(0)));
  case OpCode::Acosh:
    return toF(std::acosh(f(0)));
  case OpCode::Asin:
    return toF(std::asin(f(0)));
  case OpCode::Asinh:
    return toF(std::asinh(f(0)));
  case OpCode::Atan:
    return toF(std::atan(f(0)));
  case OpCode::Atan2:
    return toF(std::atan2(f(0), f(1)));
  case OpCode::Atanh:
    return toF(std::atanh(f(0)));
  case OpCode::Cbrt:
    return toF(std::cbrt(f(0)));
  case OpCode::Ceil:
    return toF(std::ceil(f(0)));
  case OpCode::CopySign:
    return toF(std::copysign(f(0), f(1)));
  case OpCode::Cos:
    return toF(std::cos(f(0)));
  case OpCode::Cosh:
    return toF(std::cosh(f(0)));
  case OpCode::Erf:
    return toF(std::erf(f(0)));
  case OpCode::Erfc:
    return toF(std::erfc(f(0)));
  case OpCode::Exp:
    return toF(std::exp(f(0)));
  case OpCode::Exp2:
    return toF(std::exp2(f(0)));
  case OpCode::ExpM1:
    return toF(std::expm1(f(0)));
  case OpCode::Floor:
    return toF(std::floor(f(0)));
  case OpCode::Fma:
    return toF(std::fma(f(0), f(1), f(2)));
  case OpCode::FPowI:
    return toF(std::pow(f(0), static_cast<double>(i(1))));
  case OpCode::IPowI: {
    int64_t base = i(0), e = i(1);
    if (e < 0) {
      if (base == 0)
        return divByZero();
      if (base == 1)
        return toI(1);
      if (base == -1)
        return toI(e % 2 ? -1 : 1);
      return toI(0);
    }
    int64_t r = 1;
    while (e > 0) {
      if (e & 1)
        r = mulU(r, base);
      base = mulU(base, base);
      e >>= 1;
    }
    return toI(r);
  }
  case OpCode::IsFinite:
    return boolValue(std::isfinite(f(0)));
  case OpCode::IsInf:
    return boolValue(std::isinf(f(0)));
  case OpCode::IsNaN:
    return boolValue(std::isnan(f(0)));
  case OpCode::Log:
    return toF(std::log(f(0)));
  case OpCode::Log10:
    return toF(std::log10(f(0)));
  case OpCode::Log1p:
    return toF(std::log1p(f(0)));
  case OpCode::Log2:
    return toF(std::log2(f(0)));
  case OpCode::PowF:
    return toF(std::pow(f(0), f(1)));
  case OpCode::Round:
    return toF(std::round(f(0)));
  case OpCode::RoundEven:
    return toF(std::nearbyint(f(0)));
  case OpCode::Rsqrt:
    return toF(1.0 / std::sqrt(f(0)));
  case OpCode::Sin:
    return toF(std::sin(f(0)));
  case OpCode::Sinh:
    return toF(std::sinh(f(0)));
  case OpCode::Sqrt:
    return toF(std::sqrt(f(0)));
  case OpCode::Tan:
    return toF(std::tan(f(0)));
  case OpCode::Tanh:
    return toF(std::tanh(f(0)));
  case OpCode::Trunc:
    return toF(std::trunc(f(0)));
  case OpCode::CtPop:
    return toI(__builtin_popcountll(u(0)));

  // --- complex.
  case OpCode::CCreate:
    return toC({f(0), f(1)});
  case OpCode::CRe:
    return toF(c(0).real());
  case OpCode::CIm:
    return toF(c(0).imag());
  case OpCode::CAdd:
    return toC(c(0) + c(1));
  case OpCode::CSub:
    return toC(c(0) - c(1));
  case OpCode::CMul:
    return toC(c(0) * c(1));
  case OpCode::CDiv:
    return toC(c(0) / c(1));
  case OpCode::CNeg:
    return toC(-c(0));
  case OpCode::CConj:
    return toC(std::conj(c(0)));
  case OpCode::CAbs:
    return toF(std::abs(c(0)));
  case OpCode::CAngle:
    return toF(std::arg(c(0)));
  case OpCode::CExp:
    return toC(std::exp(c(0)));
  case OpCode::CExpM1:
    return toC(std::exp(c(0)) - 1.0);
  case OpCode::CLog:
    return toC(std::log(c(0)));
  case OpCode::CLog1p:
    return toC(std::log(1.0 + c(0)));
  case OpCode::CSqrt:
    return toC(std::sqrt(c(0)));
  case OpCode::CRsqrt:
    return toC(1.0 / std::sqrt(c(0)));
  case OpCode::CSin:
    return toC(std::sin(c(0)));
  case OpCode::CCos:
    return toC(std::cos(c(0)));
  case OpCode::CTan:
    return toC(std::tan(c(0)));
  case OpCode::CTanh:
    return toC(std::tanh(c(0)));
  case OpCode::CPow:
    return toC(std::pow(c(0), c(1)));
  case OpCode::CSign: {
    std::complex<double> z = c(0);
    double a = std::abs(z);
    return toC(a == 0.0 ? z : z / a);
  }
  case OpCode::CEq:
    return boolValue(c(0) == c(1));
  case OpCode::CNeq:
    return boolValue(c(0) != c(1));

  default:
    return emitUnsupported(op);
  }
}

} // namespace qshape::interp
