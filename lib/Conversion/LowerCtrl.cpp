//===- LowerCtrl.cpp - qshape-lower-ctrl ----------------------------------===//
//
// A `quantum.ctrl` region controls every gate it holds. The body is copied
// in front of the region with the region's control qubits and values added
// to each gate; the control qubits are threaded through the copy (each gate
// consumes the current values and produces the next), through control flow
// as extra loop-carried values or results, and through a nested
// `quantum.adjoint` as extra arguments and results. Like Catalyst's
// ctrl-lowering, everything is built before anything is replaced, so a
// rejected region is left as it was. Ops are read by name (op table, gate
// view); scf ops are upstream and always registered.
//
//===----------------------------------------------------------------------===//

#include "QuantumRewriting.h"

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-lower-ctrl"

namespace qshape {
#define GEN_PASS_DEF_QSHAPELOWERCTRL
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

bool isRegionOp(Operation *op, QOp id) {
  const QuantumOpInfo *info = lookupQuantumOp(op);
  return info && info->id == id;
}

/// Copies a ctrl region's body with its controls added. `ctrls` holds the
/// current values of the control qubits; `values` the control values.
class ControlDistributor {
public:
  ControlDistributor(OpBuilder &b, ValueRange values, uint64_t &numGates)
      : b(b), values(values.begin(), values.end()), numGates(numGates) {}

  LogicalResult distribute(Block &block, IRMapping &map, SmallVector<Value> &ctrls) {
    for (Operation &op : withoutTerminator(block))
      if (failed(visit(&op, map, ctrls)))
        return failure();
    return success();
  }

private:
  LogicalResult visit(Operation *op, IRMapping &map, SmallVector<Value> &ctrls) {
    if (!touchesQuantum(op)) {
      b.clone(*op, map); // classical code, control flow included
      return success();
    }
    if (const QuantumOpInfo *info = lookupQuantumOp(op)) {
      switch (info->kind) {
      case QOpKind::Gate:
      case QOpKind::GlobalPhase:
        return controlGate(op, *info, map, ctrls);
      case QOpKind::Extract:
      case QOpKind::Insert:
      case QOpKind::Alloc:
      case QOpKind::AllocQubit:
      case QOpKind::Dealloc:
      case QOpKind::DeallocQubit:
        b.clone(*op, map); // register structure carries no controls
        return success();
      case QOpKind::Adjoint:
        return controlAdjoint(op, map, ctrls);
      case QOpKind::Measure:
      case QOpKind::Measurement:
        return op->emitOpError() << "cannot be controlled: a measurement inside a quantum.ctrl "
                                    "region";
      default:
        return op->emitOpError() << "cannot be controlled inside a quantum.ctrl region";
      }
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return controlFor(forOp, map, ctrls);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return controlIf(ifOp, map, ctrls);
    return op->emitOpError() << "takes part in the quantum program inside a quantum.ctrl region; "
                                "qshape-lower-ctrl can control gates, scf.for, scf.if and "
                                "quantum.adjoint regions only";
  }

  Type qubitType() { return getQubitType(b.getContext()); }

  LogicalResult controlGate(Operation *op, const QuantumOpInfo &info, IRMapping &map,
                            SmallVector<Value> &ctrls) {
    SmallVector<Value> operands;
    SmallVector<int32_t> operandGroups, resultGroups;
    for (const OpGroup &g : info.operands) {
      OperandRange group = getOperandGroup(op, g.role);
      for (Value v : group)
        operands.push_back(map.lookupOrDefault(v));
      int32_t size = group.size();
      if (g.role == OpRole::CtrlQubits) {
        operands.append(ctrls.begin(), ctrls.end());
        size += ctrls.size();
      } else if (g.role == OpRole::CtrlValues) {
        operands.append(values.begin(), values.end());
        size += values.size();
      }
      operandGroups.push_back(size);
    }
    SmallVector<Type> types;
    for (const OpGroup &g : info.results) {
      ResultRange group = getResultGroup(op, g.role);
      llvm::append_range(types, group.getTypes());
      int32_t size = group.size();
      if (g.role == OpRole::CtrlQubits) {
        types.append(ctrls.size(), qubitType());
        size += ctrls.size();
      }
      resultGroups.push_back(size);
    }
    Operation *gate = rebuildQuantumOp(b, op, operands, types, operandGroups, resultGroups);
    ++numGates;
    // The old results come first in every group; the added controls end
    // the control group.
    for (const OpGroup &g : info.results) {
      ResultRange before = getResultGroup(op, g.role), after = getResultGroup(gate, g.role);
      for (auto [o, n] : llvm::zip(before, after))
        map.map(o, n);
      if (g.role == OpRole::CtrlQubits)
        ctrls.assign(after.begin() + before.size(), after.end());
    }
    return success();
  }

  /// ctrl(adjoint(U)) = adjoint(ctrl(U)): the controls become extra
  /// arguments and results of the adjoint region.
  LogicalResult controlAdjoint(Operation *op, IRMapping &map, SmallVector<Value> &ctrls) {
    Block &body = op->getRegion(0).front();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(map.lookupOrDefault(v));
    operands.append(ctrls.begin(), ctrls.end());
    SmallVector<Type> types(op->getResultTypes());
    types.append(ctrls.size(), qubitType());
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addTypes(types);
    state.addAttributes(allAttributes(op));
    Region *region = state.addRegion();

    auto *inner = new Block();
    region->push_back(inner);
    IRMapping innerMap = map;
    for (BlockArgument arg : body.getArguments())
      innerMap.map(arg, inner->addArgument(arg.getType(), arg.getLoc()));
    SmallVector<Value> innerCtrls;
    for (Value c : ctrls)
      innerCtrls.push_back(inner->addArgument(c.getType(), op->getLoc()));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(inner);
      if (failed(distribute(body, innerMap, innerCtrls)))
        return failure();
      Operation *yield = body.getTerminator();
      SmallVector<Value> yielded;
      for (Value v : yield->getOperands())
        yielded.push_back(innerMap.lookupOrDefault(v));
      yielded.append(innerCtrls.begin(), innerCtrls.end());
      OperationState y(yield->getLoc(), yield->getName());
      y.addOperands(yielded);
      b.create(y);
    }
    Operation *created = b.create(state);
    unsigned n = op->getNumResults();
    for (unsigned k = 0; k < n; ++k)
      map.map(op->getResult(k), created->getResult(k));
    ctrls.assign(created->result_begin() + n, created->result_end());
    return success();
  }

  LogicalResult controlFor(scf::ForOp forOp, IRMapping &map, SmallVector<Value> &ctrls) {
    SmallVector<Value> inits;
    for (Value v : forOp.getInitArgs())
      inits.push_back(map.lookupOrDefault(v));
    unsigned n = inits.size();
    inits.append(ctrls.begin(), ctrls.end());
    auto loop = scf::ForOp::create(b, forOp.getLoc(), map.lookupOrDefault(forOp.getLowerBound()),
                                   map.lookupOrDefault(forOp.getUpperBound()),
                                   map.lookupOrDefault(forOp.getStep()), inits, nullptr,
                                   forOp.getUnsignedCmp());
    IRMapping bodyMap = map;
    bodyMap.map(forOp.getInductionVar(), loop.getInductionVar());
    for (unsigned k = 0; k < n; ++k)
      bodyMap.map(forOp.getRegionIterArgs()[k], loop.getRegionIterArgs()[k]);
    SmallVector<Value> bodyCtrls(loop.getRegionIterArgs().drop_front(n));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      if (failed(distribute(*forOp.getBody(), bodyMap, bodyCtrls)))
        return failure();
      SmallVector<Value> yielded;
      for (Value v : forOp.getBody()->getTerminator()->getOperands())
        yielded.push_back(bodyMap.lookupOrDefault(v));
      yielded.append(bodyCtrls.begin(), bodyCtrls.end());
      scf::YieldOp::create(b, forOp.getLoc(), yielded);
    }
    for (unsigned k = 0; k < n; ++k)
      map.map(forOp.getResult(k), loop.getResult(k));
    ctrls.assign(loop.result_begin() + n, loop.result_end());
    return success();
  }

  LogicalResult controlIf(scf::IfOp ifOp, IRMapping &map, SmallVector<Value> &ctrls) {
    SmallVector<Type> types(ifOp.getResultTypes());
    unsigned n = types.size();
    types.append(ctrls.size(), qubitType());
    auto newIf =
        scf::IfOp::create(b, ifOp.getLoc(), types, map.lookupOrDefault(ifOp.getCondition()),
                          /*withElseRegion=*/true);
    auto branch = [&](Block *from, Block *to) -> LogicalResult {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(to);
      IRMapping branchMap = map;
      SmallVector<Value> branchCtrls = ctrls;
      SmallVector<Value> yielded;
      if (from) {
        if (failed(distribute(*from, branchMap, branchCtrls)))
          return failure();
        for (Value v : from->getTerminator()->getOperands())
          yielded.push_back(branchMap.lookupOrDefault(v));
      }
      yielded.append(branchCtrls.begin(), branchCtrls.end());
      scf::YieldOp::create(b, ifOp.getLoc(), yielded);
      return success();
    };
    // scf::IfOp::create adds terminators to both blocks: replace them.
    for (Block *to : {newIf.thenBlock(), newIf.elseBlock()})
      if (!to->empty())
        to->getTerminator()->erase();
    if (failed(branch(ifOp.thenBlock(), newIf.thenBlock())) ||
        failed(branch(ifOp.elseBlock(), newIf.elseBlock())))
      return failure();
    for (unsigned k = 0; k < n; ++k)
      map.map(ifOp.getResult(k), newIf.getResult(k));
    ctrls.assign(newIf.result_begin() + n, newIf.result_end());
    return success();
  }

  OpBuilder &b;
  SmallVector<Value> values;
  uint64_t &numGates;
};

struct LowerCtrlPass : qshape::impl::QShapeLowerCtrlBase<LowerCtrlPass> {
  void runOnOperation() override {
    SmallVector<Operation *> regions;
    // Innermost first: an inner region's gates then gain the outer controls.
    getOperation().walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isRegionOp(op, QOp::Ctrl))
        regions.push_back(op);
    });
    uint64_t gates = 0;
    for (Operation *op : regions)
      if (failed(lower(op, gates)))
        return signalPassFailure();
    numRegions += regions.size();
    numGates += gates;
  }

  LogicalResult lower(Operation *op, uint64_t &gates) {
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": controlling the region at " << op->getLoc() << "\n");
    OperandRange ctrlsIn = getOperandGroup(op, OpRole::CtrlQubits);
    OperandRange values = getOperandGroup(op, OpRole::CtrlValues);
    OperandRange args = getOperandGroup(op, OpRole::Args);
    if (op->getNumRegions() != 1 || op->getRegion(0).empty() || ctrlsIn.size() != values.size() ||
        ctrlsIn.size() + values.size() + args.size() != op->getNumOperands() ||
        op->getRegion(0).front().getNumArguments() != args.size())
      return op->emitOpError() << "is malformed: expected control qubits, as many control "
                                  "values, and one region argument per target";
    Block &body = op->getRegion(0).front();

    // Build into a detached block; only a complete copy replaces the region.
    auto *scratch = new Block();
    OpBuilder b(op->getContext());
    b.setInsertionPointToStart(scratch);
    IRMapping map;
    for (auto [arg, operand] : llvm::zip(body.getArguments(), args))
      map.map(arg, operand);
    SmallVector<Value> ctrls(ctrlsIn);
    ControlDistributor distributor(b, values, gates);
    if (failed(distributor.distribute(body, map, ctrls))) {
      discardBlock(scratch);
      return failure();
    }
    SmallVector<Value> results(ctrls);
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(map.lookupOrDefault(v));
    if (results.size() != op->getNumResults()) {
      discardBlock(scratch);
      return op->emitOpError() << "yields " << results.size() - ctrls.size()
                               << " values for its targets, expected "
                               << op->getNumResults() - ctrls.size();
    }
    replaceWithBuiltOps(op, scratch, results);
    return success();
  }
};

} // namespace
