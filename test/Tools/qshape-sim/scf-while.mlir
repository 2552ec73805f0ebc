// scf.while: apply RX(pi/8) until the accumulated angle reaches pi; the
// loop runs 8 times, ending in RX(pi)|0> = -i|1>. Also a while loop that
// never enters its body.

// RUN: qshape-sim %s --entry until_pi --decimals 12 | FileCheck %s --check-prefix=PI
// RUN: qshape-sim %s --entry zero_trips | FileCheck %s --check-prefix=ZERO

// PI: {"results": [-1.0, 8]}
func.func @until_pi() -> (f64, i64) {
  %step = arith.constant 0.39269908169872414 : f64
  %limit = arith.constant 3.1 : f64
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %qf, %af, %nf = scf.while (%qa = %q, %a = %zero, %n = %c0) : (!quantum.bit, f64, i64) -> (!quantum.bit, f64, i64) {
    %go = arith.cmpf olt, %a, %limit : f64
    scf.condition(%go) %qa, %a, %n : !quantum.bit, f64, i64
  } do {
  ^bb0(%qb: !quantum.bit, %b: f64, %m: i64):
    %qb1 = quantum.custom "RX"(%step) %qb : !quantum.bit
    %b1 = arith.addf %b, %step : f64
    %m1 = arith.addi %m, %c1 : i64
    scf.yield %qb1, %b1, %m1 : !quantum.bit, f64, i64
  }
  %z = quantum.namedobs %qf[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %e, %nf : f64, i64
}

// ZERO: {"results": [7]}
func.func @zero_trips() -> i32 {
  %c7 = arith.constant 7 : i32
  %res = scf.while (%x = %c7) : (i32) -> i32 {
    %false = arith.constant false
    scf.condition(%false) %x : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return %res : i32
}
