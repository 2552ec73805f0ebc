//===- QRefDialect.cpp - qref dialect registration and types --------------===//

#include "qshape/Dialect/QRef/IR/QRefDialect.h"
#include "qshape/Dialect/QRef/IR/QRefOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace qshape::qref;

#include "qshape/Dialect/QRef/IR/QRefOpsDialect.cpp.inc"

/// The size of `!qref.reg<...>`: `?` (stored as ShapedType::kDynamic, as
/// Catalyst stores it) or a non-negative integer.
static ParseResult parseQuregSize(AsmParser &parser, IntegerAttr &size) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalQuestion())) {
    size = b.getI64IntegerAttr(ShapedType::kDynamic);
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  int64_t n = 0;
  if (parser.parseInteger(n))
    return failure();
  if (n < 0)
    return parser.emitError(loc, "Static allocation size must be non-negative");
  size = b.getI64IntegerAttr(n);
  return success();
}

static void printQuregSize(AsmPrinter &printer, IntegerAttr size) {
  if (size && size.getInt() >= 0)
    printer << size.getInt();
  else
    printer << '?';
}

#define GET_TYPEDEF_CLASSES
#include "qshape/Dialect/QRef/IR/QRefOpsTypes.cpp.inc"

void QRefDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "qshape/Dialect/QRef/IR/QRefOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "qshape/Dialect/QRef/IR/QRefOps.cpp.inc"
      >();
}
