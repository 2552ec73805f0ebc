"""Which qshape package the tests import, and what they share.

By default the package in the source tree (python/ goes first on sys.path),
with the build directory found as the source tree's (utils/run-tests.py sets
QSHAPE_BUILD). With QSHAPE_TEST_INSTALLED=1 the package installed in the
running interpreter: `make check` runs the package tests so, in a fresh venv
against a fresh `cmake --install` prefix (python/tests/installed.py).
"""
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

INSTALLED = os.environ.get("QSHAPE_TEST_INSTALLED") == "1"
SOURCE = Path(__file__).resolve().parents[2]
EXAMPLES = SOURCE / "examples"
BELL = SOURCE / "test" / "Tools" / "qshape-compile" / "Inputs" / "bell.mlir"

if not INSTALLED:
    sys.path.insert(0, str(SOURCE / "python"))

import qshape  # noqa: E402


def _found():
    try:
        qshape.locate()
        return True
    except qshape.QShapeNotFound:
        return False


# On the source tree a missing build skips; the installed package must find its prefix.
needs_qshape = pytest.mark.skipif(not INSTALLED and not _found(),
                                  reason="no qshape build or installation found")


@functools.lru_cache(maxsize=None)
def registered_passes():
    """Every pass and pass pipeline qshape-opt registers, from its --help."""
    text = subprocess.run([qshape.tool("qshape-opt"), "--help"], capture_output=True,
                          text=True, check=True).stdout
    section = text[text.index("Compiler passes to run"):]
    section = section[:re.search(r"\n  \S", section).start()]  # up to the next option group
    return frozenset(re.findall(r"^      --([a-z0-9][a-z0-9-]*)", section, re.M))


@pytest.fixture
def no_qshape_env(monkeypatch, tmp_path):
    """No lookup rule gives anything: no variables, no recorded prefix, PATH without
    qshape-opt. Tests then add the one rule they are about."""
    monkeypatch.delenv("QSHAPE_PREFIX", raising=False)
    monkeypatch.delenv("QSHAPE_BUILD", raising=False)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(qshape._locate, "recorded_prefix", lambda: None)
    monkeypatch.setattr(qshape._locate, "source_tree", lambda: None)
    return tmp_path
