"""The Python package finds the build and drives the tools."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import qshape  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")

needs_build = pytest.mark.skipif(
    not os.path.exists(os.path.join(qshape.build_dir(), "bin", "qshape-opt")),
    reason="qshape is not built")


@needs_build
def test_plugin_paths_exist():
    assert qshape.pass_plugin().endswith("QShapePassPlugin.so")
    assert os.path.isfile(qshape.dialect_plugin())


@needs_build
def test_fingerprint_ignores_rewrites():
    with open(os.path.join(EXAMPLES, "random3.mlir")) as f:
        a = qshape.fingerprint(f.read())
    with open(os.path.join(EXAMPLES, "random3-rewritten.mlir")) as f:
        b = qshape.fingerprint(f.read())
    assert a == b
    assert a[0].startswith("blake3:") and len(a[0]) == 7 + 64


@needs_build
def test_stats_counts_unrolled_and_loop_alike():
    with open(os.path.join(EXAMPLES, "w1-unrolled.mlir")) as f:
        unrolled = qshape.stats(f.read())
    with open(os.path.join(EXAMPLES, "w1-loop.mlir")) as f:
        loop = qshape.stats(f.read())
    assert unrolled["static_gates"] == loop["static_gates"] == 40
    assert loop["loops"] >= 1 and unrolled["loops"] == 0


def test_missing_build_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("QSHAPE_BUILD", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="QSHAPE_BUILD"):
        qshape.pass_plugin()
