//===- RuntimeValue.h - values of the qshape-sim interpreter ----*- C++ -*-===//
//
// What an SSA value holds while qshape-sim runs a program: a scalar (float,
// integer of up to 64 bits, complex), a tensor of such scalars, a qubit (a
// wire of the simulated device), a register (a vector of wires, with value
// semantics: quantum.insert makes a new vector), or an observable.
//
// RtValue is small and cheap to copy: scalars are stored inline and the
// aggregates (tensors, registers, observables) are immutable and shared.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_INTERPRETER_RUNTIMEVALUE_H
#define QSHAPE_INTERPRETER_RUNTIMEVALUE_H

#include "qshape/Simulator/Observable.h"

#include "llvm/ADT/SmallVector.h"

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace qshape::interp {

/// Scalar element kinds. Integers (any width up to 64, `index` counts as 64)
/// are stored sign-extended from their width, so an i1 `true` is -1 (MLIR's
/// arith semantics: extsi gives -1, extui gives 1).
enum class ScalarKind : uint8_t { Float, Int, Complex };

/// Base of the shared immutable aggregates.
struct RtObject {
  virtual ~RtObject();
};

/// A dense, row-major tensor with a static shape.
struct Tensor final : RtObject {
  ScalarKind elem = ScalarKind::Float;
  llvm::SmallVector<int64_t, 2> shape;
  /// Exactly one of these holds the elements, depending on `elem`.
  std::vector<double> f;
  std::vector<int64_t> i;
  std::vector<std::complex<double>> c;

  int64_t getNumElements() const;
  /// Allocates `n` zero elements of kind `elem`.
  void resize(int64_t n);
};

/// A quantum register: the wire of each of its slots.
struct Register final : RtObject {
  std::vector<int> wires;
};

/// An observable value: either a computational-basis "observable" over wires
/// (quantum.compbasis; no wires = all wires of the device) or a simulator
/// observable.
struct ObsValue final : RtObject {
  bool isCompBasis = false;
  std::vector<int> wires;
  sim::Observable obs;
};

class RtValue {
public:
  enum class Kind : uint8_t { Empty, Float, Int, Complex, Tensor, Qubit, Register, Observable };

  RtValue() = default;
  static RtValue getFloat(double v) {
    RtValue r(Kind::Float);
    r.re = v;
    return r;
  }
  static RtValue getInt(int64_t v) {
    RtValue r(Kind::Int);
    r.i = v;
    return r;
  }
  static RtValue getComplex(std::complex<double> v) {
    RtValue r(Kind::Complex);
    r.re = v.real();
    r.im = v.imag();
    return r;
  }
  static RtValue getQubit(int wire) {
    RtValue r(Kind::Qubit);
    r.i = wire;
    return r;
  }
  static RtValue getTensor(std::shared_ptr<const Tensor> t) {
    RtValue r(Kind::Tensor);
    r.obj = std::move(t);
    return r;
  }
  static RtValue getRegister(std::shared_ptr<const Register> reg) {
    RtValue r(Kind::Register);
    r.obj = std::move(reg);
    return r;
  }
  static RtValue getObservable(std::shared_ptr<const ObsValue> o) {
    RtValue r(Kind::Observable);
    r.obj = std::move(o);
    return r;
  }

  Kind getKind() const { return kind; }
  bool isEmpty() const { return kind == Kind::Empty; }
  bool isScalar() const {
    return kind == Kind::Float || kind == Kind::Int || kind == Kind::Complex;
  }

  double getFloat() const { return re; }
  int64_t getInt() const { return i; }
  std::complex<double> getComplex() const { return {re, im}; }
  int getWire() const { return static_cast<int>(i); }
  const Tensor &getTensor() const { return *static_cast<const Tensor *>(obj.get()); }
  std::shared_ptr<const Tensor> getTensorPtr() const {
    return std::static_pointer_cast<const Tensor>(obj);
  }
  const Register &getRegister() const { return *static_cast<const Register *>(obj.get()); }
  const ObsValue &getObservable() const { return *static_cast<const ObsValue *>(obj.get()); }

  /// Element `index` of a tensor as a scalar value.
  static RtValue getElement(const Tensor &t, int64_t index);
  /// Stores scalar `v` (of the tensor's element kind) at `index`.
  static void setElement(Tensor &t, int64_t index, const RtValue &v);

private:
  explicit RtValue(Kind kind) : kind(kind) {}
  Kind kind = Kind::Empty;
  double re = 0.0, im = 0.0;
  int64_t i = 0;
  std::shared_ptr<const RtObject> obj;
};

/// Truncates `v` to `width` bits and sign-extends it back (the canonical
/// form of an integer of that width).
inline int64_t wrapInt(int64_t v, unsigned width) {
  if (width >= 64 || width == 0)
    return v;
  uint64_t mask = (uint64_t{1} << width) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (u >> (width - 1))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

/// The low `width` bits of `v`, zero-extended.
inline uint64_t zextInt(int64_t v, unsigned width) {
  if (width >= 64 || width == 0)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t{1} << width) - 1);
}

} // namespace qshape::interp

#endif // QSHAPE_INTERPRETER_RUNTIMEVALUE_H
