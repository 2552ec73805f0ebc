//===- QRefTypes.td - qref dialect types ----------------------*- tablegen -*-===//

#ifndef QSHAPE_DIALECT_QREF_TYPES
#define QSHAPE_DIALECT_QREF_TYPES

include "mlir/IR/AttrTypeBase.td"
include "qshape/Dialect/QRef/IR/QRefDialect.td"

class QRef_Type<string name, string typeMnemonic, string doc>
    : TypeDef<QRef_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
}

def QRef_QubitType : QRef_Type<"Qubit", "bit", "a reference to a qubit">;

// `!qref.reg<N>` or `!qref.reg<?>`. The size is an i64 attribute holding N or
// ShapedType::kDynamic, as in Catalyst; a missing size (only a C++ builder
// can make one) counts as dynamic.
def QRef_QuregType : QRef_Type<"Qureg", "reg", "a register of qubit references"> {
  let parameters = (ins OptionalParameter<"mlir::IntegerAttr">:$size);
  let assemblyFormat = "`<` custom<QuregSize>($size) `>`";
  let extraClassDeclaration = [{
    bool isStatic() const {
      return getSize() && getSize().getInt() != mlir::ShapedType::kDynamic;
    }
    bool isDynamic() const { return !isStatic(); }
  }];
}

#endif // QSHAPE_DIALECT_QREF_TYPES
