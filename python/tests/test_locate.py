"""qshape's lookup rules (qshape/_locate.py), one at a time and against each other.

The prefixes here are directories with an executable bin/qshape-opt: the file
whose presence makes a directory a qshape prefix. Which rule wins is all that
is under test; test_package.py and test_cli.py run the real tools.
"""
import os

import pytest

import qshape
from qshape import _locate
from conftest import INSTALLED, SOURCE


def make_prefix(path):
    (path / "bin").mkdir(parents=True)
    opt = path / "bin" / "qshape-opt"
    opt.write_text("#!/bin/sh\nexit 0\n")
    opt.chmod(0o755)
    return path.resolve()


def test_nothing_found_lists_every_rule(no_qshape_env):
    with pytest.raises(qshape.QShapeNotFound) as e:
        qshape.locate()
    text = str(e.value)
    for rule in ("$QSHAPE_PREFIX: not set", "recorded install prefix: none recorded",
                 "qshape-opt on PATH: not on PATH", "$QSHAPE_BUILD: not set"):
        assert rule in text
    assert "cmake --install build --prefix P" in text


def test_prefix_variable_wins_over_every_other_rule(no_qshape_env, monkeypatch):
    a, b, c, d = (make_prefix(no_qshape_env / n) for n in "abcd")
    monkeypatch.setenv("QSHAPE_PREFIX", str(a))
    monkeypatch.setattr(_locate, "recorded_prefix", lambda: str(b))
    monkeypatch.setenv("PATH", str(c / "bin"))
    monkeypatch.setenv("QSHAPE_BUILD", str(d))
    loc = qshape.locate()
    assert (loc.prefix, loc.rule.name) == (a, "$QSHAPE_PREFIX")


def test_prefix_variable_that_names_no_prefix_is_an_error(no_qshape_env, monkeypatch):
    # Set on purpose, so no fallback to the valid recorded prefix.
    monkeypatch.setenv("QSHAPE_PREFIX", str(no_qshape_env / "nothing-here"))
    monkeypatch.setattr(_locate, "recorded_prefix", lambda: str(make_prefix(no_qshape_env / "b")))
    with pytest.raises(qshape.QShapeNotFound, match=r"\$QSHAPE_PREFIX=.*nothing-here is not a qshape prefix"):
        qshape.locate()


def test_recorded_prefix_wins_over_path_and_build(no_qshape_env, monkeypatch):
    b, c, d = (make_prefix(no_qshape_env / n) for n in "bcd")
    monkeypatch.setattr(_locate, "recorded_prefix", lambda: str(b))
    monkeypatch.setenv("PATH", str(c / "bin"))
    monkeypatch.setenv("QSHAPE_BUILD", str(d))
    loc = qshape.locate()
    assert (loc.prefix, loc.rule.name) == (b, "recorded install prefix")


def test_recorded_prefix_that_is_gone_is_passed_over(no_qshape_env, monkeypatch):
    c = make_prefix(no_qshape_env / "c")
    monkeypatch.setattr(_locate, "recorded_prefix", lambda: str(no_qshape_env / "uninstalled"))
    monkeypatch.setenv("PATH", str(c / "bin"))
    loc = qshape.locate()
    assert (loc.prefix, loc.rule.name) == (c, "qshape-opt on PATH")
    assert "uninstalled (no bin/qshape-opt)" in _locate.describe(loc)


def test_path_follows_symlinks_to_the_real_prefix(no_qshape_env, monkeypatch):
    # /usr/local/bin/qshape-opt -> /opt/qshape/bin/qshape-opt: the plugins are in /opt/qshape/lib.
    real = make_prefix(no_qshape_env / "opt-qshape")
    links = no_qshape_env / "usr-local-bin"
    links.mkdir()
    os.symlink(real / "bin" / "qshape-opt", links / "qshape-opt")
    monkeypatch.setenv("PATH", str(links))
    monkeypatch.setenv("QSHAPE_BUILD", str(make_prefix(no_qshape_env / "d")))
    loc = qshape.locate()
    assert (loc.prefix, loc.rule.name) == (real, "qshape-opt on PATH")


def test_build_variable_is_the_last_rule(no_qshape_env, monkeypatch):
    d = make_prefix(no_qshape_env / "d")
    monkeypatch.setenv("QSHAPE_BUILD", str(d))
    loc = qshape.locate()
    assert (loc.prefix, loc.rule.name) == (d, "$QSHAPE_BUILD")
    assert qshape.tool("qshape-opt") == str(d / "bin" / "qshape-opt")


def test_file_missing_from_the_prefix_is_named(no_qshape_env, monkeypatch):
    # A prefix with qshape-opt but without the plugins (a partial copy).
    monkeypatch.setenv("QSHAPE_PREFIX", str(make_prefix(no_qshape_env / "a")))
    with pytest.raises(qshape.QShapeNotFound,
                       match=r"the pass plugin not found at .*/a/lib/QShapePassPlugin.so"):
        qshape.pass_plugin()


@pytest.mark.skipif(INSTALLED, reason="the installed package is not in a source tree")
def test_source_tree_build_directory(no_qshape_env, monkeypatch):
    monkeypatch.undo()  # the real source_tree() and recorded_prefix()
    monkeypatch.delenv("QSHAPE_PREFIX", raising=False)
    monkeypatch.delenv("QSHAPE_BUILD", raising=False)
    monkeypatch.setenv("PATH", str(no_qshape_env / "empty-path"))
    assert _locate.source_tree() == SOURCE
    rules = _locate.rules()
    assert (rules[-1].name, rules[-1].path) == ("source-tree build directory", SOURCE / "build")


@pytest.mark.skipif(not INSTALLED, reason="runs in the venv of `make check` only")
def test_installed_package_is_not_in_a_source_tree():
    assert _locate.source_tree() is None
