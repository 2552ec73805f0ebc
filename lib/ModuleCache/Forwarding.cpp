//===- Forwarding.cpp - the module that loads and calls a carried library -===//

#include "qshape/ModuleCache/Forwarding.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace qshape::modulecache {

/// The loader, the same for every library (its blob and size are arguments).
/// __qshape_forward_symbol(blob, size, name) returns the library's function
/// `name`, loading the library on the first call; any failure is reported
/// on stderr and aborts, since the program cannot run without its code.
static constexpr llvm::StringLiteral kLoader = R"mlir(
llvm.func @memfd_create(!llvm.ptr, i32) -> i32
llvm.func @write(i32, !llvm.ptr, i64) -> i64
llvm.func @close(i32) -> i32
llvm.func @dlopen(!llvm.ptr, i32) -> !llvm.ptr
llvm.func @dlsym(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
llvm.func @dlerror() -> !llvm.ptr
llvm.func @__errno_location() -> !llvm.ptr
llvm.func @strerror(i32) -> !llvm.ptr
llvm.func @snprintf(!llvm.ptr, i64, !llvm.ptr, ...) -> i32
llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
llvm.func @abort()
llvm.mlir.global internal @__qshape_forward_handle() : !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.global private constant @__qshape_forward_memfd_name("qshape-cached-library\00")
llvm.mlir.global private constant @__qshape_forward_fd_path("/proc/self/fd/%d\00")
llvm.mlir.global private constant @__qshape_forward_error("qshape: cannot run this program's library from the compile cache: %s: %s\0A\00")
llvm.mlir.global private constant @__qshape_forward_memfd("memfd_create\00")
llvm.mlir.global private constant @__qshape_forward_write("write\00")
llvm.mlir.global private constant @__qshape_forward_dlopen("dlopen\00")
llvm.func internal @__qshape_forward_fail(%what: !llvm.ptr, %detail: !llvm.ptr) {
  %fmt = llvm.mlir.addressof @__qshape_forward_error : !llvm.ptr
  %stderr = llvm.mlir.constant(2 : i32) : i32
  %0 = llvm.call @dprintf(%stderr, %fmt, %what, %detail) vararg(!llvm.func<i32 (i32, ptr, ...)>) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  llvm.call @abort() : () -> ()
  llvm.unreachable
}
llvm.func internal @__qshape_forward_fail_errno(%what: !llvm.ptr) {
  %errno = llvm.call @__errno_location() : () -> !llvm.ptr
  %code = llvm.load %errno : !llvm.ptr -> i32
  %text = llvm.call @strerror(%code) : (i32) -> !llvm.ptr
  llvm.call @__qshape_forward_fail(%what, %text) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.unreachable
}
llvm.func internal @__qshape_forward_open(%blob: !llvm.ptr, %size: i64) -> !llvm.ptr {
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %path = llvm.alloca %c64 x i8 : (i64) -> !llvm.ptr
  %zero32 = llvm.mlir.constant(0 : i32) : i32
  %zero64 = llvm.mlir.constant(0 : i64) : i64
  %cloexec = llvm.mlir.constant(1 : i32) : i32
  %name = llvm.mlir.addressof @__qshape_forward_memfd_name : !llvm.ptr
  %fd = llvm.call @memfd_create(%name, %cloexec) : (!llvm.ptr, i32) -> i32
  %noFd = llvm.icmp "slt" %fd, %zero32 : i32
  llvm.cond_br %noFd, ^memfdFailed, ^write(%zero64 : i64)
^write(%done: i64):
  %more = llvm.icmp "ult" %done, %size : i64
  llvm.cond_br %more, ^chunk, ^load
^chunk:
  %from = llvm.getelementptr %blob[%done] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %left = llvm.sub %size, %done : i64
  %n = llvm.call @write(%fd, %from, %left) : (i32, !llvm.ptr, i64) -> i64
  %wrote = llvm.icmp "sgt" %n, %zero64 : i64
  %next = llvm.add %done, %n : i64
  llvm.cond_br %wrote, ^write(%next : i64), ^writeFailed
^load:
  %fmt = llvm.mlir.addressof @__qshape_forward_fd_path : !llvm.ptr
  %1 = llvm.call @snprintf(%path, %c64, %fmt, %fd) vararg(!llvm.func<i32 (ptr, i64, ptr, ...)>) : (!llvm.ptr, i64, !llvm.ptr, i32) -> i32
  %now = llvm.mlir.constant(2 : i32) : i32
  %handle = llvm.call @dlopen(%path, %now) : (!llvm.ptr, i32) -> !llvm.ptr
  %2 = llvm.call @close(%fd) : (i32) -> i32
  %null = llvm.mlir.zero : !llvm.ptr
  %notLoaded = llvm.icmp "eq" %handle, %null : !llvm.ptr
  llvm.cond_br %notLoaded, ^dlopenFailed, ^loaded
^loaded:
  llvm.return %handle : !llvm.ptr
^memfdFailed:
  %m = llvm.mlir.addressof @__qshape_forward_memfd : !llvm.ptr
  llvm.call @__qshape_forward_fail_errno(%m) : (!llvm.ptr) -> ()
  llvm.unreachable
^writeFailed:
  %w = llvm.mlir.addressof @__qshape_forward_write : !llvm.ptr
  llvm.call @__qshape_forward_fail_errno(%w) : (!llvm.ptr) -> ()
  llvm.unreachable
^dlopenFailed:
  %d = llvm.mlir.addressof @__qshape_forward_dlopen : !llvm.ptr
  %why = llvm.call @dlerror() : () -> !llvm.ptr
  llvm.call @__qshape_forward_fail(%d, %why) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.unreachable
}
llvm.func internal @__qshape_forward_symbol(%blob: !llvm.ptr, %size: i64, %name: !llvm.ptr) -> !llvm.ptr {
  %slot = llvm.mlir.addressof @__qshape_forward_handle : !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %known = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  %none = llvm.icmp "eq" %known, %null : !llvm.ptr
  llvm.cond_br %none, ^open, ^lookup(%known : !llvm.ptr)
^open:
  %opened = llvm.call @__qshape_forward_open(%blob, %size) : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.store %opened, %slot : !llvm.ptr, !llvm.ptr
  llvm.br ^lookup(%opened : !llvm.ptr)
^lookup(%handle: !llvm.ptr):
  %fn = llvm.call @dlsym(%handle, %name) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  %missing = llvm.icmp "eq" %fn, %null : !llvm.ptr
  llvm.cond_br %missing, ^missing, ^found
^found:
  llvm.return %fn : !llvm.ptr
^missing:
  %why = llvm.call @dlerror() : () -> !llvm.ptr
  llvm.call @__qshape_forward_fail(%name, %why) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.unreachable
}
)mlir";

static constexpr llvm::StringLiteral kLibrarySymbol = "__qshape_forward_library";

/// Argument attributes that change how a value is passed: a plain
/// indirect call would not pass it the same way.
static bool changesCallingConvention(DictionaryAttr attrs) {
  if (!attrs)
    return false;
  for (StringRef name : {"llvm.byval", "llvm.byref", "llvm.sret", "llvm.inalloca",
                         "llvm.preallocated", "llvm.inreg", "llvm.signext", "llvm.zeroext"})
    if (attrs.contains(name))
      return true;
  return false;
}

/// The names the loader defines or declares.
static const llvm::StringSet<> &loaderSymbols() {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set{kLibrarySymbol};
    for (StringRef line : llvm::split(kLoader, '\n')) {
      size_t at = line.find('@');
      if (at == StringRef::npos || !line.starts_with("llvm."))
        continue;
      set.insert(line.substr(at + 1).take_until([](char c) { return c == '(' || c == ' '; }));
    }
    return set;
  }();
  return names;
}

static std::string forwardedName(unsigned index) {
  return "__qshape_forward_name_" + std::to_string(index);
}

FailureOr<std::vector<std::string>> forwardedFunctions(ModuleOp module, std::string &why) {
  std::vector<std::string> names;
  for (Operation &op : module.getBody()->getOperations()) {
    if (op.getDialect() == nullptr || op.getDialect()->getNamespace() != "llvm") {
      why = "the module holds '" + op.getName().getStringRef().str() +
            "', which is not in the LLVM dialect";
      return failure();
    }
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!fn || fn.isExternal() || fn.getLinkage() != LLVM::Linkage::External)
      continue;
    if (fn.isVarArg()) {
      why = "@" + fn.getName().str() + " is variadic";
      return failure();
    }
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      if (changesCallingConvention(fn.getArgAttrDict(i))) {
        why = "an argument of @" + fn.getName().str() + " is passed in a special way";
        return failure();
      }
    if (loaderSymbols().contains(fn.getName()) || fn.getName().starts_with("__qshape_forward_")) {
      why = "@" + fn.getName().str() + " is a name the loader uses";
      return failure();
    }
    names.push_back(fn.getName().str());
  }
  if (names.empty()) {
    why = "the module defines no function to forward";
    return failure();
  }
  return names;
}

/// A forwarder: `name`, of `type`, calling the library's `name`.
static void buildForwarder(OpBuilder &b, Location loc, StringRef name, LLVM::LLVMFunctionType type,
                           StringRef nameGlobal, uint64_t size) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, name, type);
  Block *entry = fn.addEntryBlock(b);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  Value blob = LLVM::AddressOfOp::create(b, loc, ptr, kLibrarySymbol);
  Value bytes = LLVM::ConstantOp::create(b, loc, b.getI64Type(), static_cast<int64_t>(size));
  Value symbol = LLVM::AddressOfOp::create(b, loc, ptr, nameGlobal);
  Value callee = LLVM::CallOp::create(b, loc, TypeRange{ptr}, "__qshape_forward_symbol",
                                      ValueRange{blob, bytes, symbol})
                     .getResult();
  SmallVector<Value> operands{callee};
  llvm::append_range(operands, entry->getArguments());
  auto call = LLVM::CallOp::create(b, loc, type, operands);
  LLVM::ReturnOp::create(b, loc, call.getResults());
}

void installForwardingModule(ModuleOp module, ArrayRef<std::string> functions, StringRef library) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  SmallVector<LLVM::LLVMFunctionType> types;
  for (const std::string &name : functions)
    types.push_back(module.lookupSymbol<LLVM::LLVMFuncOp>(name).getFunctionType());
  module.getBody()->clear();

  OwningOpRef<ModuleOp> loader = parseSourceString<ModuleOp>(kLoader, ctx, "qshape-forwarding");
  assert(loader && "the loader's text parses");
  module.getBody()->getOperations().splice(module.getBody()->end(),
                                           loader->getBody()->getOperations());
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto i8 = IntegerType::get(ctx, 8);
  LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(i8, library.size()),
                         /*isConstant=*/true, LLVM::Linkage::Private, kLibrarySymbol,
                         b.getStringAttr(library));
  for (auto [index, name] : llvm::enumerate(functions)) {
    std::string text = name + '\0';
    std::string global = forwardedName(index);
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(i8, text.size()),
                           /*isConstant=*/true, LLVM::Linkage::Private, global,
                           b.getStringAttr(text));
    buildForwarder(b, loc, name, types[index], global, library.size());
  }
}

} // namespace qshape::modulecache
