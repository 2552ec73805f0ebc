//===- Codegen.cpp - target machine, LLVM's optimiser, object code --------===//

#include "qshape/Codegen/Codegen.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <mutex>

namespace qshape::codegen {

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const compile::TargetInfo &target, unsigned optLevel) {
  static std::once_flag targetsOnce;
  std::call_once(targetsOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::string error;
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return llvm::createStringError("no LLVM target for '" + target.triple + "': " + error);
  static constexpr llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less, llvm::CodeGenOptLevel::Default,
      llvm::CodeGenOptLevel::Aggressive};
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, target.features, llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
      levels[std::min(optLevel, 3U)]));
  if (!machine)
    return llvm::createStringError("cannot create an LLVM target machine for '" + target.triple +
                                   "'");
  return machine;
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1, llvm::OptimizationLevel::O2,
      llvm::OptimizationLevel::O3};
  unsigned level = std::min(optLevel, 3U);
  llvm::ModulePassManager mpm = level == 0 ? pb.buildO0DefaultPipeline(levels[0])
                                           : pb.buildPerModuleDefaultPipeline(levels[level]);
  mpm.run(module, mam);
}

llvm::Error emitObjectCode(llvm::Module &module, llvm::TargetMachine &machine,
                           llvm::SmallVectorImpl<char> &object) {
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the LLVM target machine cannot emit object files");
  pm.run(module);
  return llvm::Error::success();
}

} // namespace qshape::codegen
