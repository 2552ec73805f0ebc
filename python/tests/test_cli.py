"""The `qshape` command (qshape/cli.py): the console entry point of the installed
package, or `python -m qshape.cli` on the source tree."""
import json
import re
import os
import subprocess
import sys
from pathlib import Path

import qshape
from conftest import EXAMPLES, INSTALLED, SOURCE, needs_qshape


def run(*args, env=None, **kw):
    if INSTALLED:
        # The console script pip wrote next to the venv's python.
        cmd = [str(Path(sys.executable).parent / "qshape")]
    else:
        cmd = [sys.executable, "-m", "qshape.cli"]
        env = dict(os.environ if env is None else env, PYTHONPATH=str(SOURCE / "python"))
    return subprocess.run(cmd + list(args), capture_output=True, text=True, env=env, **kw)


@needs_qshape
def test_where_names_the_prefix_and_the_rule():
    out = run("where")
    assert out.returncode == 0, out.stderr
    loc = qshape.locate()
    assert f"prefix:         {loc.prefix}\n" in out.stdout
    assert f"found by:       {loc.rule.name}" in out.stdout
    assert f"pass-plugin:    {loc.prefix}/lib/QShapePassPlugin.so\n" in out.stdout
    assert "   <- used" in out.stdout
    data = json.loads(run("where", "--json").stdout)
    assert data["prefix"] == str(loc.prefix) and data["found-by"] == loc.rule.name
    assert data["tools"]["opt"] == qshape.tool("qshape-opt")
    assert [r["rule"] for r in data["rules"]][:3] == [
        "$QSHAPE_PREFIX", "recorded install prefix", "qshape-opt on PATH"]


@needs_qshape
def test_help_lists_the_prefix_tools():
    out = run("--help")
    assert out.returncode == 0
    for name in ("opt", "sim", "fingerprint", "cache", "where", "catalyst-pipeline"):
        assert re.search(rf"^    {name}\b", out.stdout, re.M), name


@needs_qshape
def test_tool_commands_pass_arguments_and_exit_codes_through():
    # --help goes to qshape-opt, not to argparse.
    out = run("opt", "--help")
    assert out.returncode == 0 and "qshape optimizer driver" in out.stdout
    assert "--qshape-roll-loops" in out.stdout
    out = run("fingerprint", str(EXAMPLES / "random3.mlir"), str(EXAMPLES / "random3-rewritten.mlir"))
    assert out.returncode == 0, out.stderr
    (a, sa, _), (b, sb, _) = (line.split() for line in out.stdout.splitlines())
    assert (a, sa) == (b, sb) and a.startswith("blake3:")
    out = run("opt", str(EXAMPLES / "no-such-file.mlir"))
    assert out.returncode != 0 and "no-such-file.mlir" in out.stderr


def test_without_an_installation_commands_say_what_to_do(tmp_path):
    # QSHAPE_PREFIX naming no prefix is an error even where a recorded prefix exists.
    env = dict(os.environ, QSHAPE_PREFIX=str(tmp_path))
    for args in (["where"], ["opt", "--help"]):
        out = run(*args, env=env)
        assert out.returncode == 1
        assert f"$QSHAPE_PREFIX={tmp_path.resolve()} is not a qshape prefix" in out.stderr
        assert "cmake --install build --prefix" in out.stderr
    out = run("--help", env=env)
    assert out.returncode == 0 and "No tool commands, no qshape installation was found" in out.stdout


def test_catalyst_pipeline_prints_qjit_pipelines(tmp_path):
    out = run("catalyst-pipeline", "--no-roll", "--cache-dir", str(tmp_path / "c d"))
    assert out.returncode == 0, out.stderr
    stages = json.loads(out.stdout)
    assert stages[0][0] == "QuantumCompilationStage"
    assert stages[0][1][0].startswith("qshape-cache-lookup{salt=")
    # After Catalyst's convert-to-value-semantics (docs/catalyst.md).
    at = stages[0][1].index("convert-to-value-semantics")
    assert stages[0][1][at + 1] == "qshape-canonicalize"
    assert f'dir="{tmp_path}/c d"' in stages[0][1][0]
    assert stages[-1][1][-1] == f'qshape-cache-store{{dir="{tmp_path}/c d"}}'
    assert not any("qshape-roll-loops" in p for _, passes in stages for p in passes)
