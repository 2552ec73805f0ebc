//===- FlattenModules.cpp - qshape-flatten-modules ------------------------===//
//
// Catalyst's frontend nests each QNode in a module of its own and calls it
// with `catalyst.launch_kernel @module::@qnode(...)`; its pipeline inlines
// those modules (inline-nested-module) before lowering. This pass does the
// same in three steps: choose a flat name for every symbol of a nested
// module, rewrite every symbol reference (nested references from any scope,
// flat ones inside the nested module), then move the ops up and turn the
// launches into calls. `catalyst.launch_kernel` is read by name: the catalyst
// dialect need not be loaded.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-flatten-modules"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEFLATTENMODULES
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

/// The names of the modules from `top` (excluded) down to `module`
/// (included); empty when one of them has no name.
SmallVector<StringAttr> modulePath(ModuleOp module, ModuleOp top) {
  SmallVector<StringAttr> path;
  for (ModuleOp m = module; m && m != top; m = m->getParentOfType<ModuleOp>()) {
    if (!m.getSymNameAttr())
      return {};
    path.insert(path.begin(), m.getSymNameAttr());
  }
  return path;
}

/// `@a::@b::@sym` for a module path and a symbol name.
SymbolRefAttr qualified(ArrayRef<StringAttr> path, StringAttr name) {
  SmallVector<FlatSymbolRefAttr> nested;
  for (StringAttr p : path.drop_front())
    nested.push_back(FlatSymbolRefAttr::get(p));
  nested.push_back(FlatSymbolRefAttr::get(name));
  return SymbolRefAttr::get(path.front(), nested);
}

struct FlattenModulesPass : qshape::impl::QShapeFlattenModulesBase<FlattenModulesPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    MLIRContext *ctx = &getContext();

    SmallVector<ModuleOp> nested;
    top.walk<WalkOrder::PreOrder>([&](ModuleOp m) {
      if (m != top)
        nested.push_back(m);
    });

    // 1. Flat names. Names of the top module's own symbols are kept;
    // external declarations that already exist are merged into them.
    llvm::StringSet<> used;
    for (Operation &op : top.getBody()->getOperations())
      if (auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
          name && !isa<ModuleOp>(op))
        used.insert(name.getValue());
    DenseMap<Attribute, StringAttr> byQualifiedName;
    DenseMap<Operation *, DenseMap<StringAttr, StringAttr>> byLocalName; // per nested module
    SmallVector<Operation *> mergedDecls;
    for (ModuleOp m : nested) {
      SmallVector<StringAttr> path = modulePath(m, top);
      for (Operation &op : m.getBody()->getOperations()) {
        auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (!name || isa<ModuleOp>(op))
          continue;
        StringAttr flat = name;
        auto fn = dyn_cast<func::FuncOp>(op);
        bool mergeable = fn && fn.isDeclaration() && used.contains(name.getValue());
        if (mergeable) {
          mergedDecls.push_back(&op);
        } else if (used.contains(name.getValue())) {
          unsigned k = 0;
          std::string candidate;
          do
            candidate = (name.getValue() + "_" + std::to_string(k++)).str();
          while (used.contains(candidate));
          flat = StringAttr::get(ctx, candidate);
        }
        used.insert(flat.getValue());
        byLocalName[m][name] = flat;
        if (!path.empty())
          byQualifiedName[qualified(path, name)] = flat;
      }
    }

    // 2. References. A nested reference is resolved from each enclosing
    // module outwards; a flat one inside a nested module names that
    // module's own symbol.
    top.walk([&](Operation *op) {
      if (op == top.getOperation())
        return;
      auto scope = op->getParentOfType<ModuleOp>();
      AttrTypeReplacer replacer;
      replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
        if (ref.getNestedReferences().empty()) {
          auto local = byLocalName.find(scope);
          if (scope == top || local == byLocalName.end())
            return std::nullopt;
          auto it = local->second.find(ref.getRootReference());
          if (it == local->second.end() || it->second == ref.getRootReference())
            return std::nullopt;
          return FlatSymbolRefAttr::get(it->second);
        }
        for (ModuleOp m = scope; m; m = m->getParentOfType<ModuleOp>()) {
          SmallVector<StringAttr> path = m == top ? SmallVector<StringAttr>{} : modulePath(m, top);
          path.push_back(ref.getRootReference());
          for (FlatSymbolRefAttr n : ref.getNestedReferences().drop_back())
            path.push_back(n.getAttr());
          auto it = byQualifiedName.find(qualified(path, ref.getLeafReference()));
          if (it != byQualifiedName.end())
            return FlatSymbolRefAttr::get(it->second);
          if (m == top)
            break;
        }
        return std::nullopt;
      });
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      // An unregistered op (catalyst.launch_kernel without the catalyst
      // dialect) parsed with <{...}> keeps its attributes in a property.
      if (!op->isRegistered() && op->getPropertiesStorageSize())
        if (Attribute props = op->getPropertiesAsAttribute())
          if (Attribute replaced = replacer.replace(props); replaced != props)
            (void)op->setPropertiesFromAttribute(replaced, nullptr);
    });

    // 3. Move everything up, innermost modules first, then rename symbols.
    for (Operation *decl : mergedDecls)
      decl->erase();
    for (ModuleOp m : llvm::reverse(nested)) {
      for (auto &[local, flat] : byLocalName[m])
        if (Operation *sym = SymbolTable::lookupSymbolIn(m, local); sym && local != flat)
          SymbolTable::setSymbolName(sym, flat);
      Block *parent = m->getBlock();
      parent->getOperations().splice(Block::iterator(m), m.getBody()->getOperations());
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": inlining module " << m.getSymNameAttr() << "\n");
      m.erase();
      ++numModules;
    }

    SmallVector<Operation *> launches;
    top.walk([&](Operation *op) {
      if (op->getName().getStringRef() == "catalyst.launch_kernel")
        launches.push_back(op);
      if (auto fn = dyn_cast<func::FuncOp>(op); fn && fn->hasAttr("quantum.node")) {
        fn->removeAttr("quantum.node");
        fn->setAttr("qnode", UnitAttr::get(ctx));
      }
    });
    for (Operation *launch : launches) {
      auto callee = dyn_cast_or_null<FlatSymbolRefAttr>(launch->getAttr("callee"));
      if (!callee || !top.lookupSymbol<func::FuncOp>(callee)) {
        launch->emitOpError() << "calls " << launch->getAttr("callee")
                              << ", which is not a function of this module or its nested modules";
        return signalPassFailure();
      }
      OpBuilder b(launch);
      auto call = func::CallOp::create(b, launch->getLoc(), callee, launch->getResultTypes(),
                                       launch->getOperands());
      launch->replaceAllUsesWith(call);
      launch->erase();
      ++numLaunches;
    }
  }
};

} // namespace
