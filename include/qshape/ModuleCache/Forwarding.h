//===- Forwarding.h - a module that runs a library it carries -*- C++ -*-===//
//
// The native mode of the staged cache (qshape-cache-lookup{native}) hands
// the host's code generator a small module instead of the lowered program:
// the program, compiled by qshape into a shared library, is a constant of
// that module, and each function the program exports (setup, teardown,
// _catalyst_pyface_jit_*, ...) becomes a forwarder. On its first call a
// forwarder copies the library into an anonymous memory file (memfd),
// dlopens it there and calls the library's function of the same name; later
// calls only look the name up. So the host's translation, LLVM and link see
// a few dozen ops, and its output needs no file but itself. The first call
// must not race another (Catalyst calls setup() first, on one thread).
//
// The library's runtime symbols resolve through the library's own NEEDED
// runtime (the runtime-lib it was linked with): a library that Catalyst
// loads with RTLD_LOCAL does not put its runtime in the global scope.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_MODULECACHE_FORWARDING_H
#define QSHAPE_MODULECACHE_FORWARDING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace qshape::modulecache {

/// The functions a forwarding module would stand in for: every defined,
/// externally visible llvm.func of `module`. Fails, with `why`, when one
/// cannot be forwarded by a plain call (variadic, an ABI-changing argument
/// attribute, a name the loader itself uses), or when the module holds
/// anything but LLVM-dialect ops.
mlir::FailureOr<std::vector<std::string>> forwardedFunctions(mlir::ModuleOp module,
                                                             std::string &why);

/// Replaces the body of `module` (as forwardedFunctions() accepted it) by
/// the forwarding module of `library`, a shared library that defines the
/// functions `module` defined.
void installForwardingModule(mlir::ModuleOp module, llvm::ArrayRef<std::string> functions,
                             llvm::StringRef library);

} // namespace qshape::modulecache

#endif // QSHAPE_MODULECACHE_FORWARDING_H
