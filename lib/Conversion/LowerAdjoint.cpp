//===- LowerAdjoint.cpp - qshape-lower-adjoint ----------------------------===//
//
// adjoint(U_n ... U_1) = U_1^dagger ... U_n^dagger. The region's block is
// rebuilt in front of the op in two sweeps: its classical ops are copied
// first, in order (they compute the gates' parameters and indices and never
// depend on quantum values), then its quantum ops are emitted last to first,
// each gate with its adjoint flag flipped. Quantum values flow backwards: a
// map takes each value of the region to its value in the reversed program,
// starting with the yielded values (the op's operands) and ending with the
// block arguments (the op's results).
//
// Catalyst's adjoint-lowering records classical values on a runtime tape
// (catalyst.list_push/pop) and replays them. qshape has no such runtime, so
// it recomputes: the body of a reversed `scf.for` recomputes its classical
// ops from the reversed induction variable. Loops that carry classical
// values next to qubits cannot be recomputed that way and are rejected.
// Everything is built in a detached block first, so a rejected region is
// left as it was.
//
//===----------------------------------------------------------------------===//

#include "QuantumRewriting.h"

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-lower-adjoint"

namespace qshape {
#define GEN_PASS_DEF_QSHAPELOWERADJOINT
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

class Reverser {
public:
  Reverser(OpBuilder &b, uint64_t &numGates, uint64_t &numLoops)
      : b(b), numGates(numGates), numLoops(numLoops) {}

  /// Emits the inverse of `block` at the builder. On entry `q` holds the
  /// reversed-program values of what the block yields; on return also those
  /// of its arguments and of the outer values it consumed. `c` maps the
  /// block's classical values to their copies.
  LogicalResult reverse(Block &block, IRMapping &c, IRMapping &q) {
    for (Operation &op : withoutTerminator(block))
      if (!touchesQuantum(&op))
        b.clone(op, c);
    for (Operation &op : llvm::reverse(withoutTerminator(block)))
      if (touchesQuantum(&op) && failed(reverseOp(&op, c, q)))
        return failure();
    return success();
  }

private:
  /// The reversed-program value of `v`, which `user` consumes.
  Value current(IRMapping &q, Value v, Operation *user) {
    if (Value c = q.lookupOrNull(v))
      return c;
    user->emitOpError() << "uses a quantum value the adjoint lowering cannot follow backwards "
                           "(one taken from outside its region, or consumed twice)";
    return {};
  }

  LogicalResult reverseOp(Operation *op, IRMapping &c, IRMapping &q) {
    const QuantumOpInfo *info = lookupQuantumOp(op);
    if (!info) {
      if (auto forOp = dyn_cast<scf::ForOp>(op))
        return reverseFor(forOp, c, q);
      if (auto ifOp = dyn_cast<scf::IfOp>(op))
        return reverseIf(ifOp, c, q);
      return op->emitOpError() << "takes part in the quantum program inside a quantum.adjoint "
                                  "region and cannot be inverted (qshape-lower-adjoint inverts "
                                  "gates, register ops, scf.for, scf.if and quantum.ctrl)";
    }
    switch (info->kind) {
    case QOpKind::Gate:
    case QOpKind::GlobalPhase:
      return reverseGate(op, c, q);
    case QOpKind::Extract:
    case QOpKind::Insert:
      return reverseAccess(op, c, q);
    case QOpKind::Alloc:
    case QOpKind::AllocQubit: {
      Value v = current(q, op->getResult(0), op);
      if (!v)
        return failure();
      OperationState state(op->getLoc(),
                           info->id == QOp::Alloc ? "quantum.dealloc" : "quantum.dealloc_qb");
      state.addOperands(v);
      b.create(state);
      return success();
    }
    case QOpKind::Dealloc:
    case QOpKind::DeallocQubit:
      return reverseDealloc(op, c, q);
    case QOpKind::Ctrl:
      return reverseCtrl(op, c, q);
    default:
      return op->emitOpError() << "cannot be inverted inside a quantum.adjoint region";
    }
  }

  LogicalResult reverseGate(Operation *op, IRMapping &c, IRMapping &q) {
    // Qubit operands take the current values of the matching results; the
    // parameters, matrix and control values are classical.
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(c.lookupOrDefault(v));
    for (OpRole role : {OpRole::Qubits, OpRole::CtrlQubits}) {
      OperandRange in = getOperandGroup(op, role);
      ResultRange out = getResultGroup(op, role);
      for (auto [k, result] : llvm::enumerate(out)) {
        Value v = current(q, result, op);
        if (!v)
          return failure();
        operands[in.getBeginOperandIndex() + k] = v;
      }
    }
    Operation *gate = b.clone(*op);
    gate->setOperands(operands);
    setUnitFlag(gate, "adjoint", !gate->getAttr("adjoint"));
    for (OpRole role : {OpRole::Qubits, OpRole::CtrlQubits})
      for (auto [in, out] : llvm::zip(getOperandGroup(op, role), getResultGroup(gate, role)))
        q.map(in, out);
    ++numGates;
    return success();
  }

  /// extract and insert swap: the reversed program puts back what the
  /// original took out, and takes out what it put back.
  LogicalResult reverseAccess(Operation *op, IRMapping &c, IRMapping &q) {
    std::optional<RegisterAccess> a = RegisterAccess::get(op);
    if (!a)
      return op->emitOpError() << "is a malformed register access";
    IndexSpec idx = a->dynamicIdx ? IndexSpec::ofDynamic(c.lookupOrDefault(a->dynamicIdx))
                                  : IndexSpec::ofStatic(a->staticIdx.value_or(0));
    if (a->isInsert) {
      Value reg = current(q, a->result, op);
      if (!reg)
        return failure();
      q.map(a->qubit, buildExtract(b, op->getLoc(), reg, idx)->getResult(0));
      q.map(a->reg, reg);
      return success();
    }
    Value reg = current(q, a->reg, op);
    Value qubit = reg ? current(q, a->qubit, op) : Value();
    if (!qubit)
      return failure();
    q.map(a->reg, buildInsert(b, op->getLoc(), reg, idx, qubit)->getResult(0));
    return success();
  }

  /// The reversed program allocates what the original released: the
  /// allocation must be found (through inserts) in the region.
  LogicalResult reverseDealloc(Operation *op, IRMapping &c, IRMapping &q) {
    Value released = op->getOperand(0);
    const QuantumOpInfo &info = *lookupQuantumOp(op);
    if (info.id == QOp::DeallocQb) {
      OperationState state(op->getLoc(), "quantum.alloc_qb");
      state.addTypes(released.getType());
      q.map(released, b.create(state)->getResult(0));
      return success();
    }
    Value reg = released;
    Operation *alloc = nullptr;
    while (Operation *def = reg.getDefiningOp()) {
      const QuantumOpInfo *d = lookupQuantumOp(def);
      if (d && d->id == QOp::Alloc) {
        alloc = def;
        break;
      }
      if (!d || d->id != QOp::Insert)
        break;
      reg = def->getOperand(0);
    }
    if (!alloc)
      return op->emitOpError() << "releases a register whose allocation is not in the "
                                  "quantum.adjoint region, so its inverse cannot allocate it";
    Operation *copy = b.clone(*alloc, c);
    q.map(released, copy->getResult(0));
    return success();
  }

  /// (ctrl(U))^dagger = ctrl(U^dagger): the same controls around the
  /// reversed body.
  LogicalResult reverseCtrl(Operation *op, IRMapping &c, IRMapping &q) {
    OperandRange ctrlsIn = getOperandGroup(op, OpRole::CtrlQubits);
    OperandRange args = getOperandGroup(op, OpRole::Args);
    ResultRange ctrlsOut = getResultGroup(op, OpRole::CtrlQubits);
    ResultRange results = getResultGroup(op, OpRole::Args);
    if (op->getNumRegions() != 1 || op->getRegion(0).empty() || ctrlsOut.size() != ctrlsIn.size() ||
        results.size() != args.size())
      return op->emitOpError() << "is malformed";
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(c.lookupOrDefault(v));
    for (auto [k, v] : llvm::enumerate(ctrlsOut)) {
      operands[ctrlsIn.getBeginOperandIndex() + k] = current(q, v, op);
      if (!operands[ctrlsIn.getBeginOperandIndex() + k])
        return failure();
    }
    for (auto [k, v] : llvm::enumerate(results)) {
      operands[args.getBeginOperandIndex() + k] = current(q, v, op);
      if (!operands[args.getBeginOperandIndex() + k])
        return failure();
    }

    Block &body = op->getRegion(0).front();
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addTypes(op->getResultTypes());
    state.addAttributes(allAttributes(op));
    auto *inner = new Block();
    state.addRegion()->push_back(inner);
    Operation *yield = body.getTerminator();
    IRMapping innerC = c, innerQ;
    for (Value v : yield->getOperands())
      innerQ.map(v, inner->addArgument(v.getType(), v.getLoc()));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(inner);
      if (failed(reverse(body, innerC, innerQ)))
        return failure();
      SmallVector<Value> yielded;
      for (BlockArgument arg : body.getArguments())
        if (!yielded.emplace_back(current(innerQ, arg, op)))
          return failure();
      OperationState y(yield->getLoc(), yield->getName());
      y.addOperands(yielded);
      b.create(y);
    }
    Operation *ctrl = b.create(state);
    for (auto [in, out] : llvm::zip(ctrlsIn, getResultGroup(ctrl, OpRole::CtrlQubits)))
      q.map(in, out);
    for (auto [in, out] : llvm::zip(args, getResultGroup(ctrl, OpRole::Args)))
      q.map(in, out);
    return success();
  }

  /// `lb + last`, where `last` is the final value of the induction
  /// variable: the reversed loop runs over the same values and uses
  /// `lb + last - iv`. Computed before the loop.
  Value reversalSum(scf::ForOp forOp, Value lb, Value ub, Value step) {
    Location loc = forOp.getLoc();
    Type type = lb.getType();
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (l && u && s && *s > 0) {
      int64_t trips = *u > *l ? (*u - *l + *s - 1) / *s : 1;
      int64_t last = *l + (trips - 1) * *s;
      return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, *l + last));
    }
    Value one = arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 1));
    Value span = arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), one);
    Value steps = forOp.getUnsignedCmp() ? Value(arith::DivUIOp::create(b, loc, span, step))
                                         : Value(arith::DivSIOp::create(b, loc, span, step));
    Value last = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, steps, step));
    return arith::AddIOp::create(b, loc, lb, last);
  }

  LogicalResult reverseFor(scf::ForOp forOp, IRMapping &c, IRMapping &q) {
    for (Value v : forOp.getInitArgs())
      if (!isQuantumType(v.getType()))
        return forOp.emitOpError() << "carries a classical value next to qubits inside a "
                                      "quantum.adjoint region; its reversal would need that "
                                      "value per iteration";
    SmallVector<Value> inits;
    for (Value r : forOp.getResults())
      if (!inits.emplace_back(current(q, r, forOp)))
        return failure();
    Value lb = c.lookupOrDefault(forOp.getLowerBound());
    Value ub = c.lookupOrDefault(forOp.getUpperBound());
    Value step = c.lookupOrDefault(forOp.getStep());
    Value sum = reversalSum(forOp, lb, ub, step);
    auto loop =
        scf::ForOp::create(b, forOp.getLoc(), lb, ub, step, inits, nullptr, forOp.getUnsignedCmp());
    Block *body = forOp.getBody();
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IRMapping bodyC = c, bodyQ;
      bodyC.map(forOp.getInductionVar(),
                arith::SubIOp::create(b, forOp.getLoc(), sum, loop.getInductionVar()));
      for (auto [y, arg] :
           llvm::zip(body->getTerminator()->getOperands(), loop.getRegionIterArgs()))
        bodyQ.map(y, arg);
      if (failed(reverse(*body, bodyC, bodyQ)))
        return failure();
      SmallVector<Value> yielded;
      for (BlockArgument arg : forOp.getRegionIterArgs())
        if (!yielded.emplace_back(current(bodyQ, arg, forOp)))
          return failure();
      scf::YieldOp::create(b, forOp.getLoc(), yielded);
    }
    for (auto [init, result] : llvm::zip(forOp.getInitArgs(), loop.getResults()))
      q.map(init, result);
    ++numLoops;
    return success();
  }

  LogicalResult reverseIf(scf::IfOp ifOp, IRMapping &c, IRMapping &q) {
    if (ifOp.getNumResults() == 0 || !ifOp.elseBlock() ||
        !llvm::all_of(ifOp.getResultTypes(), isQuantumType))
      return ifOp.emitOpError() << "inside a quantum.adjoint region must yield only qubits or "
                                   "registers, from both branches";
    // The outer quantum values the branches consume become the results of
    // the reversed if.
    llvm::SetVector<Value> consumed;
    ifOp->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (isQuantumType(v.getType()) && !ifOp->isAncestor(v.getParentRegion()->getParentOp()))
          consumed.insert(v);
    });
    SmallVector<Type> types;
    for (Value v : consumed)
      types.push_back(v.getType());
    auto newIf = scf::IfOp::create(b, ifOp.getLoc(), types, c.lookupOrDefault(ifOp.getCondition()),
                                   /*withElseRegion=*/true);
    for (auto [from, to] :
         {std::pair{ifOp.thenBlock(), newIf.thenBlock()}, {ifOp.elseBlock(), newIf.elseBlock()}}) {
      OpBuilder::InsertionGuard guard(b);
      if (!to->empty())
        to->getTerminator()->erase();
      b.setInsertionPointToStart(to);
      IRMapping branchC = c, branchQ;
      for (auto [y, r] : llvm::zip(from->getTerminator()->getOperands(), ifOp.getResults())) {
        Value v = current(q, r, ifOp);
        if (!v)
          return failure();
        branchQ.map(y, v);
      }
      if (failed(reverse(*from, branchC, branchQ)))
        return failure();
      SmallVector<Value> yielded;
      for (Value v : consumed)
        if (!yielded.emplace_back(current(branchQ, v, ifOp)))
          return failure();
      scf::YieldOp::create(b, ifOp.getLoc(), yielded);
    }
    for (auto [v, r] : llvm::zip(consumed, newIf.getResults()))
      q.map(v, r);
    return success();
  }

  OpBuilder &b;
  uint64_t &numGates, &numLoops;
};

struct LowerAdjointPass : qshape::impl::QShapeLowerAdjointBase<LowerAdjointPass> {
  void runOnOperation() override {
    SmallVector<Operation *> regions;
    // Innermost first: an outer region then reverses plain gates.
    getOperation().walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (const QuantumOpInfo *info = lookupQuantumOp(op); info && info->id == QOp::Adjoint)
        regions.push_back(op);
    });
    uint64_t gates = 0, loops = 0;
    for (Operation *op : regions)
      if (failed(lower(op, gates, loops)))
        return signalPassFailure();
    numRegions += regions.size();
    numGates += gates;
    numLoops += loops;
  }

  LogicalResult lower(Operation *op, uint64_t &gates, uint64_t &loops) {
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": inverting the region at " << op->getLoc() << "\n");
    if (op->getNumRegions() != 1 || op->getRegion(0).empty() ||
        op->getNumResults() != op->getNumOperands())
      return op->emitOpError() << "is malformed: expected one region and one result per operand";
    Block &body = op->getRegion(0).front();
    Operation *yield = body.getTerminator();
    if (yield->getNumOperands() != op->getNumOperands() ||
        body.getNumArguments() != op->getNumOperands())
      return op->emitOpError() << "yields " << yield->getNumOperands() << " values and has "
                               << body.getNumArguments() << " arguments for "
                               << op->getNumOperands() << " operands";
    // The reversed circuit starts from what the region yields.
    IRMapping c, q;
    for (auto [y, operand] : llvm::zip(yield->getOperands(), op->getOperands())) {
      if (q.contains(y))
        return op->emitOpError() << "yields the same value twice";
      q.map(y, operand);
    }
    auto *scratch = new Block();
    OpBuilder b(op->getContext());
    b.setInsertionPointToStart(scratch);
    Reverser reverser(b, gates, loops);
    SmallVector<Value> results;
    if (succeeded(reverser.reverse(body, c, q))) {
      for (BlockArgument arg : body.getArguments()) {
        results.push_back(q.lookupOrNull(arg));
        if (!results.back()) {
          op->emitOpError() << "does not consume its argument #" << arg.getArgNumber()
                            << " in a way the adjoint lowering can follow";
          break;
        }
      }
    }
    if (results.size() != body.getNumArguments() || llvm::is_contained(results, Value())) {
      discardBlock(scratch);
      return failure();
    }
    replaceWithBuiltOps(op, scratch, results);
    return success();
  }
};

} // namespace
