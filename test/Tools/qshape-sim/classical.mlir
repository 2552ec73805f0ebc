// The classical ops around circuits: arith (integer widths wrap), math,
// index, complex, tensor ops and dense constants, and how results print.

// RUN: qshape-sim %s --entry integers | FileCheck %s --check-prefix=INT
// RUN: qshape-sim %s --entry floats --decimals 12 | FileCheck %s --check-prefix=FLOAT
// RUN: qshape-sim %s --entry complexes --decimals 12 | FileCheck %s --check-prefix=COMPLEX
// RUN: qshape-sim %s --entry tensors | FileCheck %s --check-prefix=TENSOR
// RUN: qshape-sim %s --entry index_ops | FileCheck %s --check-prefix=INDEX
// RUN: qshape-sim %s --entry bitcasts | FileCheck %s --check-prefix=BITCAST
// RUN: qshape-sim %s --entry branches --args '[3]' | FileCheck %s --check-prefix=BR3
// RUN: qshape-sim %s --entry branches --args '[-2]' | FileCheck %s --check-prefix=BRNEG

// -7 / 2 = -3, -7 % 2 = -1, floordiv = -4, ceildiv = -3; 200 + 100 in i8
// wraps to 44; 1 << 4 = 16; -16 >>s 2 = -4; -16 >>u 60 = 15 (i64);
// extui/extsi of i1 true: 1 / -1; trunci 300 to i8 = 44; cmpi ult -1, 1 is
// false (as unsigned, -1 is the largest); select; min/max; fptosi(-2.7) = -2.
// INT: {"results": [-3, -1, -4, -3, 44, 16, -4, 15, 1, -1, 44, false, true, 7, -7, 200, -2, 3]}
func.func @integers() -> (i64, i64, i64, i64, i8, i64, i64, i64, i32, i32, i8, i1, i1, i64, i64, i32, i64, i64) {
  %m7 = arith.constant -7 : i64
  %c2 = arith.constant 2 : i64
  %q = arith.divsi %m7, %c2 : i64
  %r = arith.remsi %m7, %c2 : i64
  %f = arith.floordivsi %m7, %c2 : i64
  %c = arith.ceildivsi %m7, %c2 : i64
  %a8 = arith.constant 200 : i8
  %b8 = arith.constant 100 : i8
  %s8 = arith.addi %a8, %b8 : i8
  %one = arith.constant 1 : i64
  %four = arith.constant 4 : i64
  %shl = arith.shli %one, %four : i64
  %m16 = arith.constant -16 : i64
  %sh2 = arith.constant 2 : i64
  %shrs = arith.shrsi %m16, %sh2 : i64
  %sh60 = arith.constant 60 : i64
  %shru = arith.shrui %m16, %sh60 : i64
  %true = arith.constant true
  %zu = arith.extui %true : i1 to i32
  %zs = arith.extsi %true : i1 to i32
  %c300 = arith.constant 300 : i32
  %t8 = arith.trunci %c300 : i32 to i8
  %m1 = arith.constant -1 : i64
  %lt = arith.cmpi ult, %m1, %one : i64
  %slt = arith.cmpi slt, %m1, %one : i64
  %c7 = arith.constant 7 : i64
  %sel = arith.select %slt, %c7, %m7 : i64
  %mn = arith.minsi %c7, %m7 : i64
  %u200 = arith.constant 200 : i32
  %u5 = arith.constant 5 : i32
  %mxu = arith.maxui %u200, %u5 : i32
  %fl = arith.constant -2.7 : f64
  %fi = arith.fptosi %fl : f64 to i64
  %x = arith.xori %c7, %four : i64
  return %q, %r, %f, %c, %s8, %shl, %shrs, %shru, %zu, %zs, %t8, %lt, %slt, %sel, %mn, %mxu, %fi, %x : i64, i64, i64, i64, i8, i64, i64, i64, i32, i32, i8, i1, i1, i64, i64, i32, i64, i64
}

// sqrt 2, sin(pi/6), atan2(1, 1), 2^3, log2 4, ln 2, exp 0, -0.5,
// 7.5 rem 2.5, maximumf, ceil 2.5, floor -2.5, sitofp, |-1.5|, f32 0.1.
// FLOAT: {"results": [1.414213562373, 0.5, 0.785398163397, 8.0, 2.0, 0.69314718056, 1.0, -0.5, 0.0, 0.1, 3.0, -3.0, 2.0, 1.5, 0.1]}
func.func @floats() -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f32) {
  %two = arith.constant 2.0 : f64
  %sqrt = math.sqrt %two : f64
  %pi6 = arith.constant 0.5235987755982988 : f64
  %sin = math.sin %pi6 : f64
  %one = arith.constant 1.0 : f64
  %atan = math.atan2 %one, %one : f64
  %three = arith.constant 3.0 : f64
  %pow = math.powf %two, %three : f64
  %four = arith.constant 4.0 : f64
  %log2 = math.log2 %four : f64
  %ln2 = math.log %two : f64
  %zero = arith.constant 0.0 : f64
  %exp = math.exp %zero : f64
  %half = arith.constant 0.5 : f64
  %neg = arith.negf %half : f64
  %x = arith.constant 7.5 : f64
  %y = arith.constant 2.5 : f64
  %rem = arith.remf %x, %y : f64
  %tenth = arith.constant 0.1 : f64
  %mx = arith.maximumf %tenth, %zero : f64
  %ceil = math.ceil %y : f64
  %my = arith.negf %y : f64
  %floor = math.floor %my : f64
  %i2 = arith.constant 2 : i32
  %fi = arith.sitofp %i2 : i32 to f64
  %m15 = arith.constant -1.5 : f64
  %abs = math.absf %m15 : f64
  %f32 = arith.truncf %tenth : f64 to f32
  return %sqrt, %sin, %atan, %pow, %log2, %ln2, %exp, %neg, %rem, %mx, %ceil, %floor, %fi, %abs, %f32 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f32
}

// exp(i pi) = -1; (1 + 2i)(3 - i) = 5 + 5i; |3 + 4i| = 5; conj; re/im;
// complex.constant; angle(i) = pi/2.
// COMPLEX: {"results": {{\[}}[-1.0, 0.0], [5.0, 5.0], 5.0, [1.0, -2.0], 1.0, 2.0, [0.0, 1.0], 1.570796326795]}
func.func @complexes() -> (complex<f64>, complex<f64>, f64, complex<f64>, f64, f64, complex<f64>, f64) {
  %zero = arith.constant 0.0 : f64
  %pi = arith.constant 3.141592653589793 : f64
  %ipi = complex.create %zero, %pi : complex<f64>
  %e = complex.exp %ipi : complex<f64>
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %mone = arith.constant -1.0 : f64
  %a = complex.create %one, %two : complex<f64>
  %b = complex.create %three, %mone : complex<f64>
  %ab = complex.mul %a, %b : complex<f64>
  %four = arith.constant 4.0 : f64
  %c = complex.create %three, %four : complex<f64>
  %abs = complex.abs %c : complex<f64>
  %conj = complex.conj %a : complex<f64>
  %re = complex.re %a : complex<f64>
  %im = complex.im %a : complex<f64>
  %i = complex.constant [0.0 : f64, 1.0 : f64] : complex<f64>
  %ang = complex.angle %i : complex<f64>
  return %e, %ab, %abs, %conj, %re, %im, %i, %ang : complex<f64>, complex<f64>, f64, complex<f64>, f64, f64, complex<f64>, f64
}

// from_elements (2x2, printed nested), extract/insert with 2 indices, splat,
// empty + dim, elementwise arith on tensors, dense and splat constants,
// collapse/expand, 0-d tensors printed as numbers, i1/i64 tensors.
// TENSOR: {"results": {{\[}}{{\[}}[1.0, 2.0], [3.0, 9.0]], 3.0, [7.0, 7.0, 7.0], 5, [11.0, 22.0, 33.0], [1.0, 2.0, 3.0, 9.0], 4.0, [true, false], {{\[}}[1, 2, 3]]]}
func.func @tensors() -> (tensor<2x2xf64>, f64, tensor<3xf64>, index, tensor<3xf64>, tensor<4xf64>, tensor<f64>, tensor<2xi1>, tensor<1x3xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.constant 1.0 : f64
  %b = arith.constant 2.0 : f64
  %c = arith.constant 3.0 : f64
  %d = arith.constant 4.0 : f64
  %t = tensor.from_elements %a, %b, %c, %d : tensor<2x2xf64>
  %nine = arith.constant 9.0 : f64
  %t2 = tensor.insert %nine into %t[%c1, %c1] : tensor<2x2xf64>
  %x = tensor.extract %t2[%c1, %c0] : tensor<2x2xf64>
  %seven = arith.constant 7.0 : f64
  %s = tensor.splat %seven : tensor<3xf64>
  %c5 = arith.constant 5 : index
  %e = tensor.empty(%c5) : tensor<?xf64>
  %dim = tensor.dim %e, %c0 : tensor<?xf64>
  %k = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf64>
  %j = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %sum = arith.addf %k, %j : tensor<3xf64>
  %flat = tensor.collapse_shape %t2 [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
  %zd = tensor.from_elements %d : tensor<f64>
  %bits = arith.constant dense<[true, false]> : tensor<2xi1>
  %ints = arith.constant dense<[1, 2, 3]> : tensor<3xi64>
  %ex = tensor.expand_shape %ints [[0, 1]] output_shape [1, 3] : tensor<3xi64> into tensor<1x3xi64>
  return %t2, %x, %s, %dim, %sum, %flat, %zd, %bits, %ex : tensor<2x2xf64>, f64, tensor<3xf64>, index, tensor<3xf64>, tensor<4xf64>, tensor<f64>, tensor<2xi1>, tensor<1x3xi64>
}

// INDEX: {"results": [12, 2, -1, true, 42, 64]}
func.func @index_ops() -> (index, index, index, i1, i32, index) {
  %a = index.constant 7
  %b = index.constant 5
  %s = index.add %a, %b
  %r = index.rems %a, %b
  %six = index.constant 6
  %m = index.sub %b, %six
  %lt = index.cmp ult(%a, %m)
  %c42 = index.constant 42
  %i = index.casts %c42 : index to i32
  %sz = index.sizeof
  return %s, %r, %m, %lt, %i, %sz : index, index, index, i1, i32, index
}

// cf branches inside a function body: sign of the argument.
// BR3: {"results": [1]}
// BRNEG: {"results": [-1]}
func.func @branches(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %pos = arith.cmpi sgt, %x, %c0 : i64
  cf.cond_br %pos, ^plus, ^minus
^plus:
  %one = arith.constant 1 : i64
  cf.br ^done(%one : i64)
^minus:
  %mone = arith.constant -1 : i64
  cf.br ^done(%mone : i64)
^done(%v: i64):
  return %v : i64
}

// The IEEE bits of 1.0 (f64) and 0.5 (f32), and back.
// BITCAST: {"results": [4607182418800017408, 1.0, 1056964608, 0.5]}
func.func @bitcasts() -> (i64, f64, i32, f32) {
  %x = arith.constant 1.0 : f64
  %b = arith.bitcast %x : f64 to i64
  %y = arith.bitcast %b : i64 to f64
  %h = arith.constant 0.5 : f32
  %c = arith.bitcast %h : f32 to i32
  %d = arith.bitcast %c : i32 to f32
  return %b, %y, %c, %d : i64, f64, i32, f32
}
