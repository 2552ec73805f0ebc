//===- GateViewTest.cpp - the name-based adapter, registered or not -------===//
//
// qshape's passes see quantum ops as qshape's classes (qshape-opt), as
// Catalyst's classes (inside Catalyst) or as unregistered ops (upstream
// mlir-opt without the dialect). The gate view must answer the same in every
// host. Each test runs on the same generic-form module parsed twice: once
// with qshape's `quantum` dialect registered, once without it (unregistered
// ops); a cross-host test compares everything the adapter says, op by op.
//
//===----------------------------------------------------------------------===//

#include "qshape/GateView/GateView.h"
#include "qshape/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>
#include <set>
#include <string>

using namespace mlir;
using namespace qshape;

namespace {

// Generic form, so that it parses without the dialect. Ops carry a
// discardable `tag` so the tests can find them; the adapter ignores it.
// Function arguments: %arg0 f64 angle, %arg1 register, %arg2 i64 index,
// %arg3 i1 true, %arg4 4x4 matrix, %arg5 i64 size.
constexpr llvm::StringLiteral kCircuit = R"mlir(
"builtin.module"() ({
  "func.func"() <{function_type = (f64, !quantum.reg, i64, i1, tensor<4x4xcomplex<f64>>, i64) -> (), sym_name = "circuit"}> ({
  ^bb0(%arg0: f64, %arg1: !quantum.reg, %arg2: i64, %arg3: i1, %arg4: tensor<4x4xcomplex<f64>>, %arg5: i64):
    "quantum.device"() <{device_name = "LightningSimulator", kwargs = "{}", lib = "lib.so"}> {tag = "device"} : () -> ()
    %0 = "quantum.alloc"() <{nqubits_attr = 3 : i64}> {tag = "alloc"} : () -> !quantum.reg
    %1 = "quantum.alloc"(%arg5) {tag = "alloc_dyn"} : (i64) -> !quantum.reg
    %2 = "quantum.alloc_qb"() {tag = "alloc_qb"} : () -> !quantum.bit
    %3 = "quantum.extract"(%arg1) <{idx_attr = 0 : i64}> {tag = "extract"} : (!quantum.reg) -> !quantum.bit
    %4 = "quantum.extract"(%arg1, %arg2) {tag = "extract_dyn"} : (!quantum.reg, i64) -> !quantum.bit
    %5 = "quantum.extract"(%arg1) <{idx_attr = 2 : i64}> {tag = "extract2"} : (!quantum.reg) -> !quantum.bit
    %6 = "quantum.custom"(%3) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "h"} : (!quantum.bit) -> !quantum.bit
    %7 = "quantum.custom"(%arg0, %arg0, %arg0, %6) <{gate_name = "Rot", operandSegmentSizes = array<i32: 3, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "rot"} : (f64, f64, f64, !quantum.bit) -> !quantum.bit
    %8:2 = "quantum.custom"(%7, %4) <{gate_name = "CNOT", operandSegmentSizes = array<i32: 0, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> {tag = "cnot"} : (!quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %9:3 = "quantum.custom"(%arg0, %8#0, %8#1, %5, %arg3, %arg3) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 2, 2>, resultSegmentSizes = array<i32: 1, 2>}> {tag = "crx"} : (f64, !quantum.bit, !quantum.bit, !quantum.bit, i1, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit)
    %10:3 = "quantum.paulirot"(%arg0, %9#0, %9#1, %9#2, %arg3) <{operandSegmentSizes = array<i32: 1, 2, 1, 1>, pauli_product = ["X", "Z"], resultSegmentSizes = array<i32: 2, 1>}> {tag = "paulirot"} : (f64, !quantum.bit, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit)
    %11:2 = "quantum.multirz"(%arg0, %10#0, %10#1) <{adjoint, operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> {tag = "multirz"} : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %12 = "quantum.pcphase"(%arg0, %11#0) <{dim = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "pcphase"} : (f64, !quantum.bit) -> !quantum.bit
    %13:2 = "quantum.unitary"(%arg4, %12, %11#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> {tag = "unitary"} : (tensor<4x4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    "quantum.gphase"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> {tag = "gphase"} : (f64) -> ()
    %14 = "quantum.gphase"(%arg0, %10#2, %arg3) <{adjoint, operandSegmentSizes = array<i32: 1, 1, 1>}> {tag = "gphase_ctrl"} : (f64, !quantum.bit, i1) -> !quantum.bit
    %15 = "quantum.insert"(%arg1, %13#0) <{idx_attr = 0 : i64}> {tag = "insert"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %16 = "quantum.insert"(%15, %arg2, %13#1) {tag = "insert_dyn"} : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
    %17 = "quantum.adjoint"(%16) ({
    ^bb0(%arg11: !quantum.reg):
      %36 = "quantum.extract"(%arg11) <{idx_attr = 0 : i64}> {tag = "adj_extract"} : (!quantum.reg) -> !quantum.bit
      %37 = "quantum.custom"(%36) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "adj_t"} : (!quantum.bit) -> !quantum.bit
      %38 = "quantum.insert"(%arg11, %37) <{idx_attr = 0 : i64}> {tag = "adj_insert"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
      "quantum.yield"(%38) {tag = "adj_yield"} : (!quantum.reg) -> ()
    }) {tag = "adjoint"} : (!quantum.reg) -> !quantum.reg
    "quantum.adjoint"() ({
      "quantum.gphase"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> {tag = "adj_gphase"} : (f64) -> ()
      "quantum.yield"() : () -> ()
    }) {tag = "adjoint_phase"} : () -> ()
    %18:2 = "quantum.ctrl"(%14, %arg3, %2) <{operandSegmentSizes = array<i32: 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg10: !quantum.bit):
      %35 = "quantum.custom"(%arg10) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "ctrl_h"} : (!quantum.bit) -> !quantum.bit
      "quantum.yield"(%35) : (!quantum.bit) -> ()
    }) {tag = "ctrl"} : (!quantum.bit, i1, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %19 = "quantum.namedobs"(%18#1) <{type = #quantum<named_observable PauliZ>}> {tag = "namedobs"} : (!quantum.bit) -> !quantum.obs
    %20 = "quantum.compbasis"(%18#0) <{operandSegmentSizes = array<i32: 1, 0>}> {tag = "compbasis"} : (!quantum.bit) -> !quantum.obs
    %21 = "quantum.tensor"(%19, %20) {tag = "tensor"} : (!quantum.obs, !quantum.obs) -> !quantum.obs
    %22 = "quantum.expval"(%21) {tag = "expval"} : (!quantum.obs) -> f64
    %23:2 = "quantum.measure"(%18#1) {tag = "measure"} : (!quantum.bit) -> (i1, !quantum.bit)
    %24 = "arith.constant"() <{value = 0 : index}> {tag = "const"} : () -> index
    %25 = "arith.constant"() <{value = 1 : index}> : () -> index
    %26 = "arith.constant"() <{value = 4 : index}> : () -> index
    %27 = "scf.for"(%24, %26, %25, %17) ({
    ^bb0(%arg8: index, %arg9: !quantum.reg):
      %32 = "quantum.extract"(%arg9) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
      %33 = "quantum.custom"(%32) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      %34 = "quantum.insert"(%arg9, %33) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
      "scf.yield"(%34) : (!quantum.reg) -> ()
    }) {tag = "for_gates"} : (index, index, index, !quantum.reg) -> !quantum.reg
    %28 = "scf.for"(%24, %26, %25, %27) ({
    ^bb0(%arg6: index, %arg7: !quantum.reg):
      %29 = "quantum.extract"(%arg7) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
      %30:2 = "quantum.measure"(%29) : (!quantum.bit) -> (i1, !quantum.bit)
      %31 = "quantum.insert"(%arg7, %30#1) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
      "scf.yield"(%31) : (!quantum.reg) -> ()
    }) {tag = "for_measure"} : (index, index, index, !quantum.reg) -> !quantum.reg
    "foo.unknown"(%28) {tag = "unknown"} : (!quantum.reg) -> ()
    "quantum.dealloc"(%28) {tag = "dealloc"} : (!quantum.reg) -> ()
    "quantum.device_release"() {tag = "device_release"} : () -> ()
    "func.return"() {tag = "return"} : () -> ()
  }) : () -> ()
}) : () -> ()
)mlir";

// Catalyst's quantum.operator in both modes: qubit mode with typed params,
// forwarded args and controls; register mode with index tensors and control
// tensors. %arg0 f64, %arg1 tensor<2xf64>, %arg2 i64 (forwarded), %arg3-4
// qubits, %arg5 i1, %arg6 register, %arg7-8 target index tensors, %arg9 i1
// control values tensor.
constexpr llvm::StringLiteral kOperators = R"mlir(
"builtin.module"() ({
  "func.func"() <{function_type = (f64, tensor<2xf64>, i64, !quantum.bit, !quantum.bit, i1, !quantum.reg, tensor<2xi64>, tensor<1xi64>, tensor<1xi1>) -> (), sym_name = "operators"}> ({
  ^bb0(%arg0: f64, %arg1: tensor<2xf64>, %arg2: i64, %arg3: !quantum.bit, %arg4: !quantum.bit, %arg5: i1, %arg6: !quantum.reg, %arg7: tensor<2xi64>, %arg8: tensor<1xi64>, %arg9: tensor<1xi1>):
    %0:2 = "quantum.operator"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) <{UID = 7 : i64, adjoint, op_name = "MyOp", operandSegmentSizes = array<i32: 2, 1, 1, 1, 1, 0, 0, 0, 0>, param_map = {data = array<i64: 1>, theta = array<i64: 0>}, qubit_map = {wires = array<i64: 0>}, resultSegmentSizes = array<i32: 1, 1, 0>, static_data = {word = "XY"}}> {tag = "op_qubits"} : (f64, tensor<2xf64>, i64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
    %1 = "quantum.operator"(%arg6, %arg7, %arg8, %arg8, %arg9) <{op_name = "RegOp", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 2, 1, 1>, resultSegmentSizes = array<i32: 0, 0, 1>}> {tag = "op_reg"} : (!quantum.reg, tensor<2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi1>) -> !quantum.reg
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
)mlir";

enum class Host { Registered, Unregistered };

std::string hostName(Host host) { return host == Host::Registered ? "Registered" : "Unregistered"; }

std::unique_ptr<MLIRContext> makeContext(Host host) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  if (host == Host::Registered)
    qshape::registerQuantumDialect(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  // `foo.unknown` in both hosts; every quantum op in the unregistered one.
  ctx->allowUnregisteredDialects(true);
  return ctx;
}

StringRef tagOf(Operation *op) {
  if (auto tag = op->getAttrOfType<StringAttr>("tag"))
    return tag.getValue();
  return {};
}

/// A stable, host-independent name for a value: `%argN` for function
/// arguments, `%<tag>.argN` for region arguments, `<tag>#N` for results.
std::string nameOf(Value v) {
  if (!v)
    return "<null>";
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    std::string n = "%arg" + std::to_string(arg.getArgNumber());
    if (isa<func::FuncOp>(parent))
      return n;
    StringRef tag = tagOf(parent);
    return "%" + (tag.empty() ? parent->getName().getStringRef().str() : tag.str()) + "." +
           n.substr(1);
  }
  auto res = cast<OpResult>(v);
  StringRef tag = tagOf(res.getOwner());
  std::string owner = tag.empty() ? res.getOwner()->getName().getStringRef().str() : tag.str();
  return owner + "#" + std::to_string(res.getResultNumber());
}

template <typename Range> std::string namesOf(Range values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(values, os, [&](Value v) { os << nameOf(v); }, ",");
  return s;
}

struct Parsed {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  std::map<std::string, Operation *> byTag;

  Operation *op(StringRef tag) const {
    auto it = byTag.find(tag.str());
    EXPECT_NE(it, byTag.end()) << "no op tagged " << tag.str();
    return it == byTag.end() ? nullptr : it->second;
  }
  func::FuncOp func() { return cast<func::FuncOp>(module->getBody()->front()); }
};

Parsed parse(Host host, StringRef text = kCircuit) {
  Parsed p;
  p.ctx = makeContext(host);
  p.module = parseSourceString<ModuleOp>(text, ParserConfig(p.ctx.get()));
  if (!p.module)
    return p;
  p.module->walk([&](Operation *op) {
    if (StringRef tag = tagOf(op); !tag.empty())
      p.byTag[tag.str()] = op;
  });
  return p;
}

/// Everything the adapter says about one op, as text.
std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName().getStringRef() << " kind=" << kindName(classify(op))
     << " ordered=" << isOrdered(op);
  if (std::optional<GateView> g = GateView::get(op)) {
    os << " gate=" << g->getGateName() << " params=" << namesOf(g->getParams())
       << " matrix=" << nameOf(g->getMatrix()) << " in=" << namesOf(g->getInQubits())
       << " out=" << namesOf(g->getOutQubits()) << " ctrls=" << namesOf(g->getCtrlQubits())
       << " ctrlvals=" << namesOf(g->getCtrlValues())
       << " outctrls=" << namesOf(g->getOutCtrlQubits()) << " adj=" << g->isAdjoint()
       << " pauli=" << llvm::join(g->getPauliWord(), "") << " dim=";
    if (std::optional<int64_t> d = g->getDim())
      os << *d;
    os << " outfor=";
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
      os << nameOf(g->getOutFor(i)) << ";";
    os << " forward=" << namesOf(g->getForwardArgs()) << " inreg=" << nameOf(g->getInRegister())
       << " outreg=" << nameOf(g->getOutRegister()) << " indices=" << namesOf(g->getIndexArrays())
       << " ctrlindices=" << nameOf(g->getCtrlIndexArray())
       << " ctrlvalues=" << nameOf(g->getCtrlValueArray());
  }
  if (std::optional<RegisterAccess> a = RegisterAccess::get(op)) {
    os << " reg=" << nameOf(a->reg) << " static=";
    if (a->staticIdx)
      os << *a->staticIdx;
    os << " dynamic=" << nameOf(a->dynamicIdx) << " qubit=" << nameOf(a->qubit)
       << " result=" << nameOf(a->result) << " insert=" << a->isInsert;
  }
  if (std::optional<int64_t> n = getAllocSize(op))
    os << " size=" << *n;
  return s;
}

class GateViewHostTest : public ::testing::TestWithParam<Host> {
protected:
  void SetUp() override {
    p = parse(GetParam());
    ASSERT_TRUE(p.module) << "the circuit does not parse";
  }
  Operation *op(StringRef tag) { return p.op(tag); }
  GateView gate(StringRef tag) {
    std::optional<GateView> g = GateView::get(op(tag));
    EXPECT_TRUE(g.has_value()) << tag.str() << " is not a gate";
    return *g;
  }
  Parsed p;
};

//===----------------------------------------------------------------------===//
// The two hosts really differ.
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, HostRegistersQuantumOpsOrNot) {
  bool registered = GetParam() == Host::Registered;
  for (StringRef tag : {"h", "extract", "alloc", "adjoint", "ctrl", "namedobs", "measure"})
    EXPECT_EQ(op(tag)->isRegistered(), registered) << tag.str();
  EXPECT_EQ(p.ctx->getLoadedDialect("quantum") != nullptr, registered);
  EXPECT_FALSE(op("unknown")->isRegistered());
  EXPECT_TRUE(op("const")->isRegistered());
  if (registered)
    EXPECT_TRUE(succeeded(verify(*p.module)));
}

//===----------------------------------------------------------------------===//
// classify / kindName
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, Classify) {
  const std::pair<const char *, QOpKind> expected[] = {
      {"device", QOpKind::Device},
      {"device_release", QOpKind::Device},
      {"alloc", QOpKind::Alloc},
      {"alloc_dyn", QOpKind::Alloc},
      {"alloc_qb", QOpKind::AllocQubit},
      {"dealloc", QOpKind::Dealloc},
      {"extract", QOpKind::Extract},
      {"extract_dyn", QOpKind::Extract},
      {"insert", QOpKind::Insert},
      {"insert_dyn", QOpKind::Insert},
      {"h", QOpKind::Gate},
      {"rot", QOpKind::Gate},
      {"cnot", QOpKind::Gate},
      {"crx", QOpKind::Gate},
      {"paulirot", QOpKind::Gate},
      {"multirz", QOpKind::Gate},
      {"pcphase", QOpKind::Gate},
      {"unitary", QOpKind::Gate},
      {"gphase", QOpKind::GlobalPhase},
      {"gphase_ctrl", QOpKind::GlobalPhase},
      {"adjoint", QOpKind::Adjoint},
      {"ctrl", QOpKind::Ctrl},
      {"adj_yield", QOpKind::Yield},
      {"namedobs", QOpKind::Observable},
      {"compbasis", QOpKind::Observable},
      {"tensor", QOpKind::Observable},
      {"expval", QOpKind::Measurement},
      {"measure", QOpKind::Measure},
      {"const", QOpKind::NotQuantum},
      {"for_gates", QOpKind::NotQuantum},
      {"unknown", QOpKind::NotQuantum},
      {"return", QOpKind::NotQuantum},
  };
  for (const auto &[tag, kind] : expected)
    EXPECT_EQ(kindName(classify(op(tag))), kindName(kind)) << tag;
}

TEST(GateViewNames, ClassifyByName) {
  EXPECT_EQ(classify("quantum.dealloc_qb"), QOpKind::DeallocQubit);
  EXPECT_EQ(classify("quantum.set_state"), QOpKind::StatePrep);
  EXPECT_EQ(classify("quantum.set_basis_state"), QOpKind::StatePrep);
  for (StringRef m : {"probs", "state", "sample", "counts", "var", "expval"})
    EXPECT_EQ(classify(("quantum." + m).str()), QOpKind::Measurement) << m.str();
  for (StringRef o : {"hamiltonian", "hermitian", "mcmobs"})
    EXPECT_EQ(classify(("quantum." + o).str()), QOpKind::Observable) << o.str();
  for (StringRef d : {"init", "finalize", "num_qubits"})
    EXPECT_EQ(classify(("quantum." + d).str()), QOpKind::Device) << d.str();
  EXPECT_EQ(classify("quantum.operator"), QOpKind::Gate);
  EXPECT_EQ(classify("quantum.nosuchop"), QOpKind::OtherQuantum);
  EXPECT_EQ(classify("quantumx.custom"), QOpKind::NotQuantum);
  EXPECT_EQ(classify("quantum"), QOpKind::NotQuantum);
  EXPECT_EQ(classify("catalyst.custom"), QOpKind::NotQuantum);

  // Every kind has its own name.
  std::set<std::string> names;
  for (int k = int(QOpKind::NotQuantum); k <= int(QOpKind::OtherQuantum); ++k)
    names.insert(kindName(QOpKind(k)).str());
  EXPECT_EQ(names.size(), size_t(QOpKind::OtherQuantum) + 1);
  EXPECT_EQ(names.count("unknown"), 0u);
}

//===----------------------------------------------------------------------===//
// GateView
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, OnlyGateLikeOpsHaveAView) {
  for (StringRef tag : {"h", "rot", "cnot", "crx", "paulirot", "multirz", "pcphase", "unitary",
                        "gphase", "gphase_ctrl", "adj_t", "ctrl_h"})
    EXPECT_TRUE(GateView::get(op(tag)).has_value()) << tag.str();
  for (StringRef tag : {"extract", "insert", "alloc", "adjoint", "ctrl", "namedobs", "measure",
                        "expval", "const", "unknown", "for_gates", "device"})
    EXPECT_FALSE(GateView::get(op(tag)).has_value()) << tag.str();
}

TEST_P(GateViewHostTest, GateNames) {
  const std::pair<const char *, const char *> expected[] = {
      {"h", "Hadamard"},
      {"rot", "Rot"},
      {"cnot", "CNOT"},
      {"crx", "RX"},
      {"paulirot", "PauliRot"},
      {"multirz", "MultiRZ"},
      {"pcphase", "PCPhase"},
      {"unitary", "QubitUnitary"},
      {"gphase", "GlobalPhase"},
      {"gphase_ctrl", "GlobalPhase"},
      {"adj_t", "T"},
      {"ctrl_h", "Hadamard"},
  };
  for (const auto &[tag, name] : expected) {
    EXPECT_EQ(gate(tag).getGateName(), name) << tag;
    EXPECT_EQ(gate(tag).getOperation(), op(tag));
    EXPECT_EQ(gate(tag).getOpName(), op(tag)->getName().getStringRef());
  }
}

TEST_P(GateViewHostTest, ParamsAndMatrix) {
  EXPECT_EQ(namesOf(gate("h").getParams()), "");
  EXPECT_EQ(namesOf(gate("rot").getParams()), "%arg0,%arg0,%arg0");
  EXPECT_EQ(namesOf(gate("crx").getParams()), "%arg0");
  EXPECT_EQ(namesOf(gate("paulirot").getParams()), "%arg0");
  EXPECT_EQ(namesOf(gate("multirz").getParams()), "%arg0");
  EXPECT_EQ(namesOf(gate("pcphase").getParams()), "%arg0");
  EXPECT_EQ(namesOf(gate("gphase").getParams()), "%arg0");
  EXPECT_EQ(namesOf(gate("gphase_ctrl").getParams()), "%arg0");
  // A unitary's matrix is not a parameter.
  EXPECT_EQ(namesOf(gate("unitary").getParams()), "");
  EXPECT_EQ(nameOf(gate("unitary").getMatrix()), "%arg4");
  EXPECT_FALSE(gate("crx").getMatrix());
}

TEST_P(GateViewHostTest, TargetQubits) {
  EXPECT_EQ(namesOf(gate("h").getInQubits()), "extract#0");
  EXPECT_EQ(namesOf(gate("h").getOutQubits()), "h#0");
  EXPECT_EQ(namesOf(gate("cnot").getInQubits()), "rot#0,extract_dyn#0");
  EXPECT_EQ(namesOf(gate("cnot").getOutQubits()), "cnot#0,cnot#1");
  EXPECT_EQ(namesOf(gate("crx").getInQubits()), "cnot#0");
  EXPECT_EQ(namesOf(gate("crx").getOutQubits()), "crx#0");
  EXPECT_EQ(namesOf(gate("paulirot").getInQubits()), "crx#0,crx#1");
  EXPECT_EQ(namesOf(gate("paulirot").getOutQubits()), "paulirot#0,paulirot#1");
  EXPECT_EQ(namesOf(gate("multirz").getInQubits()), "paulirot#0,paulirot#1");
  EXPECT_EQ(namesOf(gate("pcphase").getInQubits()), "multirz#0");
  EXPECT_EQ(namesOf(gate("unitary").getInQubits()), "pcphase#0,multirz#1");
  EXPECT_EQ(namesOf(gate("unitary").getOutQubits()), "unitary#0,unitary#1");
  EXPECT_EQ(namesOf(gate("gphase").getInQubits()), "");
  EXPECT_EQ(namesOf(gate("gphase").getOutQubits()), "");
  EXPECT_EQ(namesOf(gate("gphase_ctrl").getInQubits()), "");
  EXPECT_EQ(namesOf(gate("adj_t").getInQubits()), "adj_extract#0");
  EXPECT_EQ(namesOf(gate("ctrl_h").getInQubits()), "%ctrl.arg0");
}

TEST_P(GateViewHostTest, Controls) {
  EXPECT_EQ(namesOf(gate("h").getCtrlQubits()), "");
  EXPECT_EQ(namesOf(gate("h").getCtrlValues()), "");
  EXPECT_EQ(namesOf(gate("h").getOutCtrlQubits()), "");
  EXPECT_EQ(namesOf(gate("crx").getCtrlQubits()), "cnot#1,extract2#0");
  EXPECT_EQ(namesOf(gate("crx").getCtrlValues()), "%arg3,%arg3");
  EXPECT_EQ(namesOf(gate("crx").getOutCtrlQubits()), "crx#1,crx#2");
  EXPECT_EQ(namesOf(gate("paulirot").getCtrlQubits()), "crx#2");
  EXPECT_EQ(namesOf(gate("paulirot").getCtrlValues()), "%arg3");
  EXPECT_EQ(namesOf(gate("paulirot").getOutCtrlQubits()), "paulirot#2");
  EXPECT_EQ(namesOf(gate("gphase").getCtrlQubits()), "");
  EXPECT_EQ(namesOf(gate("gphase").getOutCtrlQubits()), "");
  EXPECT_EQ(namesOf(gate("gphase_ctrl").getCtrlQubits()), "paulirot#2");
  EXPECT_EQ(namesOf(gate("gphase_ctrl").getCtrlValues()), "%arg3");
  EXPECT_EQ(namesOf(gate("gphase_ctrl").getOutCtrlQubits()), "gphase_ctrl#0");
}

TEST_P(GateViewHostTest, AdjointPauliWordDim) {
  EXPECT_FALSE(gate("h").isAdjoint());
  EXPECT_TRUE(gate("crx").isAdjoint());
  EXPECT_FALSE(gate("paulirot").isAdjoint());
  EXPECT_TRUE(gate("multirz").isAdjoint());
  EXPECT_FALSE(gate("gphase").isAdjoint());
  EXPECT_TRUE(gate("gphase_ctrl").isAdjoint());

  EXPECT_EQ(gate("paulirot").getPauliWord(), (SmallVector<StringRef>{"X", "Z"}));
  EXPECT_TRUE(gate("crx").getPauliWord().empty());

  EXPECT_EQ(gate("pcphase").getDim(), std::optional<int64_t>(2));
  EXPECT_EQ(gate("crx").getDim(), std::nullopt);
}

TEST_P(GateViewHostTest, GetOutFor) {
  // crx operands: 0 param, 1 target, 2-3 controls, 4-5 control values.
  GateView crx = gate("crx");
  EXPECT_EQ(nameOf(crx.getOutFor(0)), "<null>");
  EXPECT_EQ(nameOf(crx.getOutFor(1)), "crx#0");
  EXPECT_EQ(nameOf(crx.getOutFor(2)), "crx#1");
  EXPECT_EQ(nameOf(crx.getOutFor(3)), "crx#2");
  EXPECT_EQ(nameOf(crx.getOutFor(4)), "<null>");
  EXPECT_EQ(nameOf(crx.getOutFor(5)), "<null>");
  EXPECT_EQ(nameOf(crx.getOutFor(17)), "<null>");
  // unitary operands: 0 matrix, 1-2 targets.
  GateView u = gate("unitary");
  EXPECT_EQ(nameOf(u.getOutFor(0)), "<null>");
  EXPECT_EQ(nameOf(u.getOutFor(1)), "unitary#0");
  EXPECT_EQ(nameOf(u.getOutFor(2)), "unitary#1");
  // paulirot operands: 0 angle, 1-2 targets, 3 control, 4 control value.
  GateView pr = gate("paulirot");
  EXPECT_EQ(nameOf(pr.getOutFor(2)), "paulirot#1");
  EXPECT_EQ(nameOf(pr.getOutFor(3)), "paulirot#2");
  EXPECT_EQ(nameOf(pr.getOutFor(4)), "<null>");
  // gphase operands: 0 angle, 1 control, 2 control value.
  GateView gp = gate("gphase_ctrl");
  EXPECT_EQ(nameOf(gp.getOutFor(0)), "<null>");
  EXPECT_EQ(nameOf(gp.getOutFor(1)), "gphase_ctrl#0");
  EXPECT_EQ(nameOf(gp.getOutFor(2)), "<null>");
  // Every qubit result is reachable from exactly the operand it replaces.
  for (StringRef tag :
       {"h", "rot", "cnot", "crx", "paulirot", "multirz", "pcphase", "unitary", "gphase_ctrl"}) {
    Operation *o = op(tag);
    GateView g = gate(tag);
    unsigned found = 0;
    for (unsigned i = 0; i < o->getNumOperands(); ++i)
      if (Value out = g.getOutFor(i)) {
        EXPECT_EQ(out.getType(), o->getOperand(i).getType()) << tag.str();
        ++found;
      }
    EXPECT_EQ(found, o->getNumResults()) << tag.str();
  }
}

TEST_P(GateViewHostTest, OperatorInBothModes) {
  Parsed ops = parse(GetParam(), kOperators);
  ASSERT_TRUE(ops.module);
  if (GetParam() == Host::Registered)
    EXPECT_TRUE(succeeded(verify(*ops.module)));
  Operation *q = ops.op("op_qubits"), *r = ops.op("op_reg");
  for (Operation *o : {q, r}) {
    EXPECT_EQ(classify(o), QOpKind::Gate);
    // Catalyst declares it free of memory effects: its qubits or register
    // order it.
    EXPECT_FALSE(isOrdered(o));
    // No runtime function: it must be decomposed before lowering.
    EXPECT_EQ(getRuntimeFunction(o), "");
  }
  std::optional<GateView> g = GateView::get(q);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->getGateName(), "MyOp");
  EXPECT_EQ(namesOf(g->getParams()), "%arg0,%arg1");
  EXPECT_EQ(namesOf(g->getForwardArgs()), "%arg2");
  EXPECT_EQ(namesOf(g->getInQubits()), "%arg3");
  EXPECT_EQ(namesOf(g->getOutQubits()), "op_qubits#0");
  EXPECT_EQ(namesOf(g->getCtrlQubits()), "%arg4");
  EXPECT_EQ(namesOf(g->getCtrlValues()), "%arg5");
  EXPECT_EQ(namesOf(g->getOutCtrlQubits()), "op_qubits#1");
  EXPECT_TRUE(g->isAdjoint());
  EXPECT_FALSE(g->getMatrix());
  EXPECT_FALSE(g->getInRegister());
  EXPECT_FALSE(g->getOutRegister());
  EXPECT_TRUE(g->getIndexArrays().empty());
  // operands: 0-1 params, 2 forwarded, 3 target, 4 control, 5 control value.
  EXPECT_EQ(nameOf(g->getOutFor(2)), "<null>");
  EXPECT_EQ(nameOf(g->getOutFor(3)), "op_qubits#0");
  EXPECT_EQ(nameOf(g->getOutFor(4)), "op_qubits#1");
  EXPECT_EQ(nameOf(g->getOutFor(5)), "<null>");

  std::optional<GateView> rg = GateView::get(r);
  ASSERT_TRUE(rg);
  EXPECT_EQ(rg->getGateName(), "RegOp");
  EXPECT_FALSE(rg->isAdjoint());
  EXPECT_TRUE(rg->getParams().empty());
  EXPECT_TRUE(rg->getInQubits().empty());
  EXPECT_TRUE(rg->getOutQubits().empty());
  EXPECT_TRUE(rg->getCtrlQubits().empty());
  EXPECT_EQ(nameOf(rg->getInRegister()), "%arg6");
  EXPECT_EQ(nameOf(rg->getOutRegister()), "op_reg#0");
  EXPECT_EQ(namesOf(rg->getIndexArrays()), "%arg7,%arg8");
  EXPECT_EQ(nameOf(rg->getCtrlIndexArray()), "%arg8");
  EXPECT_EQ(nameOf(rg->getCtrlValueArray()), "%arg9");
  EXPECT_TRUE(g->isControlled());
  EXPECT_TRUE(rg->isControlled());
  EXPECT_FALSE(gate("h").isControlled());
  EXPECT_TRUE(gate("crx").isControlled());
  // The register is not a qubit: no qubit result carries it.
  EXPECT_EQ(nameOf(rg->getOutFor(0)), "<null>");

  // The other gates have none of the operator's groups.
  EXPECT_TRUE(gate("crx").getForwardArgs().empty());
  EXPECT_FALSE(gate("crx").getInRegister());
  EXPECT_FALSE(gate("unitary").getCtrlIndexArray());
}

TEST_P(GateViewHostTest, GroupsByRole) {
  // With segment sizes.
  Operation *crx = op("crx");
  EXPECT_EQ(namesOf(getOperandGroup(crx, OpRole::Params)), "%arg0");
  EXPECT_EQ(namesOf(getOperandGroup(crx, OpRole::CtrlQubits)), "cnot#1,extract2#0");
  EXPECT_EQ(namesOf(getOperandGroup(crx, OpRole::Matrix)), ""); // not a group of custom
  EXPECT_EQ(namesOf(getResultGroup(crx, OpRole::CtrlQubits)), "crx#1,crx#2");
  EXPECT_EQ(namesOf(getResultGroup(crx, OpRole::Params)), "");
  Operation *ctrl = op("ctrl");
  EXPECT_EQ(namesOf(getOperandGroup(ctrl, OpRole::Args)), "alloc_qb#0");
  EXPECT_EQ(namesOf(getResultGroup(ctrl, OpRole::Args)), "ctrl#1");
  // Without: one variadic group takes what the single ones leave.
  Operation *tensor = op("tensor");
  EXPECT_EQ(namesOf(getOperandGroup(tensor, OpRole::Terms)), "namedobs#0,compbasis#0");
  Operation *insertDyn = op("insert_dyn");
  EXPECT_EQ(namesOf(getOperandGroup(insertDyn, OpRole::Register)), "insert#0");
  EXPECT_EQ(namesOf(getOperandGroup(insertDyn, OpRole::Index)), "%arg2");
  EXPECT_EQ(namesOf(getOperandGroup(insertDyn, OpRole::Qubit)), "unitary#1");
  EXPECT_EQ(namesOf(getOperandGroup(op("insert"), OpRole::Index)), "");
  EXPECT_EQ(namesOf(getResultGroup(op("measure"), OpRole::Bit)), "measure#0");
  EXPECT_EQ(namesOf(getResultGroup(op("measure"), OpRole::Qubit)), "measure#1");
  // Ops outside the table have no groups.
  EXPECT_EQ(namesOf(getOperandGroup(op("unknown"), OpRole::Register)), "");
}

TEST_P(GateViewHostTest, RuntimeFunctions) {
  EXPECT_EQ(getRuntimeFunction(op("rot")), "__catalyst__qis__Rot");
  EXPECT_EQ(getRuntimeFunction(op("paulirot")), "__catalyst__qis__PauliRot");
  EXPECT_EQ(getRuntimeFunction(op("alloc")), "__catalyst__rt__qubit_allocate_array");
  EXPECT_EQ(getRuntimeFunction(op("expval")), "__catalyst__qis__Expval");
  EXPECT_EQ(getRuntimeFunction(op("adj_yield")), "");
  EXPECT_EQ(getRuntimeFunction(op("insert")), "");
  EXPECT_EQ(getRuntimeFunction(op("unknown")), "");
}

//===----------------------------------------------------------------------===//
// Register access and allocation
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, RegisterAccess) {
  std::optional<RegisterAccess> e = RegisterAccess::get(op("extract"));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->op, op("extract"));
  EXPECT_FALSE(e->isInsert);
  EXPECT_EQ(nameOf(e->reg), "%arg1");
  EXPECT_EQ(e->staticIdx, std::optional<int64_t>(0));
  EXPECT_FALSE(e->dynamicIdx);
  EXPECT_EQ(nameOf(e->qubit), "extract#0");
  EXPECT_EQ(nameOf(e->result), "extract#0");

  std::optional<RegisterAccess> ed = RegisterAccess::get(op("extract_dyn"));
  ASSERT_TRUE(ed);
  EXPECT_EQ(ed->staticIdx, std::nullopt);
  EXPECT_EQ(nameOf(ed->dynamicIdx), "%arg2");
  EXPECT_EQ(nameOf(ed->qubit), "extract_dyn#0");

  std::optional<RegisterAccess> i = RegisterAccess::get(op("insert"));
  ASSERT_TRUE(i);
  EXPECT_TRUE(i->isInsert);
  EXPECT_EQ(nameOf(i->reg), "%arg1");
  EXPECT_EQ(i->staticIdx, std::optional<int64_t>(0));
  EXPECT_FALSE(i->dynamicIdx);
  EXPECT_EQ(nameOf(i->qubit), "unitary#0"); // the inserted qubit
  EXPECT_EQ(nameOf(i->result), "insert#0"); // the new register

  std::optional<RegisterAccess> id = RegisterAccess::get(op("insert_dyn"));
  ASSERT_TRUE(id);
  EXPECT_EQ(nameOf(id->reg), "insert#0");
  EXPECT_EQ(id->staticIdx, std::nullopt);
  EXPECT_EQ(nameOf(id->dynamicIdx), "%arg2");
  EXPECT_EQ(nameOf(id->qubit), "unitary#1");
  EXPECT_EQ(nameOf(id->result), "insert_dyn#0");

  std::optional<RegisterAccess> inner = RegisterAccess::get(op("adj_extract"));
  ASSERT_TRUE(inner);
  EXPECT_EQ(nameOf(inner->reg), "%adjoint.arg0");

  for (StringRef tag : {"h", "alloc", "dealloc", "namedobs", "const", "unknown"})
    EXPECT_FALSE(RegisterAccess::get(op(tag))) << tag.str();
}

// The wire an access names: static, or a non-negative constant operand.
TEST_P(GateViewHostTest, RegisterAccessWire) {
  constexpr llvm::StringLiteral kWires = R"mlir(
"builtin.module"() ({
  "func.func"() <{function_type = (!quantum.reg, i64) -> (), sym_name = "wires"}> ({
  ^bb0(%arg0: !quantum.reg, %arg1: i64):
    %c2 = "arith.constant"() <{value = 2 : i64}> : () -> i64
    %cm1 = "arith.constant"() <{value = -1 : i64}> : () -> i64
    %0 = "quantum.extract"(%arg0) <{idx_attr = 1 : i64}> {tag = "static"} : (!quantum.reg) -> !quantum.bit
    %1 = "quantum.extract"(%arg0, %c2) {tag = "constant"} : (!quantum.reg, i64) -> !quantum.bit
    %2 = "quantum.extract"(%arg0, %cm1) {tag = "negative"} : (!quantum.reg, i64) -> !quantum.bit
    %3 = "quantum.extract"(%arg0, %arg1) {tag = "computed"} : (!quantum.reg, i64) -> !quantum.bit
    %4 = "quantum.insert"(%arg0, %c2, %1) {tag = "insert"} : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
)mlir";
  std::unique_ptr<MLIRContext> ctx = makeContext(GetParam());
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kWires, ParserConfig(ctx.get()));
  ASSERT_TRUE(module);
  std::map<std::string, std::optional<int64_t>> wires;
  module->walk([&](Operation *o) {
    if (std::optional<RegisterAccess> a = RegisterAccess::get(o))
      wires[tagOf(o).str()] = a->wire();
  });
  std::map<std::string, std::optional<int64_t>> want = {{"static", 1},
                                                        {"constant", 2},
                                                        {"negative", std::nullopt},
                                                        {"computed", std::nullopt},
                                                        {"insert", 2}};
  EXPECT_EQ(wires, want);
}

TEST_P(GateViewHostTest, AllocSize) {
  EXPECT_EQ(getAllocSize(op("alloc")), std::optional<int64_t>(3));
  EXPECT_EQ(getAllocSize(op("alloc_dyn")), std::nullopt);
  EXPECT_EQ(getAllocSize(op("alloc_qb")), std::nullopt);
  EXPECT_EQ(getAllocSize(op("h")), std::nullopt);
}

//===----------------------------------------------------------------------===//
// isOrdered
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, IsOrdered) {
  // Value semantics: order is carried by SSA values only.
  for (StringRef tag :
       {"h",        "rot",       "cnot",      "crx",         "paulirot", "multirz",
        "pcphase",  "unitary",   "extract",   "extract_dyn", "insert",   "insert_dyn",
        "namedobs", "compbasis", "tensor",    "adj_yield",   "adjoint",  "ctrl",
        "ctrl_h",   "const",     "for_gates", "return"})
    EXPECT_FALSE(isOrdered(op(tag))) << tag.str();
  // Side effects (or unknown effects): must keep their order.
  for (StringRef tag :
       {"device", "device_release", "alloc", "alloc_dyn", "alloc_qb", "dealloc", "gphase",
        "gphase_ctrl", "measure", "expval", "adjoint_phase", "for_measure", "unknown"})
    EXPECT_TRUE(isOrdered(op(tag))) << tag.str();
}

//===----------------------------------------------------------------------===//
// setStaticIndex
//===----------------------------------------------------------------------===//

TEST_P(GateViewHostTest, SetStaticIndex) {
  for (StringRef tag : {"extract_dyn", "insert_dyn"}) {
    Operation *o = op(tag);
    unsigned before = o->getNumOperands();
    setStaticIndex(o, 5);
    EXPECT_EQ(o->getNumOperands(), before - 1) << tag.str();
    std::optional<RegisterAccess> a = RegisterAccess::get(o);
    ASSERT_TRUE(a) << tag.str();
    EXPECT_EQ(a->staticIdx, std::optional<int64_t>(5)) << tag.str();
    EXPECT_FALSE(a->dynamicIdx) << tag.str();
  }
  EXPECT_EQ(nameOf(RegisterAccess::get(op("insert_dyn"))->qubit), "unitary#1");
  if (GetParam() == Host::Registered)
    EXPECT_TRUE(succeeded(verify(*p.module)));
  // Not an access op: nothing happens.
  setStaticIndex(op("h"), 1);
  EXPECT_FALSE(op("h")->hasAttr("idx_attr"));
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral kEmpty = R"mlir(
"func.func"() <{function_type = (!quantum.reg, i64, f64, i1) -> (), sym_name = "b"}> ({
^bb0(%arg0: !quantum.reg, %arg1: i64, %arg2: f64, %arg3: i1):
  "func.return"() : () -> ()
}) : () -> ()
)mlir";

/// Builds extract (static and dynamic), a controlled adjoint gate and insert
/// (static and dynamic) in front of the return of kEmpty, and prints the module.
std::string buildAll(Parsed &p, OpPrintingFlags flags = {}) {
  func::FuncOp fn = p.func();
  OpBuilder b(p.ctx.get());
  b.setInsertionPoint(fn.getBody().front().getTerminator());
  Location loc = b.getUnknownLoc();
  Value reg = fn.getArgument(0), idx = fn.getArgument(1), theta = fn.getArgument(2),
        on = fn.getArgument(3);
  Operation *e0 = buildExtract(b, loc, reg, IndexSpec::ofStatic(0));
  Operation *e1 = buildExtract(b, loc, reg, IndexSpec::ofDynamic(idx));
  CustomGateSpec spec;
  spec.gateName = "RX";
  spec.params = {theta};
  spec.qubits = {e0->getResult(0)};
  spec.ctrlQubits = {e1->getResult(0)};
  spec.ctrlValues = {on};
  spec.adjoint = true;
  Operation *g = buildCustomGate(b, loc, spec);
  CustomGateSpec h;
  h.gateName = "Hadamard";
  h.qubits = {g->getResult(0)};
  Operation *hg = buildCustomGate(b, loc, h);
  Operation *i0 = buildInsert(b, loc, reg, IndexSpec::ofStatic(0), hg->getResult(0));
  buildInsert(b, loc, i0->getResult(0), IndexSpec::ofDynamic(idx), g->getResult(1));
  std::string s;
  llvm::raw_string_ostream os(s);
  p.module->print(os, flags);
  return s;
}

TEST(GateViewBuilders, RegisteredHostBuildsVerifiedQShapeOps) {
  Parsed p = parse(Host::Registered, kEmpty);
  ASSERT_TRUE(p.module);
  std::string text = buildAll(p);
  EXPECT_TRUE(succeeded(verify(*p.module)));
  p.module->walk([](Operation *op) {
    if (classify(op) != QOpKind::NotQuantum)
      EXPECT_TRUE(op->isRegistered()) << op->getName().getStringRef().str();
  });
  EXPECT_EQ(getQubitType(p.ctx.get()), parseType("!quantum.bit", p.ctx.get()));
  EXPECT_EQ(getQuregType(p.ctx.get()), parseType("!quantum.reg", p.ctx.get()));
  EXPECT_EQ(text, R"mlir(module {
  func.func @b(%arg0: !quantum.reg, %arg1: i64, %arg2: f64, %arg3: i1) {
    %0 = quantum.extract %arg0[ 0] : !quantum.reg -> !quantum.bit
    %1 = quantum.extract %arg0[%arg1] : !quantum.reg -> !quantum.bit
    %out_qubits, %out_ctrl_qubits = quantum.custom "RX"(%arg2) %0 adj ctrls(%1) ctrlvals(%arg3) : !quantum.bit ctrls !quantum.bit
    %out_qubits_0 = quantum.custom "Hadamard"() %out_qubits : !quantum.bit
    %2 = quantum.insert %arg0[ 0], %out_qubits_0 : !quantum.reg, !quantum.bit
    %3 = quantum.insert %2[%arg1], %out_ctrl_qubits : !quantum.reg, !quantum.bit
    return
  }
}
)mlir");
}

TEST(GateViewBuilders, UnregisteredHostBuildsOpsCatalystCanRead) {
  Parsed p = parse(Host::Unregistered, kEmpty);
  ASSERT_TRUE(p.module);
  std::string text = buildAll(p);
  p.module->walk([](Operation *op) {
    if (classify(op) != QOpKind::NotQuantum)
      EXPECT_FALSE(op->isRegistered()) << op->getName().getStringRef().str();
  });
  EXPECT_EQ(text, R"mlir(module {
  func.func @b(%arg0: !quantum.reg, %arg1: i64, %arg2: f64, %arg3: i1) {
    %0 = "quantum.extract"(%arg0) {idx_attr = 0 : i64} : (!quantum.reg) -> !quantum.bit
    %1 = "quantum.extract"(%arg0, %arg1) : (!quantum.reg, i64) -> !quantum.bit
    %2:2 = "quantum.custom"(%arg2, %0, %1, %arg3) {adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>} : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
    %3 = "quantum.custom"(%2#0) {gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>} : (!quantum.bit) -> !quantum.bit
    %4 = "quantum.insert"(%arg0, %3) {idx_attr = 0 : i64} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %5 = "quantum.insert"(%4, %arg1, %2#1) : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
    return
  }
}
)mlir");

  // What the unregistered host wrote is valid IR for a host with the
  // dialect, and identical to what that host builds itself.
  Parsed reg = parse(Host::Registered, kEmpty);
  ASSERT_TRUE(reg.module);
  std::string expected = buildAll(reg);
  std::unique_ptr<MLIRContext> ctx = makeContext(Host::Registered);
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(text, ParserConfig(ctx.get()));
  ASSERT_TRUE(reparsed);
  EXPECT_TRUE(succeeded(verify(*reparsed)));
  std::string again;
  llvm::raw_string_ostream os(again);
  reparsed->print(os);
  EXPECT_EQ(again, expected);
}

TEST_P(GateViewHostTest, BuiltOpsReadBackThroughTheView) {
  Parsed b = parse(GetParam(), kEmpty);
  ASSERT_TRUE(b.module);
  buildAll(b);
  SmallVector<Operation *> ops;
  b.func().walk([&](Operation *op) {
    if (classify(op) != QOpKind::NotQuantum)
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(RegisterAccess::get(ops[0])->staticIdx, std::optional<int64_t>(0));
  EXPECT_EQ(RegisterAccess::get(ops[1])->dynamicIdx, b.func().getArgument(1));
  std::optional<GateView> g = GateView::get(ops[2]);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->getGateName(), "RX");
  EXPECT_TRUE(g->isAdjoint());
  EXPECT_EQ(g->getParams().size(), 1u);
  EXPECT_EQ(g->getInQubits()[0], ops[0]->getResult(0));
  EXPECT_EQ(g->getCtrlQubits()[0], ops[1]->getResult(0));
  EXPECT_EQ(g->getCtrlValues()[0], b.func().getArgument(3));
  EXPECT_EQ(g->getOutFor(2), g->getOutCtrlQubits()[0]);
  EXPECT_FALSE(GateView::get(ops[3])->isAdjoint());
  std::optional<RegisterAccess> ins = RegisterAccess::get(ops[5]);
  ASSERT_TRUE(ins);
  EXPECT_TRUE(ins->isInsert);
  EXPECT_EQ(ins->qubit, g->getOutCtrlQubits()[0]);
  EXPECT_EQ(ins->dynamicIdx, b.func().getArgument(1));
}

//===----------------------------------------------------------------------===//
// Both hosts give identical answers for every op.
//===----------------------------------------------------------------------===//

TEST(GateViewCrossHost, IdenticalAnswersForEveryOp) {
  Parsed reg = parse(Host::Registered), unreg = parse(Host::Unregistered);
  ASSERT_TRUE(reg.module);
  ASSERT_TRUE(unreg.module);
  SmallVector<std::string> a, b;
  reg.module->walk([&](Operation *op) { a.push_back(describe(op)); });
  unreg.module->walk([&](Operation *op) { b.push_back(describe(op)); });
  ASSERT_EQ(a.size(), b.size());
  unsigned gates = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i], b[i]);
    gates += StringRef(a[i]).contains(" gate=");
  }
  // The comparison covered the gates (a view that sees nothing would pass).
  EXPECT_EQ(gates, 14u);

  Parsed regOps = parse(Host::Registered, kOperators),
         unregOps = parse(Host::Unregistered, kOperators);
  ASSERT_TRUE(regOps.module);
  ASSERT_TRUE(unregOps.module);
  for (StringRef tag : {"op_qubits", "op_reg"}) {
    EXPECT_EQ(describe(regOps.op(tag)), describe(unregOps.op(tag)));
    EXPECT_TRUE(StringRef(describe(regOps.op(tag))).contains(" gate=")) << tag.str();
  }
}

INSTANTIATE_TEST_SUITE_P(Hosts, GateViewHostTest,
                         ::testing::Values(Host::Registered, Host::Unregistered),
                         [](const ::testing::TestParamInfo<Host> &info) {
                           return hostName(info.param);
                         });

} // namespace
