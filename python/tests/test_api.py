"""The package's public surface: one exception base, type hints, the py.typed marker."""
import inspect
import os
import subprocess
import sys
import typing
import zipfile
from pathlib import Path

import pytest

import qshape
import qshape.catalyst
from conftest import BELL, INSTALLED, SOURCE, needs_qshape

EXCEPTIONS = [getattr(qshape, name) for name in qshape.__all__
              if isinstance(getattr(qshape, name), type)
              and issubclass(getattr(qshape, name), BaseException)]


def test_every_exported_exception_is_a_qshape_error():
    names = sorted(e.__name__ for e in EXCEPTIONS)
    assert names == ["ArgumentError", "ArgumentTypeError", "CompileError", "Error",
                     "InputNotFound", "QShapeNotFound", "RunError", "ToolError"]
    assert all(issubclass(e, qshape.Error) for e in EXCEPTIONS)
    # Each refines the built-in one callers caught before qshape.Error existed.
    assert issubclass(qshape.CompileError, ValueError)
    assert issubclass(qshape.QShapeNotFound, FileNotFoundError)
    assert issubclass(qshape.InputNotFound, FileNotFoundError)
    assert issubclass(qshape.ArgumentTypeError, TypeError)
    assert issubclass(qshape.RunError, RuntimeError)


@pytest.mark.parametrize("call", [
    lambda: qshape.catalyst.pipeline([("only", ["cse"])]),             # no quantum stage
    lambda: qshape.catalyst.pipeline("not a pipeline"),                # not a list of stages
    lambda: qshape.catalyst.pipeline(cache_options={"nonsense": 1}),   # unknown cache option
    lambda: qshape.catalyst.pass_names("func.func(cse"),               # unbalanced
    lambda: qshape.catalyst.pass_text("p", {"k": 'a"b'}),              # a quote in a value
    lambda: qshape.compile(None),
    lambda: qshape.compile_many("one.mlir"),
    lambda: qshape.compile(BELL, cache="sometimes"),
    lambda: qshape.compile(BELL, opt_level="2"),
    lambda: qshape.fingerprint(None),
    lambda: qshape.stats(42),
])
def test_argument_errors_are_qshape_errors(call):
    with pytest.raises(qshape.Error):
        call()


@needs_qshape
def test_tool_errors_are_qshape_errors(tmp_path):
    for call in (qshape.fingerprint, qshape.stats):
        with pytest.raises(qshape.ToolError, match="failed"):
            call("module { this is not mlir }")
    art = qshape.compile(BELL, tmp_path / "bell.so", cache_dir=tmp_path / "c")
    with pytest.raises(qshape.ArgumentTypeError, match="JSON"):
        art.run([object()])
    with pytest.raises(qshape.RunError):
        art.run(["not a number"])


def public_callables():
    """Every public function of the package, with Artifact's methods and properties."""
    out = []
    for module in (qshape, qshape.catalyst):
        for name, obj in vars(module).items():
            if (not name.startswith("_") and inspect.isfunction(obj)
                    and obj.__module__.startswith("qshape")):
                out.append(obj)
    out += [qshape.Artifact.run, qshape.Artifact.hit.fget, qshape.Artifact.miss.fget,
            qshape.Location.bin, qshape.locate]
    return sorted(set(out), key=lambda f: f.__qualname__)


@pytest.mark.parametrize("func", public_callables(), ids=lambda f: f.__qualname__)
def test_public_functions_have_type_hints(func):
    hints = typing.get_type_hints(func)  # also checks that every hint resolves
    params = [p for p in inspect.signature(func).parameters.values()
              if p.name != "self" and p.kind is not p.VAR_KEYWORD]
    missing = [p.name for p in params if p.name not in hints] + \
              (["return"] if "return" not in hints else [])
    assert not missing, f"{func.__qualname__}: no type hint for {', '.join(missing)}"


def test_the_package_carries_py_typed():
    # In `make check`'s venv this is the installed package: pip put the marker there.
    assert (Path(qshape.__file__).parent / "py.typed").is_file()


@pytest.mark.skipif(INSTALLED, reason="builds from the source tree")
def test_the_wheel_carries_py_typed(tmp_path):
    pytest.importorskip("wheel")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                          "--no-build-isolation", "--no-index", str(SOURCE / "python"),
                          "-w", str(tmp_path)], capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "QSHAPE_PREFIX"})
    assert out.returncode == 0, out.stderr
    (wheel,) = tmp_path.glob("qshape-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "qshape/py.typed" in names and "qshape/_errors.py" in names
