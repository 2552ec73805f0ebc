//===- QuantumDialect.cpp - quantum dialect registration ------------------===//

#include "qshape/Dialect/Quantum/IR/QuantumDialect.h"
#include "qshape/Dialect/Quantum/IR/QuantumOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace qshape::quantum;

#include "qshape/Dialect/Quantum/IR/QuantumOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumOpsTypes.cpp.inc"

#include "qshape/Dialect/Quantum/IR/QuantumEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumAttrs.cpp.inc"

void QuantumDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "qshape/Dialect/Quantum/IR/QuantumOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "qshape/Dialect/Quantum/IR/QuantumAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "qshape/Dialect/Quantum/IR/QuantumOps.cpp.inc"
      >();
}

/// `quantum.node` marks the QNode function (Catalyst's frontend sets it): a
/// unit attribute, on func.func only. Other `quantum.*` attributes are free.
LogicalResult QuantumDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != "quantum.node")
    return success();
  if (op->getName().getStringRef() != "func.func")
    return op->emitOpError() << "attribute '" << name << "' is only valid on 'func.func'";
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitOpError() << "attribute '" << name << "' must be a unit attribute";
  return success();
}
