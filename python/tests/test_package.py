"""The Python package finds qshape and drives its tools."""
import os
from pathlib import Path

import pytest

import qshape
from conftest import EXAMPLES, INSTALLED, SOURCE, needs_qshape


@needs_qshape
def test_plugin_paths_exist():
    assert qshape.pass_plugin().endswith("/lib/QShapePassPlugin.so")
    assert os.path.isfile(qshape.pass_plugin())
    assert os.path.isfile(qshape.dialect_plugin())
    assert qshape.tool("qshape-opt") == os.path.join(qshape.prefix(), "bin", "qshape-opt")


@needs_qshape
def test_fingerprint_ignores_rewrites():
    a = qshape.fingerprint((EXAMPLES / "random3.mlir").read_text())
    b = qshape.fingerprint((EXAMPLES / "random3-rewritten.mlir").read_text())
    assert a == b
    assert a[0].startswith("blake3:") and len(a[0]) == 7 + 64


@needs_qshape
def test_stats_counts_unrolled_and_loop_alike():
    unrolled = qshape.stats((EXAMPLES / "w1-unrolled.mlir").read_text())
    loop = qshape.stats((EXAMPLES / "w1-loop.mlir").read_text())
    assert unrolled["static_gates"] == loop["static_gates"] == 40
    assert loop["loops"] >= 1 and unrolled["loops"] == 0


def test_missing_build_is_a_clear_error(no_qshape_env, monkeypatch):
    monkeypatch.setenv("QSHAPE_BUILD", str(no_qshape_env))
    with pytest.raises(qshape.QShapeNotFound, match="QSHAPE_BUILD"):
        qshape.pass_plugin()


@pytest.mark.skipif(not INSTALLED, reason="runs in the venv of `make check` only")
def test_installed_package_is_the_one_under_test():
    # Not the source tree's copy, and the prefix comes from the install-time record.
    assert SOURCE / "python" not in Path(qshape.__file__).resolve().parents
    loc = qshape.locate()
    assert loc.rule.name == "recorded install prefix"
    assert str(loc.prefix) == os.environ["QSHAPE_TEST_EXPECT_PREFIX"]


@pytest.mark.skipif(not INSTALLED, reason="runs in the venv of `make check` only")
def test_installed_version_is_the_package_version():
    # pyproject.toml takes the version from qshape/_version.py, its one source.
    from importlib.metadata import version
    assert version("qshape") == qshape.__version__
