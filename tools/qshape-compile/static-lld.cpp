//===- static-lld.cpp - what lld's library needs of a static LLVM ---------===//
//
// Only in the static qshape-compile-full with lld's library linked in
// (tools/qshape-compile/CMakeLists.txt); the shared configuration takes
// these from libLLVM.so.
//
// Polly: Debian builds LLVM with Polly as a pass-builder extension
// (llvm/Support/Extension.def), so LLVM's LTO backend, which lld brings
// along, calls getPollyPluginInfo(). libLLVM.so defines it; Debian ships no
// static Polly. This one registers no passes.
//
// Foreign targets: lld's ELF driver initialises every target LLVM was built
// for (InitializeAllTargetInfos, ...Targets, ...TargetMCs, ...AsmPrinters,
// ...AsmParsers) for LTO. Linked from
// the archives, that pulls the code and tables of 21 other targets into the
// binary (.rodata grew from 6.7 MB to 58.7 MB) and ~15 MB of their pages
// into every compile's resident set at start. The initialisers of the
// targets other than the host's are empty here, so their archives stay out.
// Nothing is lost: qshape-compile generates code for the host only, and
// gives lld object files, never bitcode (no LTO runs).
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"
#include "llvm/Plugins/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo();

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not linked into qshape-compile-full)",
          LLVM_VERSION_STRING, [](llvm::PassBuilder &) {}};
}

// QSHAPE_FOREIGN_TARGET(Name) for each target but LLVM_NATIVE_ARCH (CMake).
// Exactly the initialisers lld's ELF driver calls.
#define QSHAPE_FOREIGN_TARGET(Name)                                                                \
  extern "C" void LLVMInitialize##Name##TargetInfo() {}                                            \
  extern "C" void LLVMInitialize##Name##Target() {}                                                \
  extern "C" void LLVMInitialize##Name##TargetMC() {}                                              \
  extern "C" void LLVMInitialize##Name##AsmPrinter() {}                                            \
  extern "C" void LLVMInitialize##Name##AsmParser() {}
#include "ForeignTargets.inc"
