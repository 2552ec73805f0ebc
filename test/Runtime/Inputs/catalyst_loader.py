"""Loads a library as Catalyst's CompiledFunction does
(frontend/catalyst/compiled_functions.py and its wrapper.cpp), step by step:

1. ctypes.CDLL(library), nothing preloaded (SharedObjectManager.open);
2. load_symbols: setup, teardown, _catalyst_pyface_jit_circuit and
   _mlir_memory_transfer, all through the library's handle;
3. setup(1, ["jitted-function"]);
4. the pyface call with ranked memref descriptors (results, args);
5. _mlir_memory_transfer on each result's allocated pointer, before
   teardown (move_returns), then teardown;
6. the results read after teardown, from buffers the host now owns, and
   freed with free() (the capsule's free_wrap).

Prints the results as qshape-run and qshape-sim print them, and on stderr
what _mlir_memory_transfer answered for each result.
Input: Inputs/catalyst-abi.mlir's entry (one tensor<f64> argument; results
tensor<4xf64>, tensor<f64>, tensor<2xf64>, tensor<f64>).
"""
import ctypes
import functools
import json
import sys

Ptr = ctypes.POINTER(ctypes.c_double)


@functools.lru_cache(maxsize=None)  # one type per rank
def descriptor(rank):
    fields = [("allocated", Ptr), ("aligned", Ptr), ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


RANKS = [1, 0, 1, 0]  # the entry's results


class Results(ctypes.Structure):
    _fields_ = [(f"r{k}", descriptor(rank)) for k, rank in enumerate(RANKS)]


class Args(ctypes.Structure):
    _fields_ = [("x", ctypes.POINTER(descriptor(0)))]


def elements(d, rank):
    if not rank:
        return d.aligned[d.offset]
    return [d.aligned[d.offset + i * d.strides[0]] for i in range(d.sizes[0])]


def main(path, x):
    shared_object = ctypes.CDLL(path)
    setup = shared_object.setup
    setup.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    teardown = shared_object.teardown
    function = shared_object["_catalyst_pyface_jit_circuit"]
    mem_transfer = shared_object["_mlir_memory_transfer"]
    mem_transfer.argtypes, mem_transfer.restype = [ctypes.c_void_p], ctypes.c_bool

    argv = (ctypes.c_char_p * 1)(b"jitted-function")
    setup(1, argv)
    value = ctypes.c_double(x)
    arg = descriptor(0)(ctypes.pointer(value), ctypes.pointer(value), 0)
    args, results = Args(ctypes.pointer(arg)), Results()
    function(ctypes.byref(results), ctypes.byref(args))
    descs = [getattr(results, f"r{k}") for k in range(len(RANKS))]
    owned = [bool(mem_transfer(ctypes.cast(d.allocated, ctypes.c_void_p))) for d in descs]
    teardown()

    print(json.dumps({"results": [elements(d, r) for d, r in zip(descs, RANKS)]}))
    print("transferred:", " ".join(str(o).lower() for o in owned), file=sys.stderr)
    free = ctypes.CDLL(None).free
    free.argtypes = [ctypes.c_void_p]
    for d, o in zip(descs, owned):
        if o:
            free(ctypes.cast(d.allocated, ctypes.c_void_p))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
