//===- pass-fuzzer.cpp - qshape's passes on modules that parse ------------===//
//
// Input: MLIR text; `-pass=NAME` picks the pass (canonicalize, fingerprint,
// roll-loops, stats, check-linearity, lower-to-llvm; default canonicalize).
//
// Properties, for every pass: it succeeds and leaves a module that verifies
// and prints to text that parses, or it fails with an error diagnostic.
// Per pass:
//   canonicalize     keeps the exact fingerprint and is idempotent;
//   fingerprint      the digest equals that of the canonical form written
//                    back to a copy, survives a generic-form print/parse, and
//                    the pass's own annotations do not change it;
//   roll-loops       runs with verify-roundtrip: unrolling the loops it made
//                    gives back the input, or the input is kept as a crash
//                    (unless it is not linear, see violatesLinearity);
//   lower-to-llvm    qshape-compile's pipeline (no roll): the quantum-to-LLVM
//                    conversion lowers the module or names the op it cannot.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Fingerprint.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace qshape::fuzz;

namespace {
struct PassTarget {
  llvm::StringLiteral name;
  llvm::StringLiteral pipeline;
};
const PassTarget Targets[] = {
    {"canonicalize", "qshape-canonicalize"},
    {"fingerprint", "qshape-fingerprint{emit-remarks}"},
    {"roll-loops", "qshape-roll-loops{verify-roundtrip}"},
    {"stats", "qshape-stats{emit-remark}"},
    {"check-linearity", "qshape-check-linearity"},
    {"lower-to-llvm", "qshape-lower-to-llvm{roll=false}"},
};
const PassTarget *target = &Targets[0];

std::string digests(FailureOr<qshape::Fingerprint> f) {
  return succeeded(f) ? f->exactString() + " " + f->shapeString() : "(failed)";
}

bool same(FailureOr<qshape::Fingerprint> a, FailureOr<qshape::Fingerprint> b) {
  return succeeded(a) && succeeded(b) && a->exact == b->exact && a->shape == b->shape;
}

/// A program qshape-check-linearity rejects: a qubit or register value
/// consumed twice, read after it was consumed, or one wire extracted twice
/// from one register value (Catalyst never emits one). Its meaning depends
/// on an order that value semantics leaves open, and qshape-roll-loops'
/// verify-roundtrip rejects some such programs (with an error, never with
/// wrong output): the canonical form orders independent ops freely, and
/// for such a program two orders are two programs. Found by this target;
/// docs/robustness.md.
bool violatesLinearity(ModuleOp module) {
  // The checker does not change the IR.
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline("qshape-check-linearity", pm, llvm::errs())))
    fail("bad pipeline qshape-check-linearity");
  DiagnosticCapture diags(*module.getContext());
  return failed(pm.run(module)) && diags.contains("qshape-check-linearity:");
}

/// Runs `pipeline` on `module`; checks the properties every pass has.
LogicalResult runPipeline(ModuleOp module, llvm::StringRef pipeline) {
  bool nonLinear = pipeline.contains("verify-roundtrip") && violatesLinearity(module);
  MLIRContext *ctx = module.getContext();
  PassManager pm(ctx);
  pm.enableVerifier(false); // verified below: a pass breaking IR is a bug, not a diagnostic
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    fail("bad pipeline " + pipeline);
  DiagnosticCapture diags(*ctx);
  if (failed(pm.run(module))) {
    if (diags.numErrors() == 0)
      fail(pipeline + " failed without an error diagnostic", module);
    if (diags.contains("verify-roundtrip") && !nonLinear)
      fail(pipeline + ": " + diags.text(), module);
    return failure();
  }
  if (failed(verify(module)))
    fail(pipeline + " produced IR that does not verify:\n" + diags.text(), module);
  std::string out = printModule(module);
  if (!parseModule(out, *ctx))
    fail(pipeline + " produced IR that does not parse back:\n" + out);
  return success();
}

void checkCanonicalize(ModuleOp module) {
  FailureOr<qshape::Fingerprint> before = qshape::computeFingerprint(module);
  if (failed(runPipeline(module, target->pipeline)))
    return;
  FailureOr<qshape::Fingerprint> after = qshape::computeFingerprint(module);
  if (succeeded(before) && !same(before, after))
    fail("qshape-canonicalize changed the fingerprint: " + digests(before) + " -> " +
             digests(after),
         module);
  std::string once = printModule(module);
  if (failed(runPipeline(module, target->pipeline)))
    fail("qshape-canonicalize failed on its own output", module);
  std::string twice = printModule(module);
  if (once != twice)
    fail("qshape-canonicalize is not idempotent:\n--- once ---\n" + once + "\n--- twice ---\n" +
         twice);
}

void checkFingerprint(ModuleOp module) {
  FailureOr<qshape::Fingerprint> fast = qshape::computeFingerprint(module);
  // The digest is taken on the canonical view; the same view written back
  // to a copy of the IR must digest equally.
  {
    OwningOpRef<ModuleOp> copy = module.clone();
    DiagnosticCapture diags(*module.getContext());
    if (succeeded(qshape::canonicalize(*copy))) {
      FailureOr<qshape::Fingerprint> written = qshape::computeFingerprint(*copy);
      if (succeeded(fast) != succeeded(written) || (succeeded(fast) && !same(fast, written)))
        fail("fingerprint " + digests(fast) +
                 " != fingerprint of the canonical form written back " + digests(written),
             module);
    } else if (succeeded(fast)) {
      fail("canonicalize failed where the fingerprint did not:\n" + diags.text(), module);
    }
  }
  if (succeeded(fast)) {
    OwningOpRef<ModuleOp> again =
        parseModule(printModule(module, /*generic=*/true), *module.getContext());
    if (!again)
      fail("generic form does not parse back", module);
    FailureOr<qshape::Fingerprint> reparsed = qshape::computeFingerprint(*again);
    if (!same(fast, reparsed))
      fail("fingerprint changed by a generic print/parse: " + digests(fast) + " -> " +
               digests(reparsed),
           module);
  }
  if (failed(runPipeline(module, target->pipeline)))
    return;
  FailureOr<qshape::Fingerprint> annotated = qshape::computeFingerprint(module);
  if (succeeded(fast) && !same(fast, annotated))
    fail("qshape-fingerprint's annotations changed the fingerprint", module);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  std::string name = takeFlag(argc, argv, "pass");
  if (name.empty())
    return 0;
  for (const PassTarget &t : Targets)
    if (name == t.name)
      target = &t;
  if (target->name != name) {
    llvm::errs() << "qshape-pass-fuzzer: unknown -pass=" << name << "; one of:";
    for (const PassTarget &t : Targets)
      llvm::errs() << " " << t.name;
    llvm::errs() << "\n";
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = freshContext();
  OwningOpRef<ModuleOp> module =
      parseModule(llvm::StringRef(reinterpret_cast<const char *>(data), size), ctx);
  if (!module)
    return 0;
  if (target->name == "canonicalize")
    checkCanonicalize(*module);
  else if (target->name == "fingerprint")
    checkFingerprint(*module);
  else
    (void)runPipeline(*module, target->pipeline);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  return mutateModuleInput(data, size, maxSize, seed);
}
