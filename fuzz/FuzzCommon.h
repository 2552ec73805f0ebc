//===- FuzzCommon.h - what qshape's fuzz targets share ---------*- C++ -*-===//
//
// The targets in fuzz/ are thin: each names the entry point it fuzzes and the
// property it checks. This header holds what they share: the MLIR context
// they parse into, quiet parsing, diagnostics capture, and `fail`, which
// turns a broken property into a crash that libFuzzer saves.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_FUZZ_FUZZCOMMON_H
#define QSHAPE_FUZZ_FUZZCOMMON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

// libFuzzer's interface (also provided by ReplayMain.cpp in plain builds).
extern "C" {
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize, unsigned seed);
}

namespace qshape::fuzz {

/// A context with every dialect qshape's tools parse and qshape's passes
/// registered; unregistered ops are allowed (passes must take them) and
/// threading is off. Contexts intern every attribute and name forever, so the
/// one returned is replaced after a few thousand calls: call it once per
/// input, while no IR of the previous input is alive.
mlir::MLIRContext &freshContext();

/// Parses and verifies `text` as a module, silently; null when it does not.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text, mlir::MLIRContext &ctx);

/// The module's text (pretty or generic form, without locations).
std::string printModule(mlir::Operation *op, bool generic = false);

/// Collects the diagnostics emitted while it lives instead of printing them
/// (QSHAPE_FUZZ_VERBOSE=1 prints them too).
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &ctx);
  ~DiagnosticCapture();
  unsigned numErrors() const { return errors; }
  bool contains(llvm::StringRef text) const;
  /// Every captured message, one per line.
  std::string text() const;

private:
  mlir::MLIRContext &ctx;
  mlir::DiagnosticEngine::HandlerID id;
  unsigned errors = 0;
  llvm::SmallVector<std::string> messages;
};

/// Reports a broken property (with `op` printed when given) and aborts, so
/// that libFuzzer keeps the input as a crash.
[[noreturn]] void fail(const llvm::Twine &what, mlir::Operation *op = nullptr);

/// The value of `-name=value` in a target's command line, removed from it
/// (libFuzzer ignores flags after -ignore_remaining_args=1, ReplayMain.cpp
/// passes them through). Empty when absent.
std::string takeFlag(int *argc, char ***argv, llvm::StringRef name);

/// One structure-aware mutation of a module's text (ModuleMutator.cpp):
/// rename a gate, swap or change wires, swap adjacent independent ops,
/// duplicate a run of gates, insert an unknown op. The result parses and
/// verifies. False when `text` does not parse or no mutation applied.
bool mutateModuleText(llvm::StringRef text, uint64_t seed, std::string &out,
                      std::string *mutationName = nullptr);

/// The custom mutator of the targets whose inputs are modules: a
/// structure-aware mutation most of the time, libFuzzer's byte mutations
/// otherwise (and whenever the input does not parse).
size_t mutateModuleInput(uint8_t *data, size_t size, size_t maxSize, unsigned seed);

} // namespace qshape::fuzz

#endif // QSHAPE_FUZZ_FUZZCOMMON_H
