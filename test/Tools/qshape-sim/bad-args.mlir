// --args: one JSON entry per argument (numbers, bools for i1, [re, im] for
// complex, flat or nested lists for tensors), inline or from @FILE. Bad
// input is a clear error with exit code 1.

// RUN: qshape-sim %s --args '[1.5, [1, 2, 3], [[1, 2], [3, 4]], true, -5, 2.5, [0.5, -1]]' | FileCheck %s --check-prefix=GOOD
// RUN: qshape-sim %s --args '[1.5, [1, 2, 3], [1, 2, 3, 4], 1, -5, 2.5, 3]' | FileCheck %s --check-prefix=FLAT
// RUN: echo '[1.5, [1, 2, 3], [[1, 2], [3, 4]], true, -5, 2.5, [0.5, -1]]' > %t.json
// RUN: qshape-sim %s --args @%t.json | FileCheck %s --check-prefix=GOOD
// RUN: qshape-sim %s --args=@%t.json | FileCheck %s --check-prefix=GOOD

// GOOD: {"results": [1.5, [1.0, 2.0, 3.0], {{\[}}[1.0, 2.0], [3.0, 4.0]], true, -5, 2.5, [0.5, -1.0]]}
// FLAT: {"results": [1.5, [1.0, 2.0, 3.0], {{\[}}[1.0, 2.0], [3.0, 4.0]], true, -5, 2.5, [3.0, 0.0]]}

// RUN: not qshape-sim %s --args '[1.5, [1, 2' 2>&1 | FileCheck %s --check-prefix=NOTJSON
// NOTJSON: qshape-sim: error: --args is not valid JSON:

// RUN: not qshape-sim %s --args '{"x": 1}' 2>&1 | FileCheck %s --check-prefix=NOTLIST
// NOTLIST: qshape-sim: error: --args must be a JSON list with one entry per function argument

// RUN: not qshape-sim %s --args '[1.5]' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not qshape-sim %s 2>&1 | FileCheck %s --check-prefix=COUNT0
// COUNT: qshape-sim: error: the entry function takes 7 argument(s) but --args has 1
// COUNT0: qshape-sim: error: the entry function takes 7 argument(s) but --args has 0

// RUN: not qshape-sim %s --args '[1.5, [1, 2], [[1, 2], [3, 4]], true, -5, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: qshape-sim: error: --args: argument #1 (tensor<3xf64>): expected a list of 3 entries (dimension 0 has 2 entries, expected 3)

// RUN: not qshape-sim %s --args '[1.5, [1, 2, 3], [[1, 2, 3], [4]], true, -5, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=RAGGED
// RAGGED: qshape-sim: error: --args: argument #2 (tensor<2x2xf64>): expected nested lists of shape 2x2 or a flat list of 4 entries

// RUN: not qshape-sim %s --args '["one", [1, 2, 3], [1, 2, 3, 4], true, -5, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: qshape-sim: error: --args: argument #0 (f64): expected a number, got "one"

// RUN: not qshape-sim %s --args '[1.5, [1, 2, "x"], [1, 2, 3, 4], true, -5, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=ELEM
// ELEM: qshape-sim: error: --args: argument #1 (tensor<3xf64>) element 2: expected a number, got "x"

// RUN: not qshape-sim %s --args '[1.5, [1, 2, 3], [1, 2, 3, 4], 2, -5, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: qshape-sim: error: --args: argument #3 (i1): expected a bool (or 0/1), got 2

// RUN: not qshape-sim %s --args '[1.5, [1, 2, 3], [1, 2, 3, 4], true, 300, 2.5, 0]' 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: qshape-sim: error: --args: argument #4 (i8): 300 does not fit i8

// RUN: not qshape-sim %s --args '[1.5, [1, 2, 3], [1, 2, 3, 4], true, -5, [2.5], 0]' 2>&1 | FileCheck %s --check-prefix=ZERO_D
// ZERO_D: qshape-sim: error: --args: argument #5 (tensor<f64>): expected a number, got [2.5]

// RUN: not qshape-sim %s --args '[1.5, [1, 2, 3], [1, 2, 3, 4], true, -5, 2.5, [1, 2, 3]]' 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: qshape-sim: error: --args: argument #6 (complex<f64>): expected [re, im] (or a number), got [1,2,3]

// RUN: not qshape-sim %s --args @%t.missing.json 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: qshape-sim: error: --args: cannot read '{{.*}}missing.json':

func.func @echo(%x: f64, %v: tensor<3xf64>, %m: tensor<2x2xf64>, %b: i1, %k: i8,
                %s: tensor<f64>, %c: complex<f64>)
    -> (f64, tensor<3xf64>, tensor<2x2xf64>, i1, i8, tensor<f64>, complex<f64>) {
  return %x, %v, %m, %b, %k, %s, %c : f64, tensor<3xf64>, tensor<2x2xf64>, i1, i8, tensor<f64>, complex<f64>
}
