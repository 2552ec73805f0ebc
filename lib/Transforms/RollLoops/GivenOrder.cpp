//===- GivenOrder.cpp - qshape-roll-loops: when to roll in the given order ===//

#include "GivenOrder.h"

#include "Support.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace qshape::roll {

/// A gate's token with its wires and angles left out: its op, its gate
/// name, adjointness and operand and result counts.
static uint64_t gateToken(const GateView &g) {
  Operation *op = g.getOperation();
  return llvm::hash_combine(op->getName().getAsOpaquePointer(), g.getGateName(), g.isAdjoint(),
                            op->getNumOperands(), op->getNumResults());
}

/// The gates directly in the body of the largest loop the canonical order
/// made at the top of `rolled` (0 when there is none).
static unsigned largestRolledBody(Operation *rolled) {
  unsigned most = 0;
  for (Region &region : rolled->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (!isa<scf::ForOp>(op) || !op.hasAttr(kRolledMarker))
          continue;
        unsigned gates = 0;
        for (Operation &inner : cast<scf::ForOp>(op).getBody()->getOperations())
          gates += GateView::get(&inner).has_value();
        most = std::max(most, gates);
      }
  return most;
}

unsigned gatesLeftUnrolled(Operation *rolled) {
  unsigned left = 0;
  rolled->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<scf::ForOp>(op) && op->hasAttr(kRolledMarker))
      return WalkResult::skip();
    left += GateView::get(op).has_value();
    return WalkResult::advance();
  });
  return left;
}

bool givenOrderRepeatsFiner(Operation *func, Operation *rolled) {
  unsigned body = largestRolledBody(rolled);
  if (body < 2)
    return false;
  llvm::SmallVector<uint64_t> gates;
  for (Region &region : func->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        if (std::optional<GateView> g = GateView::get(&op))
          gates.push_back(gateToken(*g));
  // Only the places where the gate changes are compared: a period must
  // carry each change to the same change. (Inside a long run of one gate,
  // a layer of Hadamards, every shift matches.)
  llvm::SmallVector<size_t> changes;
  for (size_t i = 0; i + 1 < gates.size(); ++i)
    if (gates[i] != gates[i + 1])
      changes.push_back(i);
  for (unsigned p = 1; p < body; ++p) {
    if (body % p)
      continue;
    size_t same = 0, compared = 0;
    for (size_t i : changes) {
      if (i + p + 1 >= gates.size())
        break;
      ++compared;
      same += gates[i] == gates[i + p] && gates[i + 1] == gates[i + p + 1];
    }
    if (compared >= 4 && 10 * same >= 9 * compared)
      return true;
  }
  return false;
}

} // namespace qshape::roll
