//===- InitAll.h - one registration function for every entry point -*- C++ -*-===//
//
// qshape-opt, the pass plugin and the dialect plugin all register through
// these functions, so the three entry points cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_INITALL_H
#define QSHAPE_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace qshape {

/// Registers qshape's `quantum` dialect. Not used by the pass plugin: inside
/// Catalyst a second `quantum` dialect would abort the host.
void registerQuantumDialect(mlir::DialectRegistry &registry);

/// Registers qshape's `qref` dialect (Catalyst's reference-semantics dialect)
/// and the `quantum` dialect it depends on. Not used by the pass plugin
/// either: Catalyst's tools have their own `qref`.
void registerQRefDialect(mlir::DialectRegistry &registry);

/// Registers what qshape's command-line tools parse: the `quantum` and `qref`
/// dialects and the upstream dialects Catalyst circuits contain (builtin, func,
/// arith, math, scf, cf, tensor, memref, complex, index, llvm, linalg).
void registerToolDialects(mlir::DialectRegistry &registry);

/// Registers the upstream dialects qshape's passes create ops of (arith,
/// scf, tensor, ...), so they load on demand in any host.
void registerDependentDialects(mlir::DialectRegistry &registry);

/// Registers every qshape pass (and pass pipeline) with the global registry.
void registerAllPasses();

} // namespace qshape

#endif // QSHAPE_INITALL_H
