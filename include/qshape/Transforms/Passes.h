//===- Passes.h - qshape passes ---------------------------------*- C++ -*-===//

#ifndef QSHAPE_TRANSFORMS_PASSES_H
#define QSHAPE_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace qshape {

#define GEN_PASS_DECL
#include "qshape/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "qshape/Transforms/Passes.h.inc"

} // namespace qshape

#endif // QSHAPE_TRANSFORMS_PASSES_H
