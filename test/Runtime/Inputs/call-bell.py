"""Loads a library linked against a runtime (NEEDED, rpath) with a bare
ctypes.CDLL, as a host that preloads nothing does, and calls
test/Tools/qshape-compile/Inputs/bell.mlir's entry through its pyface
(setup, _catalyst_pyface_jit_circuit, teardown); prints the results as
qshape-run does."""
import ctypes
import json
import sys

Ptr = ctypes.POINTER(ctypes.c_double)


class D0(ctypes.Structure):
    _fields_ = [("allocated", Ptr), ("aligned", Ptr), ("offset", ctypes.c_int64)]


class D1(ctypes.Structure):
    _fields_ = [("allocated", Ptr), ("aligned", Ptr), ("offset", ctypes.c_int64),
                ("size", ctypes.c_int64), ("stride", ctypes.c_int64)]


class Results(ctypes.Structure):
    _fields_ = [("probs", D1), ("expval", D0)]


class Args(ctypes.Structure):
    _fields_ = [("x", ctypes.POINTER(D0))]


lib = ctypes.CDLL(sys.argv[1])
x = ctypes.c_double(float(sys.argv[2]))
arg = D0(ctypes.pointer(x), ctypes.pointer(x), 0)
args, results = Args(ctypes.pointer(arg)), Results()
lib.setup(0, None)
lib._catalyst_pyface_jit_circuit(ctypes.byref(results), ctypes.byref(args))
lib.teardown()
p = results.probs
probs = [p.aligned[p.offset + i * p.stride] for i in range(p.size)]
print(json.dumps({"results": [probs, results.expval.aligned[results.expval.offset]]}))
