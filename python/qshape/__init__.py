"""qshape's Python side: find an installed qshape, run its tools, give Catalyst its plugin.

Catalyst integration (``qshape.catalyst`` puts qshape's passes into
Catalyst's pipeline and names the plugin)::

    import qshape.catalyst

    @qml.qjit(**qshape.catalyst.qjit_options())
    @qml.qnode(dev)
    def circuit(x): ...

Compile once (``qshape.native``: the artifact cache of qshape-compile)::

    art = qshape.compile(Path("circuit.mlir"))   # a hit in a new session: milliseconds
    art.run([0.5], shots=1000, seed=7)

A program is a ``pathlib.Path`` (a file) or MLIR as ``str``/``bytes``; a
one-line str ending in ``.mlir``/``.mlirbc`` is a path too (``qshape.native``).

Every exception the package raises derives from ``qshape.Error`` (and from
the built-in one it refines: ``CompileError`` is a ``ValueError``,
``QShapeNotFound`` a ``FileNotFoundError``, ...).

qshape's files are found through ``$QSHAPE_PREFIX``, the prefix recorded by
``cmake --install`` (in ``<prefix>/share/qshape/python``), the ``qshape-opt`` on ``PATH``, or the build directory
(``$QSHAPE_BUILD``, or ``build/`` of the source tree this package is in), in
that order: ``locate()`` and ``qshape where`` show which one was used.
"""
import json
import os
import subprocess
from typing import Any, Dict, Tuple, Union

from ._errors import (ArgumentError, ArgumentTypeError, CompileError, Error, InputNotFound,
                      QShapeNotFound, RunError, ToolError)
from ._locate import Location, locate
from ._version import __version__
from .native import Artifact, Source, compile, compile_many

__all__ = ["__version__", "Location", "locate", "prefix", "tool", "pass_plugin", "dialect_plugin",
           "fingerprint", "stats", "compile", "compile_many", "Artifact", "Source",
           "Error", "QShapeNotFound", "InputNotFound", "ArgumentError", "ArgumentTypeError",
           "ToolError", "CompileError", "RunError"]


def prefix() -> str:
    """The qshape prefix in use (a directory with bin/ and lib/), as a string."""
    return str(locate().prefix)


def _existing(path: "os.PathLike[str]", what: str, loc: Location) -> str:
    if not os.path.exists(path):
        raise QShapeNotFound(f"qshape: {what} not found at {path} (prefix found by "
                             f"{loc.rule.name}); reinstall qshape there, or point "
                             f"QSHAPE_PREFIX at a complete installation")
    return str(path)


def pass_plugin() -> str:
    """Path of QShapePassPlugin.so (for qjit(pass_plugins=...) and apply_pass_plugin)."""
    loc = locate()
    return _existing(loc.lib("QShapePassPlugin.so"), "the pass plugin", loc)


def dialect_plugin() -> str:
    """Path of QShapeQuantumDialectPlugin.so (for upstream mlir-opt only, never Catalyst)."""
    loc = locate()
    return _existing(loc.lib("QShapeQuantumDialectPlugin.so"), "the dialect plugin", loc)


def tool(name: str) -> str:
    """Path of a qshape command-line tool (qshape-opt, qshape-fingerprint, ...)."""
    loc = locate()
    return _existing(loc.bin(name), name, loc)


def _module_text(mlir_text: Any, where: str) -> bytes:
    # Never None: subprocess would hand the tool this process's stdin.
    if isinstance(mlir_text, str):
        return mlir_text.encode()
    if isinstance(mlir_text, (bytes, bytearray, memoryview)):
        return bytes(mlir_text)
    raise ArgumentTypeError(f"{where}: the module is MLIR text or bytecode (str or bytes); got "
                            f"{type(mlir_text).__name__} (read a file with Path.read_text())")


def fingerprint(mlir_text: Union[str, bytes]) -> Tuple[str, str]:
    """(exact, shape) digests of a module given as MLIR text (or bytecode). Raises ToolError."""
    data = _module_text(mlir_text, "qshape.fingerprint")
    out = subprocess.run([tool("qshape-fingerprint"), "--json", "-"], input=data,
                         capture_output=True)
    if out.returncode != 0:
        raise ToolError(f"qshape-fingerprint failed:\n{out.stderr.decode(errors='replace')}")
    entry = json.loads(out.stdout)[0]
    return entry["exact"], entry["shape"]


def stats(mlir_text: Union[str, bytes]) -> Dict[str, Any]:
    """qshape-stats of a module given as MLIR text (or bytecode), as a dict. Raises ToolError."""
    data = _module_text(mlir_text, "qshape.stats")
    out = subprocess.run([tool("qshape-opt"), "-", "--qshape-stats=output=-", "-o", os.devnull],
                         input=data, capture_output=True)
    if out.returncode != 0:
        raise ToolError(f"qshape-stats failed:\n{out.stderr.decode(errors='replace')}")
    return json.loads(out.stdout)
