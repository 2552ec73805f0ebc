//===- LiftParameters.h - float constants into one runtime table -*- C++ -*-===//
//
// qshape-lift-parameters (lib/Transforms/LiftParameters.cpp) and its
// callers (qshape-compile --share-topology) share these names: the table is
// the public `memref.global @__qshape_params : memref<Nxf64>`, which the
// native build places in the ELF section `.qshape.params`, whose bytes
// (N little-endian doubles, slot order) a driver writes into the library.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_LIFTPARAMETERS_H
#define QSHAPE_TRANSFORMS_LIFTPARAMETERS_H

#include "qshape/LibraryInfo/LibraryInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace qshape {

struct LiftedParameters {
  /// The table, in slot order: what the lifted constants held.
  std::vector<double> values;
  /// Constant ops replaced by reads of the table.
  uint64_t constantsLifted = 0;
  /// Each lifted constant: its op's location and the slots it filled
  /// (`splat`: one value for all of them). qshape-compile's topology index
  /// finds the literals of the text with it.
  struct Source {
    mlir::Location loc;
    int64_t firstSlot, count;
    bool splat;
  };
  std::vector<Source> sources;
};

/// Replaces every f64 `arith.constant` (scalar or dense tensor) of the
/// module's functions by reads of one table, `@__qshape_params`. Slots are
/// numbered in the order the constants are first used, walking the
/// functions as they are (after qshape-canonicalize that order depends on
/// the program's structure, not on the values). With `abstractValues` the
/// table's initializer is NaN (value-free, so programs of one shape get one
/// module) and the values are only returned; otherwise it holds the values,
/// and the module computes what it computed before.
/// A module that already has the table and nothing left to lift is left
/// alone; one with both is an error (located).
mlir::FailureOr<LiftedParameters> liftParameters(mlir::ModuleOp module, bool abstractValues);

} // namespace qshape

#endif // QSHAPE_TRANSFORMS_LIFTPARAMETERS_H
