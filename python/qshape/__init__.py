"""qshape's Python side: find an installed qshape, run its tools, give Catalyst its plugin.

Catalyst integration (``qshape.catalyst`` puts qshape's passes into
Catalyst's pipeline and names the plugin)::

    import qshape.catalyst

    @qml.qjit(**qshape.catalyst.qjit_options())
    @qml.qnode(dev)
    def circuit(x): ...

Compile once (``qshape.native``: the artifact cache of qshape-compile)::

    art = qshape.compile("circuit.mlir")   # a hit in a new session: milliseconds
    art.run([0.5], shots=1000, seed=7)

qshape's files are found through ``$QSHAPE_PREFIX``, the prefix recorded at
``pip install`` time, the ``qshape-opt`` on ``PATH``, or the build directory
(``$QSHAPE_BUILD``, or ``build/`` of the source tree this package is in), in
that order: ``locate()`` and ``qshape where`` show which one was used.
"""
import json
import os
import subprocess

from ._locate import Location, QShapeNotFound, locate
from .native import Artifact, CompileError, RunError, compile, compile_many

__all__ = ["Location", "QShapeNotFound", "locate", "prefix", "tool", "pass_plugin",
           "dialect_plugin", "fingerprint", "stats", "compile", "compile_many", "Artifact",
           "CompileError", "RunError"]


def prefix():
    """The qshape prefix in use (a directory with bin/ and lib/), as a string."""
    return str(locate().prefix)


def _existing(path, what, loc):
    if not path.exists():
        raise QShapeNotFound(f"qshape: {what} not found at {path} (prefix found by "
                             f"{loc.rule.name}); reinstall qshape there, or point "
                             f"QSHAPE_PREFIX at a complete installation")
    return str(path)


def pass_plugin():
    """Path of QShapePassPlugin.so (for qjit(pass_plugins=...) and apply_pass_plugin)."""
    loc = locate()
    return _existing(loc.lib("QShapePassPlugin.so"), "the pass plugin", loc)


def dialect_plugin():
    """Path of QShapeQuantumDialectPlugin.so (for upstream mlir-opt only, never Catalyst)."""
    loc = locate()
    return _existing(loc.lib("QShapeQuantumDialectPlugin.so"), "the dialect plugin", loc)


def tool(name):
    """Path of a qshape command-line tool (qshape-opt, qshape-fingerprint, ...)."""
    loc = locate()
    return _existing(loc.bin(name), name, loc)


def fingerprint(mlir_text):
    """(exact, shape) digests of a module given as MLIR text."""
    out = subprocess.run([tool("qshape-fingerprint"), "--json", "-"], input=mlir_text,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError(f"qshape-fingerprint failed:\n{out.stderr}")
    entry = json.loads(out.stdout)[0]
    return entry["exact"], entry["shape"]


def stats(mlir_text):
    """qshape-stats of a module given as MLIR text, as a dict."""
    out = subprocess.run([tool("qshape-opt"), "-", "--qshape-stats=output=-", "-o", os.devnull],
                         input=mlir_text, capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError(f"qshape-stats failed:\n{out.stderr}")
    return json.loads(out.stdout)
