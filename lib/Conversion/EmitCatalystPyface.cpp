//===- EmitCatalystPyface.cpp - qshape-emit-catalyst-pyface ---------------===//
//
// Catalyst's Python loader calls `_catalyst_pyface_<name>(void *results,
// void *args)`. The calling convention (docs/native.md has the details and
// a C example):
//
// - `args` points to a C struct with one field per argument of the entry,
//   in order: a pointer to the memref descriptor {T *allocated, T *aligned,
//   int64 offset, int64 sizes[r], int64 strides[r]} of a tensor argument of
//   any rank (rank 0: the first three fields only), the value of a scalar.
//   It is not read when the entry has no arguments.
// - `results` points to where the results are written: the descriptor of a
//   single tensor result, a C struct of all results in order (descriptors
//   and scalars by value) for several, the value of a single scalar result.
//
// As Catalyst's emit-catalyst-py-interface, the wrapper passes `results`
// on as the C interface's result pointer and unpacks `args`. It differs in
// two details that do not change what a caller passes: it loads exactly the
// argument fields (Catalyst's loads one pointer more) and it handles a C
// interface that returns a scalar by value (Catalyst's frontend never makes
// one; its wrapper would treat the first argument as the result pointer).
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "qshape-emit-catalyst-pyface"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEEMITCATALYSTPYFACE
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

constexpr StringLiteral kCiface = "_mlir_ciface_";

/// The function `ciface` wraps when it is a C interface wrapper made by
/// convert-func-to-llvm: named `_mlir_ciface_<name>`, for an `<name>` that
/// carries llvm.emit_c_interface.
LLVM::LLVMFuncOp wrappedFunction(LLVM::LLVMFuncOp ciface, ModuleOp module) {
  StringRef name = ciface.getSymName();
  if (!name.starts_with(kCiface) || ciface.isExternal())
    return {};
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name.drop_front(kCiface.size()));
  if (!fn || !fn->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
    return {};
  return fn;
}

struct EmitCatalystPyfacePass : qshape::impl::QShapeEmitCatalystPyfaceBase<EmitCatalystPyfacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type voidTy = LLVM::LLVMVoidType::get(ctx);

    SmallVector<std::pair<LLVM::LLVMFuncOp, LLVM::LLVMFuncOp>> todo;
    for (auto ciface : module.getOps<LLVM::LLVMFuncOp>())
      if (LLVM::LLVMFuncOp fn = wrappedFunction(ciface, module))
        todo.push_back({ciface, fn});

    for (auto [ciface, fn] : todo) {
      StringRef base = ciface.getSymName().drop_front(kCiface.size());
      std::string pyface = ("_catalyst_pyface_" + base).str();
      std::string catalystCiface = ("_catalyst_ciface_" + base).str();
      if (module.lookupSymbol(pyface) || module.lookupSymbol(catalystCiface)) {
        ciface.emitOpError() << "needs the symbols @" << pyface << " and @" << catalystCiface
                             << ", but the module already has one of them";
        return signalPassFailure();
      }
      LLVM::LLVMFunctionType type = ciface.getFunctionType();
      ArrayRef<Type> params = type.getParams();
      // convert-func-to-llvm passes results through a leading pointer when
      // they form a struct (a memref, or several results), and returns a
      // single scalar result by value.
      Type result = type.getReturnType();
      bool resultByPointer = isa<LLVM::LLVMVoidType>(result) &&
                             !isa<LLVM::LLVMVoidType>(fn.getFunctionType().getReturnType());
      ArrayRef<Type> inputs = resultByPointer ? params.drop_front() : params;

      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      Location loc = ciface.getLoc();

      // _catalyst_ciface_<name>: Catalyst's name for the C interface.
      auto alias = LLVM::LLVMFuncOp::create(b, loc, catalystCiface, type);
      {
        OpBuilder::InsertionGuard guard(b);
        Block *body = alias.addEntryBlock(b);
        b.setInsertionPointToStart(body);
        auto call = LLVM::CallOp::create(b, loc, ciface, body->getArguments());
        LLVM::ReturnOp::create(b, loc, call.getResults());
      }

      auto wrapper =
          LLVM::LLVMFuncOp::create(b, loc, pyface, LLVM::LLVMFunctionType::get(voidTy, {ptr, ptr}));
      Block *body = wrapper.addEntryBlock(b);
      b.setInsertionPointToStart(body);
      Value results = body->getArgument(0), argsPtr = body->getArgument(1);
      SmallVector<Value> args;
      if (resultByPointer)
        args.push_back(results);
      if (!inputs.empty()) {
        auto argsTy = LLVM::LLVMStructType::getLiteral(ctx, inputs);
        Value packed = LLVM::LoadOp::create(b, loc, argsTy, argsPtr);
        for (int64_t k = 0, e = inputs.size(); k < e; ++k)
          args.push_back(LLVM::ExtractValueOp::create(b, loc, packed, ArrayRef<int64_t>{k}));
      }
      auto call = LLVM::CallOp::create(b, loc, ciface, args);
      if (!isa<LLVM::LLVMVoidType>(result))
        LLVM::StoreOp::create(b, loc, call.getResult(), results);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      ++numWrappers;
    }
  }
};

} // namespace
