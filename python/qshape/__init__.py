"""qshape's Python side: find the plugins and run the tools from Python.

Catalyst integration::

    import qshape
    from catalyst.passes import apply_pass_plugin

    @qml.qjit(pass_plugins={qshape.pass_plugin()})
    @apply_pass_plugin(qshape.pass_plugin(), "qshape-canonicalize")
    @qml.qnode(dev)
    def circuit(x): ...

The library is located through $QSHAPE_BUILD (a build directory) or, by
default, the `build/` directory next to this package's source tree.
"""
import json
import os
import subprocess

__all__ = ["build_dir", "pass_plugin", "dialect_plugin", "tool", "fingerprint", "stats"]


def build_dir():
    """The qshape build directory ($QSHAPE_BUILD, else <repo>/build)."""
    env = os.environ.get("QSHAPE_BUILD")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.abspath(os.path.join(here, "..", "..", "build"))


def _existing(path, what):
    if not os.path.exists(path):
        raise FileNotFoundError(f"qshape: {what} not found at {path}; build qshape "
                                f"(`make`) or set QSHAPE_BUILD to its build directory")
    return path


def pass_plugin():
    """Path of QShapePassPlugin.so (for qjit(pass_plugins=...) and apply_pass_plugin)."""
    return _existing(os.path.join(build_dir(), "lib", "QShapePassPlugin.so"), "pass plugin")


def dialect_plugin():
    """Path of QShapeQuantumDialectPlugin.so (for upstream mlir-opt only)."""
    return _existing(os.path.join(build_dir(), "lib", "QShapeQuantumDialectPlugin.so"),
                     "dialect plugin")


def tool(name):
    """Path of a qshape command-line tool (qshape-opt, qshape-fingerprint, ...)."""
    return _existing(os.path.join(build_dir(), "bin", name), name)


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
