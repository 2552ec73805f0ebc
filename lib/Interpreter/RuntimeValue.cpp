//===- RuntimeValue.cpp - values of the qshape-sim interpreter ------------===//

#include "qshape/Interpreter/RuntimeValue.h"

#include <cassert>

namespace qshape::interp {

RtObject::~RtObject() = default;

int64_t Tensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

void Tensor::resize(int64_t n) {
  switch (elem) {
  case ScalarKind::Float:
    f.assign(n, 0.0);
    break;
  case ScalarKind::Int:
    i.assign(n, 0);
    break;
  case ScalarKind::Complex:
    c.assign(n, {0.0, 0.0});
    break;
  }
}

RtValue RtValue::getElement(const Tensor &t, int64_t index) {
  switch (t.elem) {
  case ScalarKind::Float:
    return getFloat(t.f[index]);
  case ScalarKind::Int:
    return getInt(t.i[index]);
  case ScalarKind::Complex:
    return getComplex(t.c[index]);
  }
  return {};
}

void RtValue::setElement(Tensor &t, int64_t index, const RtValue &v) {
  switch (t.elem) {
  case ScalarKind::Float:
    t.f[index] = v.getFloat();
    break;
  case ScalarKind::Int:
    t.i[index] = v.getInt();
    break;
  case ScalarKind::Complex:
    t.c[index] = v.getComplex();
    break;
  }
}

} // namespace qshape::interp
