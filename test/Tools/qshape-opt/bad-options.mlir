// Bad command lines: a wrong pass option, a missing input file, and outputs
// that cannot be written all give an error and a non-zero exit.
//
// RUN: not qshape-opt %s --qshape-stats=bogus=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: <Pass-Options-Parser>: no such option bogus
//
// RUN: not qshape-opt %s --qshape-stats=emit-remark=maybe -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: for the --emit-remark option: 'maybe' is invalid value for boolean argument
//
// RUN: not qshape-opt %s --pass-pipeline='builtin.module(qshape-stats{output})' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: error:
//
// RUN: not qshape-opt %s --qshape-no-such-pass -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: Unknown command line argument '--qshape-no-such-pass'
//
// RUN: not qshape-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
//
// The stats file cannot be created: the pass fails, naming the file and the
// reason, at the module's location, and nothing is printed to stdout.
// RUN: not qshape-opt %s --qshape-stats=output=/nonexistent/dir/x.json 2>&1 >%t.stdout \
// RUN:   | FileCheck %s --check-prefix=UNWRITABLE
// RUN: count 0 < %t.stdout
// UNWRITABLE: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: qshape-stats: cannot open output file '/nonexistent/dir/x.json': {{.*}}No such file or directory
//
// RUN: not qshape-opt %s -o /nonexistent/dir/out.mlir 2>&1 | FileCheck %s --check-prefix=OUTFILE
// OUTFILE: cannot open output file '/nonexistent/dir/out.mlir': No such file or directory

func.func @f(%q: !quantum.bit) -> !quantum.bit {
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  return %h : !quantum.bit
}
