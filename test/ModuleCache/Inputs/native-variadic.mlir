// Input of cache-staged-native.test: a lowered module with a variadic
// function, which a plain forwarder could not call.
module {
  llvm.func @log(%arg0: i32, ...) {
    llvm.return
  }
}
