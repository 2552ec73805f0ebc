// qshape-parse-fuzzer: a quantum.ctrl without targets printed `: !quantum.bit -> {`,
// which did not parse back (fixed on main by f857927, found here independently).
func.func @phase(%pi: f64, %true: i1, %c: !quantum.bit) -> f64 {
  %oc = "quantum.ctrl"(%c, %true) <{operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> ({
    quantum.gphase(%pi)
    quantum.yield
  }) : (!quantum.bit, i1) -> !quantum.bit
  %x = quantum.namedobs %oc[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}
