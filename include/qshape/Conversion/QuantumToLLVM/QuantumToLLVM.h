//===- QuantumToLLVM.h - quantum to Catalyst's runtime ABI ------*- C++ -*-===//
//
// The pieces of qshape-convert-quantum-to-llvm, for drivers that assemble
// their own conversion (as Catalyst's pass adds func and cf patterns to the
// quantum ones). Quantum ops are matched by name through the op table, so
// the patterns apply to qshape's ops, Catalyst's and unregistered ones.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CONVERSION_QUANTUMTOLLVM_QUANTUMTOLLVM_H
#define QSHAPE_CONVERSION_QUANTUMTOLLVM_QUANTUMTOLLVM_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace qshape {

/// The runtime's view of a gate name: its parameter and wire counts (wires
/// -1: the variadic Identity form), from RuntimeGates.def.
struct RuntimeGate {
  llvm::StringRef name;
  int numParams;
  int numWires;
};
std::optional<RuntimeGate> lookupRuntimeGate(llvm::StringRef gateName);

/// Converts `!quantum.bit`, `!quantum.reg`, `!quantum.res` to `!llvm.ptr`
/// and `!quantum.obs` to `i64`, on top of the upstream LLVM conversions.
/// The quantum types are those the context spells `!quantum.<name>`:
/// qshape's, Catalyst's or opaque ones.
class QuantumTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit QuantumTypeConverter(mlir::MLIRContext *ctx);
};

/// Emits a located error and fails when `op` (a `quantum.*` op) cannot be
/// lowered by the patterns below: the message names the op and says what to
/// run first. Succeeds for every other op.
mlir::LogicalResult checkLowerable(mlir::Operation *op);

/// One conversion pattern per quantum op with a runtime lowering.
void populateQuantumToLLVMPatterns(const mlir::LLVMTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);

/// After the conversion: merges the stack slots the patterns allocated
/// (one per function and type remains) and erases the placeholders left
/// for `quantum.compbasis`. Returns the number of slots merged.
unsigned finalizeQuantumToLLVM(mlir::Operation *module);

} // namespace qshape

#endif // QSHAPE_CONVERSION_QUANTUMTOLLVM_QUANTUMTOLLVM_H
