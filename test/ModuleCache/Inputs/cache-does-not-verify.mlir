// Parses but does not verify: cache-verify-hit.mlir plants it as an entry.
module @circuit {
  func.func @f(%arg0: f64) -> f64 {
    %c = arith.constant 1 : i32
    return %c : i32
  }
}
