//===- CatalystEntryPoints.cpp - qshape-catalyst-entry-points -------------===//
//
// Catalyst's frontend writes a `jit_<name>` entry with llvm.emit_c_interface
// that calls the QNode, and `setup`/`teardown` functions running
// quantum.init/quantum.finalize. Modules that did not come from the
// frontend (utils/gen/workloads.py, hand-written ones) get them here, so that
// every library qshape builds has the exports Catalyst's loader calls.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "qshape-catalyst-entry-points"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECATALYSTENTRYPOINTS
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

bool isEntry(func::FuncOp fn) {
  return !fn.isDeclaration() && fn->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
}

/// `func.func @name() { <op>  return }` with `op` built by name, so the
/// quantum dialect need not be loaded.
void addRuntimeFunction(ModuleOp module, StringRef name, StringRef opName) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType({}, {}));
  b.setInsertionPointToStart(fn.addEntryBlock());
  OperationState state(loc, opName);
  b.create(state);
  func::ReturnOp::create(b, loc);
}

struct CatalystEntryPointsPass
    : qshape::impl::QShapeCatalystEntryPointsBase<CatalystEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    StringAttr cInterface = StringAttr::get(ctx, LLVM::LLVMDialect::getEmitCWrapperAttrName());

    SmallVector<func::FuncOp> entries, qnodes;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (isEntry(fn))
        entries.push_back(fn);
      else if (fn.isPublic() && !fn.isDeclaration() && fn->hasAttr("qnode"))
        qnodes.push_back(fn);
    }
    if (entries.empty()) {
      for (func::FuncOp qnode : qnodes) {
        std::string name = ("jit_" + qnode.getName()).str();
        if (SymbolTable::lookupSymbolIn(module, name)) {
          qnode.emitOpError() << "needs an entry @" << name
                              << ", but the module has another symbol of that name";
          return signalPassFailure();
        }
        OpBuilder b(module.getContext());
        b.setInsertionPoint(qnode);
        auto entry = func::FuncOp::create(b, qnode.getLoc(), name, qnode.getFunctionType());
        entry->setAttr(cInterface, UnitAttr::get(ctx));
        Block *body = entry.addEntryBlock();
        b.setInsertionPointToStart(body);
        auto call = func::CallOp::create(b, qnode.getLoc(), qnode, body->getArguments());
        func::ReturnOp::create(b, qnode.getLoc(), call.getResults());
        entries.push_back(entry);
        ++numEntries;
      }
    }
    // The library must not write into the caller's argument buffers.
    for (func::FuncOp entry : entries)
      for (unsigned k = 0; k < entry.getNumArguments(); ++k)
        if (isa<TensorType>(entry.getArgument(k).getType()))
          entry.setArgAttr(k, "bufferization.writable", BoolAttr::get(ctx, false));

    bool addSetup = !SymbolTable::lookupSymbolIn(module, "setup");
    bool addTeardown = !SymbolTable::lookupSymbolIn(module, "teardown");
    // quantum.init/finalize are built by name. A module without quantum ops
    // may not have loaded the dialect its host registered: load it (this
    // pass runs on the whole module, so nothing runs beside it), or the ops
    // would be unregistered.
    if ((addSetup || addTeardown) && !ctx->getLoadedDialect("quantum") &&
        llvm::is_contained(ctx->getAvailableDialects(), "quantum"))
      ctx->getOrLoadDialect("quantum");
    if (addSetup)
      addRuntimeFunction(module, "setup", "quantum.init");
    if (addTeardown)
      addRuntimeFunction(module, "teardown", "quantum.finalize");
  }
};

} // namespace
