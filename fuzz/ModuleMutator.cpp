//===- ModuleMutator.cpp - structure-aware mutations of quantum modules ---===//
//
// libFuzzer's byte mutations rarely keep MLIR text parseable, so on their own
// they fuzz the parser and little else. These mutations edit the parsed IR
// and print it back, so every result parses and verifies and reaches the
// passes: they change what a circuit does (gate names, wires, order), make
// repeated structure for qshape-roll-loops (duplicated runs of gates), and
// put ops in the way that passes must treat as opaque (unregistered ops, calls
// with unknown effects, unknown gate names). Quantum ops are read by name
// through the gate view, as the passes read them.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <random>

using namespace mlir;

namespace qshape::fuzz {
namespace {

/// PennyLane gates by (float parameters, qubits), as Catalyst names them.
struct GateFamily {
  unsigned params, qubits;
  llvm::ArrayRef<llvm::StringLiteral> names;
};
constexpr llvm::StringLiteral G01[] = {"Identity", "PauliX", "PauliY", "PauliZ",
                                       "Hadamard", "S",      "T",      "SX"};
constexpr llvm::StringLiteral G11[] = {"RX", "RY", "RZ", "PhaseShift"};
constexpr llvm::StringLiteral G31[] = {"Rot"};
constexpr llvm::StringLiteral G02[] = {"CNOT", "CY", "CZ", "SWAP", "ISWAP"};
constexpr llvm::StringLiteral G12[] = {
    "CRX",     "CRY",     "CRZ",     "ControlledPhaseShift", "IsingXX",
    "IsingYY", "IsingZZ", "IsingXY", "SingleExcitation"};
constexpr llvm::StringLiteral G32[] = {"CRot"};
constexpr llvm::StringLiteral G03[] = {"Toffoli", "CSWAP"};
const GateFamily Families[] = {{0, 1, G01}, {1, 1, G11}, {3, 1, G31}, {0, 2, G02},
                               {1, 2, G12}, {3, 2, G32}, {0, 3, G03}};

class Mutator {
public:
  Mutator(ModuleOp module, uint64_t seed) : module(module), rng(seed) {
    module->walk([&](Operation *op) {
      if (op == module.getOperation())
        return;
      all.push_back(op);
      if (GateView::get(op))
        gates.push_back(op);
      if (op->getName().getStringRef() == "quantum.extract")
        extracts.push_back(op);
    });
  }

  /// Tries mutations in a random order until one applies; its name or null.
  const char *run() {
    using Fn = bool (Mutator::*)();
    struct Entry {
      const char *name;
      Fn fn;
    };
    Entry entries[] = {{"rename-gate", &Mutator::renameGate},
                       {"toggle-adjoint", &Mutator::toggleAdjoint},
                       {"swap-wires", &Mutator::swapWires},
                       {"change-wire", &Mutator::changeWire},
                       {"swap-adjacent", &Mutator::swapAdjacent},
                       {"duplicate-run", &Mutator::duplicateRun},
                       {"insert-unregistered", &Mutator::insertUnregistered},
                       {"insert-opaque-call", &Mutator::insertOpaqueCall},
                       {"insert-barrier", &Mutator::insertBarrier}};
    std::shuffle(std::begin(entries), std::end(entries), rng);
    for (const Entry &e : entries)
      if ((this->*e.fn)())
        return e.name;
    return nullptr;
  }

private:
  template <typename T> T &pick(llvm::SmallVectorImpl<T> &v) { return v[rng() % v.size()]; }
  bool chance(unsigned n) { return rng() % n == 0; }

  /// Another gate name of the same arity; now and then a name no simulator
  /// knows (passes must carry it through unchanged).
  bool renameGate() {
    llvm::SmallVector<Operation *> custom;
    for (Operation *g : gates)
      if (g->getName().getStringRef() == "quantum.custom")
        custom.push_back(g);
    if (custom.empty())
      return false;
    Operation *op = pick(custom);
    GateView gv = *GateView::get(op);
    std::string name = "FuzzUnknownGate";
    if (!chance(8))
      for (const GateFamily &f : Families)
        if (f.params == gv.getParams().size() && f.qubits == gv.getInQubits().size())
          name = f.names[rng() % f.names.size()].str();
    if (name == gv.getGateName())
      return false;
    op->setAttr("gate_name", StringAttr::get(op->getContext(), name));
    return true;
  }

  bool toggleAdjoint() {
    if (gates.empty())
      return false;
    Operation *op = pick(gates);
    if (op->getName().getStringRef() != "quantum.custom")
      return false;
    if (op->getAttr("adjoint"))
      op->removeAttr("adjoint");
    else
      op->setAttr("adjoint", UnitAttr::get(op->getContext()));
    return true;
  }

  /// Two qubit operands of one gate trade places (targets or controls).
  bool swapWires() {
    if (gates.empty())
      return false;
    Operation *op = pick(gates);
    GateView gv = *GateView::get(op);
    llvm::SmallVector<unsigned> qubitOperands;
    for (OpOperand &o : op->getOpOperands())
      if (gv.getOutFor(o.getOperandNumber()))
        qubitOperands.push_back(o.getOperandNumber());
    if (qubitOperands.size() < 2)
      return false;
    unsigned a = pick(qubitOperands), b = pick(qubitOperands);
    if (a == b)
      return false;
    Value va = op->getOperand(a), vb = op->getOperand(b);
    op->setOperand(a, vb);
    op->setOperand(b, va);
    return true;
  }

  /// A static extract reads another wire of its register (which may alias a
  /// live qubit: passes must still not crash).
  bool changeWire() {
    llvm::SmallVector<Operation *> statics;
    for (Operation *op : extracts)
      if (op->getAttr("idx_attr"))
        statics.push_back(op);
    if (statics.empty())
      return false;
    Operation *op = pick(statics);
    std::optional<RegisterAccess> ra = RegisterAccess::get(op);
    int64_t size = 8;
    if (ra && ra->reg)
      if (Operation *def = ra->reg.getDefiningOp())
        if (std::optional<int64_t> n = getAllocSize(def))
          size = std::max<int64_t>(*n, 1);
    int64_t idx = int64_t(rng() % uint64_t(size));
    if (ra && ra->staticIdx == idx)
      return false;
    setStaticIndex(op, idx);
    return true;
  }

  /// An op moves above its predecessor when it does not use the
  /// predecessor's results (and neither is a terminator).
  bool swapAdjacent() {
    if (all.empty())
      return false;
    Operation *b = pick(all);
    Operation *a = b->getPrevNode();
    if (!a || b->hasTrait<OpTrait::IsTerminator>() || b->getNumRegions() || a->getNumRegions())
      return false;
    for (Value v : b->getOperands())
      if (v.getDefiningOp() == a)
        return false;
    b->moveBefore(a);
    return true;
  }

  /// A run of consecutive gates is repeated 1-3 more times right after it,
  /// each copy continuing the wires where the previous one left them: the
  /// repeated structure qshape-roll-loops turns into a loop.
  bool duplicateRun() {
    if (gates.empty())
      return false;
    Operation *first = pick(gates);
    llvm::SmallVector<Operation *> run;
    unsigned want = 1 + rng() % 8;
    for (Operation *op = first; op && run.size() < want && GateView::get(op);
         op = op->getNextNode())
      run.push_back(op);
    // The wires the run reads from outside (roots) and where they end.
    llvm::DenseMap<Value, Value> rootOf, endOf;
    llvm::SmallVector<Value> roots;
    for (Operation *op : run) {
      GateView gv = *GateView::get(op);
      for (OpOperand &o : op->getOpOperands()) {
        Value out = gv.getOutFor(o.getOperandNumber());
        if (!out)
          continue;
        Value in = o.get();
        Value root = rootOf.count(in) ? rootOf[in] : in;
        if (!rootOf.count(in))
          roots.push_back(root);
        rootOf[out] = root;
        endOf[root] = out;
      }
    }
    if (roots.empty())
      return false;
    unsigned copies = 1 + rng() % 3;
    OpBuilder b(module.getContext());
    b.setInsertionPointAfter(run.back());
    llvm::DenseMap<Value, Value> current = endOf; // where each wire ends now
    for (unsigned c = 0; c < copies; ++c) {
      IRMapping map;
      for (Value r : roots)
        map.map(r, current[r]);
      llvm::SmallPtrSet<Operation *, 8> copy;
      for (Operation *op : run)
        copy.insert(b.clone(*op, map));
      for (Value r : roots) {
        Value newEnd = map.lookup(endOf[r]);
        current[r].replaceUsesWithIf(newEnd,
                                     [&](OpOperand &u) { return !copy.contains(u.getOwner()); });
        current[r] = newEnd;
      }
    }
    return true;
  }

  /// A qubit that a gate consumes passes through `thread` first.
  bool threadQubit(llvm::function_ref<Operation *(OpBuilder &, Value)> thread) {
    if (gates.empty())
      return false;
    Operation *user = pick(gates);
    GateView gv = *GateView::get(user);
    llvm::SmallVector<unsigned> qubitOperands;
    for (OpOperand &o : user->getOpOperands())
      if (gv.getOutFor(o.getOperandNumber()))
        qubitOperands.push_back(o.getOperandNumber());
    if (qubitOperands.empty())
      return false;
    unsigned k = pick(qubitOperands);
    OpBuilder b(user);
    Operation *through = thread(b, user->getOperand(k));
    if (!through)
      return false;
    user->setOperand(k, through->getResult(0));
    return true;
  }

  bool insertUnregistered() {
    return threadQubit([](OpBuilder &b, Value q) {
      OperationState st(b.getUnknownLoc(), "fuzz.opaque");
      st.addOperands(q);
      st.addTypes(q.getType());
      st.addAttribute("note", b.getStringAttr("unregistered, unknown effects"));
      return b.create(st);
    });
  }

  /// A call to an external function: a registered op whose effects nobody
  /// knows.
  bool insertOpaqueCall() {
    return threadQubit([&](OpBuilder &b, Value q) -> Operation * {
      std::string name = "fuzz_opaque";
      auto type = FunctionType::get(b.getContext(), {q.getType()}, {q.getType()});
      auto existing = module.lookupSymbol<func::FuncOp>(name);
      if (existing && existing.getFunctionType() != type)
        return nullptr;
      if (!existing) {
        OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
        auto decl = func::FuncOp::create(mb, b.getUnknownLoc(), name, type);
        decl.setPrivate();
      }
      return func::CallOp::create(b, b.getUnknownLoc(), name, TypeRange{q.getType()},
                                  ValueRange{q});
    });
  }

  /// An unregistered op without operands anywhere in a block: a barrier.
  bool insertBarrier() {
    if (all.empty())
      return false;
    Operation *at = pick(all);
    if (isa<ModuleOp>(at->getParentOp()) || at->getBlock() == nullptr)
      return false;
    OpBuilder b(at);
    OperationState st(b.getUnknownLoc(), "fuzz.barrier");
    b.create(st);
    return true;
  }

  ModuleOp module;
  std::mt19937_64 rng;
  llvm::SmallVector<Operation *> all, gates, extracts;
};

} // namespace

bool mutateModuleText(llvm::StringRef text, uint64_t seed, std::string &out,
                      std::string *mutationName) {
  MLIRContext &ctx = freshContext();
  OwningOpRef<ModuleOp> module = parseModule(text, ctx);
  if (!module)
    return false;
  std::mt19937_64 rng(seed);
  unsigned rounds = 1 + rng() % 3;
  std::string names;
  for (unsigned i = 0; i < rounds; ++i) {
    const char *name = Mutator(*module, rng()).run();
    if (!name)
      break;
    names += (names.empty() ? "" : ",") + std::string(name);
  }
  if (names.empty())
    return false;
  {
    DiagnosticCapture diags(ctx);
    if (failed(verify(*module))) {
      // A mutation this file got wrong: never hand it on.
      if (std::getenv("QSHAPE_FUZZ_LOG_MUTATIONS"))
        llvm::errs() << "qshape-fuzz: mutation " << names << " broke the module:\n" << diags.text();
      return false;
    }
  }
  out = printModule(module->getOperation(), /*generic=*/rng() % 4 == 0);
  if (mutationName)
    *mutationName = names;
  return true;
}

} // namespace qshape::fuzz
