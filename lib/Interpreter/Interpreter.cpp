//===- Interpreter.cpp - qshape-sim engine: dispatch and control flow -----===//
//
// Ops are decoded once into an OpDesc cached by Operation*; execution walks
// blocks, follows cf branches, and runs scf/func control flow with the
// values of a call frame in a DenseMap<Value, RtValue>.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace qshape::interp {

const RtValue InterpreterImpl::emptyValue;

InFlightDiagnostic simError(Operation *op) {
  InFlightDiagnostic diag = op->emitError();
  diag << "qshape-sim: ";
  return diag;
}

bool isElementwise(OpCode code) {
  static constexpr bool table[] = {
      false, // Unknown
#define OPCODE(E, N) false,
#define ELEMENTWISE(E, N) true,
#include "OpCodes.def"
      false, // NumOpCodes
  };
  return table[static_cast<unsigned>(code)];
}

static OpCode lookupOpCode(StringRef name) {
  static const llvm::StringMap<OpCode> table = [] {
    llvm::StringMap<OpCode> m;
#define OPCODE(E, N) m[N] = OpCode::E;
#include "OpCodes.def"
    return m;
  }();
  auto it = table.find(name);
  return it == table.end() ? OpCode::Unknown : it->second;
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

const OpDesc &InterpreterImpl::getDesc(Operation *op) {
  auto it = descs.find(op);
  if (it != descs.end())
    return *it->second;
  descStorage.push_back(decode(op));
  OpDesc *d = &descStorage.back();
  descs[op] = d;
  return *d;
}

OpDesc InterpreterImpl::decode(Operation *op) {
  OpDesc d;
  d.code = lookupOpCode(op->getName().getStringRef());
  if (d.code == OpCode::Unknown)
    return d;
  d.isQuantum = classify(op) != QOpKind::NotQuantum;
  if (d.isQuantum) {
    decodeQuantum(op, d);
    return d;
  }
  switch (d.code) {
  case OpCode::FuncCall:
  case OpCode::LaunchKernel: {
    auto callee = op->getAttrOfType<SymbolRefAttr>("callee");
    Operation *target = callee ? SymbolTable::lookupNearestSymbolFrom(op, callee) : nullptr;
    if (!target || !isa<func::FuncOp>(target))
      d.unsupported = "callee is not a func.func of this module";
    else if (cast<func::FuncOp>(target).isExternal())
      d.unsupported = "callee @" + cast<func::FuncOp>(target).getSymName().str() +
                      " is an external function (no body)";
    d.callee = target;
    return d;
  }
  case OpCode::ScfFor:
  case OpCode::ScfIf:
  case OpCode::ScfWhile:
  case OpCode::ScfExecuteRegion:
  case OpCode::ScfIndexSwitch:
  case OpCode::ScfYield:
  case OpCode::ScfCondition:
  case OpCode::CfBr:
  case OpCode::CfCondBr:
  case OpCode::CfAssert:
  case OpCode::FuncReturn:
    if (op->getNumOperands() > 0 && d.code == OpCode::ScfFor) {
      Type t = op->getOperand(0).getType();
      d.opWidth = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    }
    return d;
  default:
    decodeClassical(op, d);
    return d;
  }
}

LogicalResult InterpreterImpl::emitUnsupported(Operation *op, StringRef why) {
  InFlightDiagnostic diag = simError(op);
  diag << "cannot execute '" << op->getName().getStringRef() << "'";
  if (!why.empty())
    diag << ": " << why;
  return failure();
}

//===----------------------------------------------------------------------===//
// Typed reads
//===----------------------------------------------------------------------===//

static StringRef kindName(RtValue::Kind k) {
  switch (k) {
  case RtValue::Kind::Empty:
    return "no value";
  case RtValue::Kind::Float:
    return "a float";
  case RtValue::Kind::Int:
    return "an integer";
  case RtValue::Kind::Complex:
    return "a complex";
  case RtValue::Kind::Tensor:
    return "a tensor";
  case RtValue::Kind::Qubit:
    return "a qubit";
  case RtValue::Kind::Register:
    return "a register";
  case RtValue::Kind::Observable:
    return "an observable";
  }
  return "?";
}

LogicalResult kindError(Operation *op, StringRef expected, RtValue::Kind got) {
  return simError(op) << "expected " << expected << " operand, got " << kindName(got);
}

FailureOr<double> InterpreterImpl::getF(Operation *op, Value v) {
  const RtValue &r = get(v);
  if (r.getKind() != RtValue::Kind::Float)
    return kindError(op, "a float", r.getKind());
  return r.getFloat();
}

FailureOr<int64_t> InterpreterImpl::getI(Operation *op, Value v) {
  const RtValue &r = get(v);
  if (r.getKind() != RtValue::Kind::Int)
    return kindError(op, "an integer", r.getKind());
  return r.getInt();
}

FailureOr<int> InterpreterImpl::getWire(Operation *op, Value v) {
  const RtValue &r = get(v);
  if (r.getKind() != RtValue::Kind::Qubit)
    return kindError(op, "a qubit", r.getKind());
  return r.getWire();
}

FailureOr<const Tensor *> InterpreterImpl::getT(Operation *op, Value v) {
  const RtValue &r = get(v);
  if (r.getKind() != RtValue::Kind::Tensor)
    return kindError(op, "a tensor", r.getKind());
  return &r.getTensor();
}

//===----------------------------------------------------------------------===//
// Blocks and regions
//===----------------------------------------------------------------------===//

LogicalResult InterpreterImpl::execOp(Operation *op) {
  const OpDesc &d = getDesc(op);
  ++stats.opsExecuted;
  if (d.code == OpCode::Unknown)
    return emitUnsupported(op);
  if (!d.unsupported.empty())
    return emitUnsupported(op, d.unsupported);
  if (isElementwise(d.code))
    return execElementwise(op, d);
  switch (d.code) {
  case OpCode::FuncCall:
  case OpCode::LaunchKernel:
  case OpCode::ScfFor:
  case OpCode::ScfIf:
  case OpCode::ScfWhile:
  case OpCode::ScfExecuteRegion:
  case OpCode::ScfIndexSwitch:
  case OpCode::CfAssert:
    return execControlFlow(op, d);
  case OpCode::FuncReturn:
  case OpCode::ScfYield:
  case OpCode::ScfCondition:
  case OpCode::CfBr:
  case OpCode::CfCondBr:
  case OpCode::QYield:
    return emitUnsupported(op, "terminator in an unexpected position");
  default:
    break;
  }
  if (d.isQuantum)
    return execQuantum(op, d);
  return execClassical(op, d);
}

FailureOr<Operation *> InterpreterImpl::execBlockBody(Block &block) {
  if (block.empty())
    return failure();
  Operation *terminator = &block.back();
  for (Operation &op : block) {
    if (&op == terminator)
      break;
    if (failed(execOp(&op)))
      return failure();
  }
  return terminator;
}

FailureOr<Operation *> InterpreterImpl::execRegion(Region &region, ArrayRef<RtValue> args) {
  if (region.empty())
    return failure();
  Block *block = &region.front();
  if (block->getNumArguments() != args.size()) {
    Operation *parent = region.getParentOp();
    return simError(parent) << "region expects " << block->getNumArguments() << " arguments, got "
                            << args.size();
  }
  for (auto [arg, v] : llvm::zip(block->getArguments(), args))
    set(arg, v);
  SmallVector<RtValue, 4> forwarded;
  while (true) {
    FailureOr<Operation *> term = execBlockBody(*block);
    if (failed(term))
      return failure();
    Operation *t = *term;
    OpCode code = getDesc(t).code;
    Block *next = nullptr;
    OperandRange operands = t->getOperands().take_front(0);
    if (code == OpCode::CfBr) {
      auto br = cast<cf::BranchOp>(t);
      next = br.getDest();
      operands = br.getDestOperands();
    } else if (code == OpCode::CfCondBr) {
      auto br = cast<cf::CondBranchOp>(t);
      FailureOr<int64_t> cond = getI(t, br.getCondition());
      if (failed(cond))
        return failure();
      ++stats.opsExecuted;
      next = *cond ? br.getTrueDest() : br.getFalseDest();
      operands = *cond ? br.getTrueDestOperands() : br.getFalseDestOperands();
    } else {
      return t;
    }
    // Read every forwarded value before binding (a block may branch to
    // itself with its arguments permuted).
    forwarded.clear();
    for (Value v : operands)
      forwarded.push_back(get(v));
    for (auto [arg, v] : llvm::zip(next->getArguments(), forwarded))
      set(arg, v);
    block = next;
  }
}

LogicalResult InterpreterImpl::runYieldingRegion(Region &region, ArrayRef<RtValue> args,
                                                 SmallVectorImpl<RtValue> &results) {
  FailureOr<Operation *> term = execRegion(region, args);
  if (failed(term))
    return failure();
  results.clear();
  for (Value v : (*term)->getOperands())
    results.push_back(get(v));
  return success();
}

FailureOr<SmallVector<RtValue>> InterpreterImpl::callFunction(Operation *caller, func::FuncOp func,
                                                              ArrayRef<RtValue> args) {
  Operation *where = caller ? caller : func.getOperation();
  if (func.isExternal())
    return simError(where) << "cannot call external function @" << func.getSymName();
  if (callDepth >= options.maxCallDepth)
    return simError(where) << "call depth exceeds " << options.maxCallDepth
                           << " (runaway recursion?)";
  if (func.getNumArguments() != args.size())
    return simError(where) << "@" << func.getSymName() << " takes " << func.getNumArguments()
                           << " arguments, got " << args.size();
  Env frame;
  Env *saved = env;
  env = &frame;
  ++callDepth;
  FailureOr<Operation *> term = execRegion(func.getBody(), args);
  SmallVector<RtValue> results;
  if (succeeded(term)) {
    if (getDesc(*term).code != OpCode::FuncReturn) {
      simError(*term) << "function body ends in '" << (*term)->getName()
                      << "', expected func.return";
      term = failure();
    } else {
      for (Value v : (*term)->getOperands())
        results.push_back(get(v));
    }
  }
  --callDepth;
  env = saved;
  if (failed(term))
    return failure();
  return results;
}

//===----------------------------------------------------------------------===//
// scf, func, cf
//===----------------------------------------------------------------------===//

LogicalResult InterpreterImpl::execCall(Operation *op, const OpDesc &d) {
  SmallVector<RtValue, 4> args;
  for (Value v : op->getOperands())
    args.push_back(get(v));
  FailureOr<SmallVector<RtValue>> results = callFunction(op, cast<func::FuncOp>(d.callee), args);
  if (failed(results))
    return failure();
  if (results->size() != op->getNumResults())
    return simError(op) << "callee returned " << results->size() << " values, expected "
                        << op->getNumResults();
  for (auto [res, v] : llvm::zip(op->getResults(), *results))
    set(res, v);
  return success();
}

LogicalResult InterpreterImpl::execFor(Operation *op, const OpDesc &d) {
  FailureOr<int64_t> lb = getI(op, op->getOperand(0));
  FailureOr<int64_t> ub = getI(op, op->getOperand(1));
  FailureOr<int64_t> step = getI(op, op->getOperand(2));
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  if (*step <= 0)
    return simError(op) << "scf.for step " << *step << " is not positive";
  Region &region = op->getRegion(0);
  if (!region.hasOneBlock())
    return emitUnsupported(op, "loop body with several blocks");
  Block &body = region.front();
  unsigned numIters = op->getNumOperands() - 3;
  if (body.getNumArguments() != numIters + 1 || op->getNumResults() != numIters)
    return emitUnsupported(op, "unexpected loop signature");
  SmallVector<RtValue, 4> iters;
  for (Value v : op->getOperands().drop_front(3))
    iters.push_back(get(v));
  const bool isUnsigned = op->hasAttr("unsignedCmp");
  const unsigned width = d.opWidth;
  auto inRange = [&](int64_t iv) {
    return isUnsigned ? zextInt(iv, width) < zextInt(*ub, width) : iv < *ub;
  };
  Value iv = body.getArgument(0);
  for (int64_t i = *lb; inRange(i);) {
    set(iv, RtValue::getInt(i));
    for (unsigned k = 0; k < numIters; ++k)
      set(body.getArgument(k + 1), iters[k]);
    FailureOr<Operation *> term = execBlockBody(body);
    if (failed(term))
      return failure();
    for (unsigned k = 0; k < numIters; ++k)
      iters[k] = get((*term)->getOperand(k));
    int64_t next;
    if (__builtin_add_overflow(i, *step, &next) || wrapInt(next, width) != next)
      break;
    if (isUnsigned && zextInt(next, width) < zextInt(i, width))
      break;
    i = next;
  }
  for (unsigned k = 0; k < numIters; ++k)
    set(op->getResult(k), iters[k]);
  return success();
}

LogicalResult InterpreterImpl::execWhile(Operation *op) {
  SmallVector<RtValue, 4> current;
  for (Value v : op->getOperands())
    current.push_back(get(v));
  SmallVector<RtValue, 4> forwarded;
  while (true) {
    FailureOr<Operation *> cond = execRegion(op->getRegion(0), current);
    if (failed(cond))
      return failure();
    Operation *c = *cond;
    if (getDesc(c).code != OpCode::ScfCondition)
      return emitUnsupported(op, "before region does not end in scf.condition");
    ++stats.opsExecuted;
    FailureOr<int64_t> flag = getI(c, c->getOperand(0));
    if (failed(flag))
      return failure();
    forwarded.clear();
    for (Value v : c->getOperands().drop_front())
      forwarded.push_back(get(v));
    if (!*flag) {
      for (auto [res, v] : llvm::zip(op->getResults(), forwarded))
        set(res, v);
      return success();
    }
    if (failed(runYieldingRegion(op->getRegion(1), forwarded, current)))
      return failure();
  }
}

LogicalResult InterpreterImpl::execIndexSwitch(Operation *op) {
  FailureOr<int64_t> arg = getI(op, op->getOperand(0));
  if (failed(arg))
    return failure();
  auto cases = dyn_cast_or_null<DenseI64ArrayAttr>(op->getAttr("cases"));
  if (!cases)
    return emitUnsupported(op, "missing 'cases'");
  unsigned regionIndex = 0;
  for (auto [k, c] : llvm::enumerate(cases.asArrayRef()))
    if (c == *arg)
      regionIndex = k + 1;
  SmallVector<RtValue, 4> results;
  if (failed(runYieldingRegion(op->getRegion(regionIndex), {}, results)))
    return failure();
  for (auto [res, v] : llvm::zip(op->getResults(), results))
    set(res, v);
  return success();
}

LogicalResult InterpreterImpl::execControlFlow(Operation *op, const OpDesc &d) {
  switch (d.code) {
  case OpCode::FuncCall:
  case OpCode::LaunchKernel:
    return execCall(op, d);

  case OpCode::ScfFor:
    return execFor(op, d);

  case OpCode::ScfIf: {
    FailureOr<int64_t> cond = getI(op, op->getOperand(0));
    if (failed(cond))
      return failure();
    Region &region = op->getRegion(*cond ? 0 : 1);
    if (region.empty()) {
      if (op->getNumResults() != 0)
        return emitUnsupported(op, "scf.if with results but no else region");
      return success();
    }
    SmallVector<RtValue, 4> results;
    if (failed(runYieldingRegion(region, {}, results)))
      return failure();
    for (auto [res, v] : llvm::zip(op->getResults(), results))
      set(res, v);
    return success();
  }

  case OpCode::ScfWhile:
    return execWhile(op);

  case OpCode::ScfExecuteRegion: {
    SmallVector<RtValue, 4> results;
    if (failed(runYieldingRegion(op->getRegion(0), {}, results)))
      return failure();
    for (auto [res, v] : llvm::zip(op->getResults(), results))
      set(res, v);
    return success();
  }

  case OpCode::ScfIndexSwitch:
    return execIndexSwitch(op);

  case OpCode::CfAssert: {
    FailureOr<int64_t> cond = getI(op, op->getOperand(0));
    if (failed(cond))
      return failure();
    if (!*cond) {
      auto msg = op->getAttrOfType<StringAttr>("msg");
      return simError(op) << "assertion failed" << (msg ? ": " + msg.getValue().str() : "");
    }
    return success();
  }

  default:
    return emitUnsupported(op);
  }
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(InterpreterOptions options)
    : impl(std::make_unique<InterpreterImpl>(options)) {}

Interpreter::~Interpreter() = default;

FailureOr<SmallVector<RtValue>> Interpreter::run(func::FuncOp func, ArrayRef<RtValue> args) {
  return impl->callFunction(nullptr, func, args);
}

const InterpreterStats &Interpreter::getStats() const { return impl->stats; }

static bool hasQNodeAttr(func::FuncOp f) {
  return f->hasAttr("qnode") || f->hasAttr("quantum.node");
}

static std::string listNames(ArrayRef<func::FuncOp> fs) {
  std::string s;
  for (func::FuncOp f : fs)
    s += (s.empty() ? "@" : ", @") + f.getSymName().str();
  return s;
}

llvm::Expected<func::FuncOp> findEntryFunction(ModuleOp module, StringRef name) {
  SmallVector<func::FuncOp> all;
  module.walk([&](func::FuncOp f) { all.push_back(f); });
  if (!name.empty()) {
    name.consume_front("@");
    SmallVector<func::FuncOp> named;
    for (func::FuncOp f : all)
      if (f.getSymName() == name)
        named.push_back(f);
    if (named.empty())
      return llvm::createStringError("no function named '" + name.str() +
                                     "' (functions: " + listNames(all) + ")");
    if (named.size() > 1)
      return llvm::createStringError("several functions are named '" + name.str() + "'");
    if (named.front().isExternal())
      return llvm::createStringError("function '" + name.str() + "' has no body");
    return named.front();
  }
  SmallVector<func::FuncOp> publicFns, qnodes;
  for (func::FuncOp f : all) {
    if (f.isExternal())
      continue;
    if (f.isPublic())
      publicFns.push_back(f);
    if (hasQNodeAttr(f))
      qnodes.push_back(f);
  }
  if (publicFns.size() == 1)
    return publicFns.front();
  if (qnodes.size() == 1)
    return qnodes.front();
  if (all.empty())
    return llvm::createStringError("the module has no function to run");
  return llvm::createStringError(llvm::formatv(
      "cannot choose the entry function: {0} public functions ({1}) and {2} with a qnode "
      "attribute ({3}); pass --entry NAME",
      publicFns.size(), listNames(publicFns), qnodes.size(), listNames(qnodes)));
}

} // namespace qshape::interp
