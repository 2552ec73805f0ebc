//===- FunctionCopy.cpp - qshape-roll-loops: the copy an attempt rolls ----===//

#include "FunctionCopy.h"

#include "GivenOrder.h"
#include "Support.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/RegionKindInterface.h"

using namespace mlir;

namespace qshape::roll {

namespace {

/// Copies one block of SSA code op by op. Region::cloneInto creates every
/// op without operands and sets them afterwards (a later block may define
/// what an earlier one uses), which allocates each op's operand storage
/// twice, and Operation::clone maps every op and value in DenseMaps: on a
/// function of 10^6 ops those maps, and sizing them, were a third of the
/// roll. In one block of SSA code every operand is defined before its
/// user, and most are read soon after (RecentValueMap).
class BlockCopier {
public:
  BlockCopier(Block &source, Block &dest, BlockOrder *asGiven)
      : source(source), dest(dest), asGiven(asGiven) {}
  /// Copies the block; returns the ops copied, nested ones included.
  uint64_t run();

private:
  Value copyOf(Value v);
  Operation *copyOp(Operation &op);
  void place(Operation *copy);

  Block &source, &dest;
  BlockOrder *asGiven;
  RecentValueMap<Value> copies;
  Operation *lastConstant = nullptr; ///< of those moved to the start
  std::vector<Operation *> constants, others;
};

} // namespace

/// The copy of `v` (`v` itself when it is defined outside the block), read
/// by its one user (then forgotten) or by one of several.
Value BlockCopier::copyOf(Value v) {
  std::optional<Value> copy = v.hasOneUse() ? copies.take(v) : copies.lookup(v);
  return copy ? *copy : v;
}

/// A copy of `op` whose operands are the copies of its own. An op with
/// regions is cloned whole, through an IRMapping of the values it and its
/// regions read from outside it.
Operation *BlockCopier::copyOp(Operation &op) {
  if (op.getNumRegions()) {
    IRMapping mapper;
    for (Value v : op.getOperands())
      mapper.map(v, copyOf(v));
    for (Value v : capturedValues(&op))
      mapper.map(v, copyOf(v));
    return op.clone(mapper);
  }
  llvm::SmallVector<Value, 8> operands;
  for (Value v : op.getOperands())
    operands.push_back(copyOf(v));
  // What Operation::clone creates, without its map of every op and value.
  return Operation::create(op.getLoc(), op.getName(), op.getResultTypes(), operands,
                           op.getRawDictionaryAttrs(), op.getPropertiesStorage(), {}, 0);
}

/// Appends `copy`; in the given order, a constant goes after the constants
/// before it (hoistConstants), and the blocks of an op with regions are
/// hoisted and recorded before the block that holds them.
void BlockCopier::place(Operation *copy) {
  if (!asGiven) {
    dest.push_back(copy);
    return;
  }
  if (isConstant(copy)) {
    dest.getOperations().insert(
        lastConstant ? std::next(Block::iterator(lastConstant)) : dest.begin(), copy);
    lastConstant = copy;
    constants.push_back(copy);
    return;
  }
  dest.push_back(copy);
  others.push_back(copy);
  if (!copy->getNumRegions())
    return;
  hoistConstants(copy);
  BlockOrder inner = blocksAsGiven(copy);
  asGiven->blocks.append(inner.blocks);
  for (std::vector<Operation *> &ops : inner.ops)
    asGiven->ops.push_back(std::move(ops));
}

uint64_t BlockCopier::run() {
  for (BlockArgument arg : source.getArguments())
    copies.set(arg, dest.addArgument(arg.getType(), arg.getLoc()));
  uint64_t ops = 0;
  for (Operation &op : source) {
    Operation *copy = copyOp(op);
    place(copy);
    for (auto [result, copied] : llvm::zip(op.getResults(), copy->getResults()))
      copies.set(result, copied);
    ++ops;
    if (copy->getNumRegions())
      copy->walk([&](Operation *inner) { ops += inner != copy; });
  }
  if (asGiven) {
    asGiven->blocks.push_back(&dest);
    constants.insert(constants.end(), others.begin(), others.end());
    asGiven->ops.push_back(std::move(constants));
  }
  return ops;
}

/// Whether each region of `func` is one block of SSA code that does not
/// branch (to itself: cloneInto maps the block), which BlockCopier copies.
static bool copiesByBlock(Operation *func) {
  return llvm::all_of(func->getRegions(), [](Region &region) {
    return !mayBeGraphRegion(region) && region.hasOneBlock() &&
           (region.front().empty() || !region.front().back().getNumSuccessors());
  });
}

FunctionCopy copyFunction(Operation *func, BlockOrder *asGiven) {
  FunctionCopy copy;
  if (!copiesByBlock(func)) {
    copy.func = func->clone();
    copy.func->walk([&](Operation *op) { copy.ops += op != copy.func; });
    if (asGiven) {
      hoistConstants(copy.func);
      *asGiven = blocksAsGiven(copy.func);
    }
    return copy;
  }
  copy.func = func->cloneWithoutRegions();
  if (asGiven)
    *asGiven = BlockOrder();
  for (auto [from, to] : llvm::zip(func->getRegions(), copy.func->getRegions())) {
    to.push_back(new Block());
    copy.ops += BlockCopier(from.front(), to.front(), asGiven).run();
  }
  return copy;
}

BlockOrder blocksAsGiven(Operation *root) {
  BlockOrder order;
  root->walk([&](Block *block) {
    order.blocks.push_back(block);
    std::vector<Operation *> &ops = order.ops.emplace_back();
    for (Operation &op : *block)
      ops.push_back(&op);
  });
  return order;
}

} // namespace qshape::roll
