//===- Passes.h - qshape compile-cache passes -------------------*- C++ -*-===//

#ifndef QSHAPE_MODULECACHE_PASSES_H
#define QSHAPE_MODULECACHE_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace qshape {

#define GEN_PASS_DECL
#include "qshape/ModuleCache/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "qshape/ModuleCache/Passes.h.inc"

} // namespace qshape

#endif // QSHAPE_MODULECACHE_PASSES_H
