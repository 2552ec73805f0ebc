//===- ToValueSemantics.cpp - qshape-to-value-semantics -------------------===//
//
// Catalyst's capture frontend emits `qref`, whose gates act in place on qubit
// references; qshape's passes, its simulator and its lowering work on the
// value-semantics `quantum` dialect. This pass rewrites one into the other,
// region by region, keeping a frame per region: the current `!quantum.reg`
// of each qref register, the qubits taken out of it at static wires (each
// with its current value), and the current value of each qubit allocated on
// its own. A qubit at a static wire is extracted at its first use, threaded
// through the gates, and inserted back when its register is needed whole
// (dealloc, a computational-basis observable on the register, a region that
// uses it, a dynamic index into it). A qubit at a dynamic index is extracted
// from the register made whole, and inserted back right after its op, since
// it may be any wire. Loops, branches, adjoint and control regions carry the
// registers and qubits they use as iter_args, results or region arguments.
//
// Ops are read by name, like everywhere in qshape. What the pass does not
// know (a call that passes qubit references, an unknown op on a reference,
// qref.operator) is a located error, and the pass fails; so is a use of a
// register or qubit after its deallocation.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/ToValueSemantics.h"

#include "qshape/Conversion/Passes.h"
#include "qshape/GateView/GateView.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace qshape {
#define GEN_PASS_DEF_QSHAPETOVALUESEMANTICS
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace qshape {
namespace {

bool isQRefType(Type t) { return t.getDialect().getNamespace() == "qref"; }
/// `!qref.bit`, whichever class the host has for it (qshape's or Catalyst's).
bool isQRefBit(Type t) {
  return isQRefType(t) && t == parseType("!qref.bit", t.getContext(), nullptr, true);
}

/// Where a qubit reference points: a wire of a qref register (static
/// `wire`, or a dynamic `index`), or a qubit allocated on its own (`root`).
struct Ref {
  Value reg, index, root;
  std::optional<int64_t> wire;
};

/// One region's view of the quantum state while it is rewritten.
struct Frame {
  llvm::MapVector<Value, Value> regs;                    // qref reg -> quantum reg
  llvm::MapVector<std::pair<Value, int64_t>, Value> out; // taken-out qubits
  llvm::MapVector<Value, Value> roots;                   // alloc_qb ref -> qubit
};

/// What a region uses of the state outside it: registers it needs whole
/// (a dynamic index, a register observable, a dealloc), qubits at static
/// wires of the others, and qubits allocated on their own. A region carries
/// exactly these, as Catalyst's conversion does: a loop over one wire
/// carries that qubit, not its register.
struct Carried {
  SmallVector<Value> regs;
  SmallVector<std::pair<Value, int64_t>> wires;
  SmallVector<Value> roots;
  size_t size() const { return regs.size() + wires.size() + roots.size(); }
};

/// A function that takes qubit references (a subroutine), as its callers
/// see it after the conversion: its arguments that are not references,
/// then the state it uses of its caller's, which it also returns after its
/// own results. The state is read off the qref body, as Catalyst's
/// conversion does: a register argument used whole (a dynamic index, a call,
/// a dealloc), else the static wires it reads of it; and each qubit
/// argument.
struct Subroutine {
  SmallVector<unsigned> regs;                      // argument numbers
  SmallVector<std::pair<unsigned, int64_t>> wires; // (argument number, wire)
  SmallVector<unsigned> bits;                      // argument numbers
  size_t size() const { return regs.size() + wires.size() + bits.size(); }
  static FailureOr<Subroutine> of(func::FuncOp func);
};

class Converter {
public:
  explicit Converter(const llvm::DenseMap<StringAttr, Subroutine> &subroutines)
      : subroutines(subroutines) {}
  LogicalResult convertBlock(Block &block, Frame &frame);
  /// Converts the body of subroutine `func` and gives it its new signature.
  LogicalResult convertSubroutine(func::FuncOp func, const Subroutine &sub);
  SmallVector<Operation *> dead;

private:
  FailureOr<Ref> refOf(Value bit, Operation *user);
  Value take(OpBuilder &b, Location loc, Frame &f, const Ref &r);
  void put(Frame &f, const Ref &r, Value v);
  /// Inserts every qubit taken out of `reg` back into it.
  void flush(OpBuilder &b, Location loc, Frame &f, Value reg);
  void flushAll(OpBuilder &b, Location loc, Frame &f);
  LogicalResult convertOp(Operation *op, Frame &f);
  LogicalResult convertQubitOp(Operation *op, Frame &f);
  LogicalResult convertFor(scf::ForOp op, Frame &f);
  LogicalResult convertWhile(scf::WhileOp op, Frame &f);
  LogicalResult convertIf(scf::IfOp op, Frame &f);
  LogicalResult convertDealloc(Operation *op, Frame &f);
  LogicalResult convertCall(func::CallOp call, const Subroutine &sub, Frame &f);
  /// An error at `user` if `c` names a register or qubit `f` does not hold:
  /// deallocated before (a use after free), or not allocated here.
  LogicalResult checkHeld(Operation *user, const Carried &c, const Frame &f);
  LogicalResult notHeld(Operation *user, Value ref);
  LogicalResult convertRegionOp(Operation *op, Frame &f);
  /// What the regions of `op` use of the state outside them, all held by
  /// `f`.
  FailureOr<Carried> usedState(Operation *op, const Frame &f);
  /// The current values of `c` in `f` (whole registers flushed first).
  SmallVector<Value> carried(OpBuilder &b, Location loc, Frame &f, const Carried &c);
  /// A frame for a region of an op in `outer` whose carried state arrives
  /// as `args`.
  static Frame inner(const Frame &outer, const Carried &c, ValueRange args);
  static void assign(Frame &f, const Carried &c, ValueRange values);

  /// The deallocation of each register or qubit freed so far.
  llvm::DenseMap<Value, Operation *> freed;
  /// The size of each register allocated with a static one.
  llvm::DenseMap<Value, int64_t> sizes;
  /// Every subroutine of the module, by name.
  const llvm::DenseMap<StringAttr, Subroutine> &subroutines;
  /// The qubit arguments of the subroutine being converted: each is its own
  /// qubit, as one allocated on its own is.
  llvm::SmallPtrSet<Value, 4> qubitArgs;
};

FailureOr<Ref> Converter::refOf(Value bit, Operation *user) {
  Operation *def = bit.getDefiningOp();
  StringRef name = def ? def->getName().getStringRef() : "";
  if (name == "qref.alloc_qb" || qubitArgs.contains(bit))
    return Ref{{}, {}, bit, {}};
  if (name != "qref.get")
    return user->emitError("qshape-to-value-semantics: a qubit reference that does not come from "
                           "qref.get or qref.alloc_qb in this function is not supported; run "
                           "Catalyst's convert-to-value-semantics first"),
           failure();
  Ref r;
  r.reg = def->getOperand(0);
  if (auto attr = def->getAttrOfType<IntegerAttr>(kStaticIndexAttr)) {
    r.wire = attr.getInt();
  } else {
    APInt v;
    if (matchPattern(def->getOperand(1), m_ConstantInt(&v)) && !v.isNegative())
      r.wire = v.getSExtValue();
    else
      r.index = def->getOperand(1);
  }
  auto size = sizes.find(r.reg);
  if (r.wire && size != sizes.end() && *r.wire >= size->second)
    return def->emitError("qshape-to-value-semantics: this qref.get reads wire ")
           << *r.wire << " of a register of " << size->second << " qubits";
  return r;
}

Value Converter::take(OpBuilder &b, Location loc, Frame &f, const Ref &r) {
  if (r.root)
    return f.roots.lookup(r.root);
  if (r.index)
    return buildExtract(b, loc, f.regs.lookup(r.reg), IndexSpec::ofDynamic(r.index))->getResult(0);
  Value &q = f.out[{r.reg, *r.wire}];
  if (!q)
    q = buildExtract(b, loc, f.regs.lookup(r.reg), IndexSpec::ofStatic(*r.wire))->getResult(0);
  return q;
}

void Converter::put(Frame &f, const Ref &r, Value v) {
  if (r.root)
    f.roots[r.root] = v;
  else if (r.wire)
    f.out[{r.reg, *r.wire}] = v;
}

void Converter::flush(OpBuilder &b, Location loc, Frame &f, Value reg) {
  SmallVector<std::pair<Value, int64_t>> done;
  for (auto &[key, qubit] : f.out)
    if (key.first == reg) {
      f.regs[reg] =
          buildInsert(b, loc, f.regs[reg], IndexSpec::ofStatic(key.second), qubit)->getResult(0);
      done.push_back(key);
    }
  for (auto key : done)
    f.out.erase(key);
}

void Converter::flushAll(OpBuilder &b, Location loc, Frame &f) {
  for (auto &[reg, current] : llvm::make_early_inc_range(f.regs))
    flush(b, loc, f, reg);
}

/// The quantum op for a qref op on qubits: same name in `quantum`, same
/// attributes and operand segments, one `!quantum.bit` result per qubit
/// operand, in the order of the operands (targets, then controls).
static Operation *buildQuantumTwin(OpBuilder &b, Operation *op, ValueRange operands,
                                   unsigned numQubits) {
  MLIRContext *ctx = op->getContext();
  OperationState state(op->getLoc(), ("quantum." + op->getName().stripDialect()).str());
  state.addOperands(operands);
  for (NamedAttribute na : op->getAttrDictionary())
    state.addAttribute(na.getName(), na.getValue());
  StringRef name = op->getName().stripDialect();
  if (name == "measure")
    state.addTypes(IntegerType::get(ctx, 1));
  state.addTypes(SmallVector<Type>(
      name == "namedobs" || name == "hermitian" || name == "compbasis" ? 0 : numQubits,
      getQubitType(ctx)));
  state.addTypes(TypeRange(op->getResultTypes()).drop_front(name == "measure" ? 1 : 0));
  // Gates with controls: targets and controls are two result segments.
  if (auto segs = op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
      segs && segs.size() == 4)
    state.addAttribute("resultSegmentSizes", b.getDenseI32ArrayAttr({segs[1], segs[2]}));
  return b.create(state);
}

LogicalResult Converter::convertQubitOp(Operation *op, Frame &f) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<std::optional<Ref>> refs;
  for (Value v : op->getOperands()) {
    if (!isQRefBit(v.getType())) {
      refs.push_back(std::nullopt);
      continue;
    }
    FailureOr<Ref> r = refOf(v, op);
    if (failed(r))
      return failure();
    if (r->root ? !f.roots.count(r->root) : !f.regs.count(r->reg))
      return notHeld(op, r->root ? r->root : r->reg);
    refs.push_back(r);
  }
  // A dynamic index may name any wire: its register is made whole first.
  for (auto &r : refs)
    if (r && r->index)
      flush(b, loc, f, r->reg);
  SmallVector<Value> operands;
  unsigned numQubits = 0;
  for (auto [v, r] : llvm::zip(op->getOperands(), refs)) {
    operands.push_back(r ? take(b, loc, f, *r) : v);
    numQubits += r.has_value();
  }
  Operation *twin = buildQuantumTwin(b, op, operands, numQubits);
  StringRef name = op->getName().stripDialect();
  bool observes = name == "namedobs" || name == "hermitian" || name == "compbasis";
  unsigned first = name == "measure" ? 1 : 0, k = 0;
  for (auto [operand, r] : llvm::zip(operands, refs)) {
    if (!r)
      continue;
    Value now = observes ? operand : twin->getResult(first + k++);
    if (r->index) // back at its wire at once
      f.regs[r->reg] =
          buildInsert(b, loc, f.regs[r->reg], IndexSpec::ofDynamic(r->index), now)->getResult(0);
    else
      put(f, *r, now);
  }
  for (auto [old, result] : llvm::zip(
           op->getResults(), observes ? twin->getResults() : twin->getResults().take_front(first)))
    old.replaceAllUsesWith(result);
  dead.push_back(op);
  return success();
}

FailureOr<Carried> Converter::usedState(Operation *op, const Frame &f) {
  llvm::SetVector<Value> whole, roots;
  llvm::SetVector<std::pair<Value, int64_t>> wires;
  WalkResult w = op->walk([&](Operation *inner) {
    if (inner == op) // its own operands (qref.ctrl's controls) are not carried
      return WalkResult::advance();
    for (Value v : inner->getOperands()) {
      if (!isQRefType(v.getType()) || op->isAncestor(v.getParentRegion()->getParentOp()))
        continue;
      if (!isQRefBit(v.getType())) {
        // A register: a get names a wire (or a dynamic index) of it; any
        // other use needs it whole.
        FailureOr<Ref> ref = inner->getName().getStringRef() == "qref.get"
                                 ? refOf(inner->getResult(0), inner)
                                 : FailureOr<Ref>(failure());
        if (succeeded(ref) && ref->wire)
          wires.insert({v, *ref->wire});
        else
          whole.insert(v);
        continue;
      }
      FailureOr<Ref> ref = refOf(v, inner);
      if (failed(ref))
        return WalkResult::interrupt();
      if (ref->root)
        roots.insert(ref->root);
      else if (ref->wire)
        wires.insert({ref->reg, *ref->wire});
      else
        whole.insert(ref->reg);
    }
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  Carried c;
  c.regs.assign(whole.begin(), whole.end());
  for (auto key : wires)
    if (!whole.contains(key.first))
      c.wires.push_back(key);
  // Each register's wires in ascending order, not in the order the region
  // happens to name them: reordering two independent gets (as
  // qshape-canonicalize may) must not change the carried values, and so the
  // fingerprint.
  llvm::DenseMap<Value, unsigned> regRank;
  for (auto &key : c.wires)
    regRank.try_emplace(key.first, regRank.size());
  // (Elements that compare equal are equal pairs: no stable sort needed.)
  llvm::sort(c.wires, [&](const auto &x, const auto &y) {
    return std::make_pair(regRank[x.first], x.second) < std::make_pair(regRank[y.first], y.second);
  });
  c.roots.assign(roots.begin(), roots.end());
  if (failed(checkHeld(op, c, f)))
    return failure();
  return c;
}

LogicalResult Converter::notHeld(Operation *user, Value ref) {
  if (Operation *dealloc = freed.lookup(ref)) {
    InFlightDiagnostic d = user->emitError(
        "qshape-to-value-semantics: a use of a qubit reference after its deallocation");
    d.attachNote(dealloc->getLoc()) << "deallocated here";
    return d;
  }
  return user->emitError("qshape-to-value-semantics: this qubit reference is not allocated in "
                         "this function");
}

LogicalResult Converter::checkHeld(Operation *user, const Carried &c, const Frame &f) {
  for (Value reg : c.regs)
    if (!f.regs.count(reg))
      return notHeld(user, reg);
  for (auto [reg, wire] : c.wires)
    if (!f.regs.count(reg))
      return notHeld(user, reg);
  for (Value root : c.roots)
    if (!f.roots.count(root))
      return notHeld(user, root);
  return success();
}

SmallVector<Value> Converter::carried(OpBuilder &b, Location loc, Frame &f, const Carried &c) {
  SmallVector<Value> values;
  for (Value reg : c.regs) {
    flush(b, loc, f, reg);
    values.push_back(f.regs.lookup(reg));
  }
  for (auto [reg, wire] : c.wires)
    values.push_back(take(b, loc, f, Ref{reg, {}, {}, wire}));
  for (Value root : c.roots)
    values.push_back(f.roots.lookup(root));
  return values;
}

void Converter::assign(Frame &f, const Carried &c, ValueRange values) {
  unsigned i = 0;
  for (Value reg : c.regs)
    f.regs[reg] = values[i++];
  for (auto key : c.wires)
    f.out[key] = values[i++];
  for (Value root : c.roots)
    f.roots[root] = values[i++];
}

Frame Converter::inner(const Frame &outer, const Carried &c, ValueRange args) {
  Frame f;
  // The registers of carried wires stay named (never read inside: every
  // wire the region uses is carried).
  for (auto [reg, wire] : c.wires)
    f.regs[reg] = outer.regs.lookup(reg);
  assign(f, c, args);
  return f;
}

LogicalResult Converter::convertFor(scf::ForOp op, Frame &f) {
  FailureOr<Carried> c = usedState(op, f);
  if (failed(c))
    return failure();
  OpBuilder b(op);
  SmallVector<Value> inits(op.getInitArgs());
  SmallVector<Value> state = carried(b, op.getLoc(), f, *c);
  inits.append(state);
  auto loop =
      scf::ForOp::create(b, op.getLoc(), op.getLowerBound(), op.getUpperBound(), op.getStep(),
                         inits, [](OpBuilder &, Location, Value, ValueRange) {});
  Block *body = loop.getBody();
  for (auto [old, now] : llvm::zip(op.getBody()->getArguments(), body->getArguments()))
    old.replaceAllUsesWith(now);
  body->getOperations().splice(body->end(), op.getBody()->getOperations());
  unsigned n = op.getNumResults();
  for (auto [old, now] : llvm::zip(op.getResults(), loop.getResults().take_front(n)))
    old.replaceAllUsesWith(now);
  op->erase();
  Frame in = inner(f, *c, loop.getRegionIterArgs().drop_front(n));
  if (failed(convertBlock(*body, in)))
    return failure();
  Operation *yield = body->getTerminator();
  OpBuilder end(yield);
  yield->insertOperands(yield->getNumOperands(), carried(end, yield->getLoc(), in, *c));
  assign(f, *c, loop.getResults().drop_front(n));
  return success();
}

/// The state goes around as extra values: after the `before` region's own
/// arguments, forwarded by scf.condition after its own, and yielded by the
/// `after` region after its own.
LogicalResult Converter::convertWhile(scf::WhileOp op, Frame &f) {
  FailureOr<Carried> c = usedState(op, f);
  if (failed(c))
    return failure();
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> inits(op.getInits());
  unsigned numInits = inits.size(), n = op.getNumResults();
  inits.append(carried(b, loc, f, *c));
  SmallVector<Type> types(op.getResultTypes());
  for (Value v : ValueRange(inits).drop_front(numInits))
    types.push_back(v.getType());
  auto loop = scf::WhileOp::create(b, loc, types, inits);
  for (auto [from, to] : {std::pair(&op.getBefore(), &loop.getBefore()),
                          std::pair(&op.getAfter(), &loop.getAfter())}) {
    to->takeBody(*from);
    Block &block = to->front();
    SmallVector<Value> args;
    for (Value v : ValueRange(inits).drop_front(numInits))
      args.push_back(block.addArgument(v.getType(), loc));
    Frame in = inner(f, *c, args);
    if (failed(convertBlock(block, in)))
      return failure();
    Operation *end = block.getTerminator();
    OpBuilder atEnd(end);
    end->insertOperands(end->getNumOperands(), carried(atEnd, end->getLoc(), in, *c));
  }
  for (auto [old, now] : llvm::zip(op.getResults(), loop.getResults().take_front(n)))
    old.replaceAllUsesWith(now);
  op->erase();
  assign(f, *c, loop.getResults().drop_front(n));
  return success();
}

LogicalResult Converter::convertIf(scf::IfOp op, Frame &f) {
  FailureOr<Carried> c = usedState(op, f);
  if (failed(c))
    return failure();
  OpBuilder b(op);
  SmallVector<Value> state = carried(b, op.getLoc(), f, *c);
  SmallVector<Type> types(op.getResultTypes());
  for (Value v : state)
    types.push_back(v.getType());
  auto branch = scf::IfOp::create(b, op.getLoc(), types, op.getCondition(),
                                  /*withElseRegion=*/false);
  branch.getThenRegion().takeBody(op.getThenRegion());
  if (!op.getElseRegion().empty()) {
    branch.getElseRegion().takeBody(op.getElseRegion());
  } else {
    OpBuilder e = OpBuilder::atBlockEnd(&branch.getElseRegion().emplaceBlock());
    scf::YieldOp::create(e, op.getLoc());
  }
  unsigned n = op.getNumResults();
  for (auto [old, now] : llvm::zip(op.getResults(), branch.getResults().take_front(n)))
    old.replaceAllUsesWith(now);
  op->erase();
  for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
    Frame in = inner(f, *c, state);
    Block &block = region->front();
    if (failed(convertBlock(block, in)))
      return failure();
    Operation *yield = block.getTerminator();
    OpBuilder end(yield);
    yield->insertOperands(yield->getNumOperands(), carried(end, yield->getLoc(), in, *c));
  }
  assign(f, *c, branch.getResults().drop_front(n));
  return success();
}

/// qref.adjoint and qref.ctrl: a quantum op of the same name whose region
/// takes the state it uses as arguments and yields it.
LogicalResult Converter::convertRegionOp(Operation *op, Frame &f) {
  FailureOr<Carried> c = usedState(op, f);
  if (failed(c))
    return failure();
  bool ctrl = op->getName().stripDialect() == "ctrl";
  OpBuilder b(op);
  Location loc = op->getLoc();
  // Controls are taken before the state is carried: the body does not act
  // on them (qref.ctrl's verifier), so they are not part of it.
  SmallVector<Ref> ctrlRefs;
  SmallVector<Value> ctrls, values;
  if (ctrl) {
    auto segs = op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
    for (Value v : op->getOperands().take_front(segs[0])) {
      FailureOr<Ref> r = refOf(v, op);
      if (failed(r) || r->index)
        return op->emitError("qshape-to-value-semantics: a control qubit at a dynamic index is "
                             "not supported"),
               failure();
      ctrlRefs.push_back(*r);
      // A control whose register the body uses is taken from it after the
      // flush below, so that the register goes in whole but for it.
    }
    values.append(op->getOperands().begin() + segs[0], op->getOperands().end());
  }
  SmallVector<Value> state = carried(b, loc, f, *c);
  for (const Ref &r : ctrlRefs)
    ctrls.push_back(take(b, loc, f, r));
  SmallVector<Type> types;
  for (Value v : state)
    types.push_back(v.getType());
  OperationState st(loc, ("quantum." + op->getName().stripDialect()).str());
  st.addOperands(ctrls);
  st.addOperands(values);
  st.addOperands(state);
  st.addTypes(SmallVector<Type>(ctrls.size(), getQubitType(op->getContext())));
  st.addTypes(types);
  if (ctrl) {
    st.addAttribute("operandSegmentSizes",
                    b.getDenseI32ArrayAttr(
                        {int32_t(ctrls.size()), int32_t(values.size()), int32_t(state.size())}));
    st.addAttribute("resultSegmentSizes",
                    b.getDenseI32ArrayAttr({int32_t(ctrls.size()), int32_t(state.size())}));
  }
  Region *region = st.addRegion();
  auto *body = new Block();
  region->push_back(body);
  for (Value v : state)
    body->addArgument(v.getType(), loc);
  body->getOperations().splice(body->end(), op->getRegion(0).front().getOperations());
  Operation *twin = b.create(st);
  Frame in = inner(f, *c, body->getArguments());
  if (failed(convertBlock(*body, in)))
    return failure();
  OpBuilder end = OpBuilder::atBlockEnd(body);
  SmallVector<Value> out = carried(end, loc, in, *c);
  OperationState y(loc, "quantum.yield");
  y.addOperands(out);
  end.create(y);
  for (auto [r, v] : llvm::zip(ctrlRefs, twin->getResults().take_front(ctrls.size())))
    put(f, r, v);
  assign(f, *c, twin->getResults().drop_front(ctrls.size()));
  dead.push_back(op);
  return success();
}

FailureOr<Subroutine> Subroutine::of(func::FuncOp func) {
  Subroutine sub;
  llvm::SetVector<unsigned> whole;
  llvm::SetVector<std::pair<unsigned, int64_t>> wires;
  for (BlockArgument arg : func.getArguments()) {
    if (!isQRefType(arg.getType()))
      continue;
    if (isQRefBit(arg.getType())) {
      sub.bits.push_back(arg.getArgNumber());
      continue;
    }
    for (Operation *user : arg.getUsers()) {
      auto wire = user->getAttrOfType<IntegerAttr>(kStaticIndexAttr);
      if (user->getName().getStringRef() == "qref.get" && wire)
        wires.insert({arg.getArgNumber(), wire.getInt()});
      else
        whole.insert(arg.getArgNumber());
    }
  }
  sub.regs.assign(whole.begin(), whole.end());
  for (auto key : wires)
    if (!whole.contains(key.first))
      sub.wires.push_back(key);
  // In argument and wire order, not in the use lists' order.
  llvm::sort(sub.regs);
  llvm::sort(sub.wires);
  if (llvm::any_of(func.getResultTypes(), isQRefType))
    return func.emitError("qshape-to-value-semantics: functions that return qubit references "
                          "are not supported");
  return sub;
}

LogicalResult Converter::convertSubroutine(func::FuncOp func, const Subroutine &sub) {
  Block &entry = func.getBody().front();
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();
  Frame frame;
  for (unsigned arg : sub.regs)
    frame.regs[entry.getArgument(arg)] = entry.addArgument(getQuregType(ctx), loc);
  for (auto [arg, wire] : sub.wires) {
    frame.regs.try_emplace(entry.getArgument(arg), Value()); // named, never read whole
    frame.out[{entry.getArgument(arg), wire}] = entry.addArgument(getQubitType(ctx), loc);
  }
  for (unsigned arg : sub.bits) {
    qubitArgs.insert(entry.getArgument(arg));
    frame.roots[entry.getArgument(arg)] = entry.addArgument(getQubitType(ctx), loc);
  }
  if (failed(convertBlock(entry, frame)))
    return failure();
  // Every return hands the state back, after the function's own results.
  Carried state;
  for (unsigned arg : sub.regs)
    state.regs.push_back(entry.getArgument(arg));
  for (auto [arg, wire] : sub.wires)
    state.wires.push_back({entry.getArgument(arg), wire});
  for (unsigned arg : sub.bits)
    state.roots.push_back(entry.getArgument(arg));
  Operation *ret = entry.getTerminator();
  OpBuilder b(ret);
  ret->insertOperands(ret->getNumOperands(), carried(b, ret->getLoc(), frame, state));
  return success();
}

LogicalResult Converter::convertCall(func::CallOp call, const Subroutine &sub, Frame &f) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  ValueRange operands = call.getOperands();
  SmallVector<Value> values;
  SmallVector<Ref> refs; // of the qubit arguments, in the caller
  llvm::SmallPtrSet<Value, 4> regsPassed;
  for (unsigned arg : sub.regs) {
    Value reg = operands[arg];
    if (!f.regs.count(reg))
      return notHeld(call, reg);
    regsPassed.insert(reg);
    flush(b, loc, f, reg);
    values.push_back(f.regs.lookup(reg));
  }
  for (auto [arg, wire] : sub.wires) {
    if (!f.regs.count(operands[arg]))
      return notHeld(call, operands[arg]);
    values.push_back(take(b, loc, f, Ref{operands[arg], {}, {}, wire}));
  }
  for (unsigned arg : sub.bits) {
    FailureOr<Ref> r = refOf(operands[arg], call);
    if (failed(r))
      return failure();
    if (r->root ? !f.roots.count(r->root) : !f.regs.count(r->reg))
      return notHeld(call, r->root ? r->root : r->reg);
    if (!r->root && regsPassed.contains(r->reg))
      return call.emitError("qshape-to-value-semantics: a call that passes a register and one "
                            "of its qubits is not supported");
    if (r->index)
      flush(b, loc, f, r->reg);
    refs.push_back(*r);
    values.push_back(take(b, loc, f, *r));
  }
  SmallVector<Value> args;
  for (Value v : operands)
    if (!isQRefType(v.getType()))
      args.push_back(v);
  args.append(values);
  SmallVector<Type> types(call.getResultTypes());
  for (Value v : values)
    types.push_back(v.getType());
  auto twin = func::CallOp::create(b, loc, call.getCalleeAttr(), types, args);
  unsigned n = call.getNumResults(), k = n;
  for (auto [old, now] : llvm::zip(call.getResults(), twin.getResults().take_front(n)))
    old.replaceAllUsesWith(now);
  for (unsigned arg : sub.regs)
    f.regs[operands[arg]] = twin.getResult(k++);
  for (auto [arg, wire] : sub.wires)
    f.out[{operands[arg], wire}] = twin.getResult(k++);
  for (const Ref &r : refs) {
    Value now = twin.getResult(k++);
    if (r.index)
      f.regs[r.reg] =
          buildInsert(b, loc, f.regs[r.reg], IndexSpec::ofDynamic(r.index), now)->getResult(0);
    else
      put(f, r, now);
  }
  dead.push_back(call);
  return success();
}

LogicalResult Converter::convertDealloc(Operation *op, Frame &f) {
  OpBuilder b(op);
  Value ref = op->getOperand(0);
  bool reg = op->getName().getStringRef() == "qref.dealloc";
  if (reg ? !f.regs.count(ref) : !f.roots.count(ref))
    return notHeld(op, ref);
  // A region carries what it uses back out: one that frees it cannot.
  if (ref.getParentBlock() != op->getBlock())
    return op->emitError("qshape-to-value-semantics: a register or qubit deallocated in a region "
                         "other than the one that allocated it is not supported");
  if (reg)
    flush(b, op->getLoc(), f, ref);
  OperationState st(op->getLoc(), ("quantum." + op->getName().stripDialect()).str());
  st.addOperands(reg ? f.regs.lookup(ref) : f.roots.lookup(ref));
  b.create(st);
  if (reg)
    f.regs.erase(ref);
  else
    f.roots.erase(ref);
  freed[ref] = op;
  dead.push_back(op);
  return success();
}

LogicalResult Converter::convertOp(Operation *op, Frame &f) {
  StringRef name = op->getName().getStringRef();
  OpBuilder b(op);
  if (name == "qref.alloc") {
    OperationState st(op->getLoc(), "quantum.alloc");
    st.addOperands(op->getOperands());
    st.addAttributes(op->getAttrDictionary().getValue());
    st.addTypes(getQuregType(op->getContext()));
    f.regs[op->getResult(0)] = b.create(st)->getResult(0);
    if (auto n = op->getAttrOfType<IntegerAttr>("nqubits_attr"))
      sizes[op->getResult(0)] = n.getInt();
    dead.push_back(op);
    return success();
  }
  if (name == "qref.alloc_qb") {
    OperationState st(op->getLoc(), "quantum.alloc_qb");
    st.addTypes(getQubitType(op->getContext()));
    f.roots[op->getResult(0)] = b.create(st)->getResult(0);
    dead.push_back(op);
    return success();
  }
  if (name == "qref.get") {
    dead.push_back(op); // read where a gate uses it
    return success();
  }
  if (name == "qref.dealloc" || name == "qref.dealloc_qb")
    return convertDealloc(op, f);
  if (name == "qref.compbasis" && op->getNumOperands() &&
      !isQRefBit(op->getOperand(op->getNumOperands() - 1).getType())) {
    // On the whole register.
    Value ref = op->getOperands().back();
    flush(b, op->getLoc(), f, ref);
    OperationState st(op->getLoc(), "quantum.compbasis");
    st.addOperands(f.regs.lookup(ref));
    st.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr({0, 1}));
    st.addTypes(op->getResultTypes());
    op->getResult(0).replaceAllUsesWith(b.create(st)->getResult(0));
    dead.push_back(op);
    return success();
  }
  if (name == "qref.adjoint" || name == "qref.ctrl")
    return convertRegionOp(op, f);
  if (name == "qref.operator")
    return op->emitError("qshape-to-value-semantics: qref.operator is not supported yet; run "
                         "Catalyst's convert-to-value-semantics first");
  if (isQRefOp(op))
    return convertQubitOp(op, f);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto sub = subroutines.find(call.getCalleeAttr().getAttr());
    if (sub != subroutines.end())
      return convertCall(call, sub->second, f);
  }
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return convertFor(loop, f);
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return convertWhile(loop, f);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return convertIf(branch, f);
  // Anything else may not touch a reference, here or in its regions.
  WalkResult w = op->walk([&](Operation *inner) {
    bool touches = isQRefOp(inner) || llvm::any_of(inner->getOperandTypes(), isQRefType) ||
                   llvm::any_of(inner->getResultTypes(), isQRefType);
    return touches ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (w.wasInterrupted())
    return op->emitError("qshape-to-value-semantics: '")
           << name << "' uses qubit references, which this pass does not convert yet";
  return success();
}

LogicalResult Converter::convertBlock(Block &block, Frame &frame) {
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(convertOp(&op, frame)))
      return failure();
  return success();
}

/// Converts every function of `module` that uses qubit references: the
/// subroutines' signatures change (Subroutine), and their calls with them.
LogicalResult convertFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  llvm::DenseMap<StringAttr, Subroutine> subroutines;
  WalkResult w = module.walk([&](func::FuncOp func) {
    bool uses = func.walk([&](Operation *op) {
                      return isQRefOp(op) ? WalkResult::interrupt() : WalkResult::advance();
                    })
                    .wasInterrupted();
    bool takes = llvm::any_of(func.getArgumentTypes(), isQRefType) ||
                 llvm::any_of(func.getResultTypes(), isQRefType);
    if (takes) {
      if (func.isExternal())
        return func.emitError("qshape-to-value-semantics: a declaration that takes qubit "
                              "references cannot be converted"),
               WalkResult::interrupt();
      FailureOr<Subroutine> sub = Subroutine::of(func);
      if (failed(sub))
        return WalkResult::interrupt();
      subroutines[func.getSymNameAttr()] = std::move(*sub);
    }
    if (uses || takes)
      funcs.push_back(func);
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  for (func::FuncOp func : funcs) {
    // In place: a failure fails the pass, and the tools then write nothing.
    Converter converter(subroutines);
    auto sub = subroutines.find(func.getSymNameAttr());
    LogicalResult converted = failure();
    if (func.getBody().getBlocks().size() == 1) {
      if (sub != subroutines.end()) {
        converted = converter.convertSubroutine(func, sub->second);
      } else {
        Frame frame;
        converted = converter.convertBlock(func.getBody().front(), frame);
      }
    }
    if (failed(converted))
      return func.emitError("qshape-to-value-semantics: this function could not be converted"),
             failure();
    for (Operation *op : llvm::reverse(converter.dead)) {
      op->dropAllUses();
      op->erase();
    }
    if (sub == subroutines.end())
      continue;
    // The references go from the signature; the state is there instead.
    Block &entry = func.getBody().front();
    llvm::BitVector refs(entry.getNumArguments());
    for (BlockArgument arg : entry.getArguments())
      refs[arg.getArgNumber()] = isQRefType(arg.getType());
    entry.eraseArguments(refs);
    func.setFunctionType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                           entry.getTerminator()->getOperandTypes()));
  }
  return success();
}

struct QShapeToValueSemanticsPass : impl::QShapeToValueSemanticsBase<QShapeToValueSemanticsPass> {
  void runOnOperation() override {
    if (failed(convertFunctions(getOperation())))
      signalPassFailure();
  }
};

} // namespace
} // namespace qshape

namespace qshape {

bool holdsQRef(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return isQRefOp(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult convertQRefInput(ModuleOp module) {
  return holdsQRef(module) ? convertFunctions(module) : success();
}

FailureOr<OwningOpRef<ModuleOp>> valueSemanticsCopy(ModuleOp module) {
  OwningOpRef<ModuleOp> copy;
  if (!holdsQRef(module))
    return copy;
  copy = module.clone();
  if (failed(convertFunctions(*copy)))
    return failure();
  return copy;
}

} // namespace qshape
