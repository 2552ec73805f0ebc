"""qshape.compile and Artifact.run: thin over qshape-compile and qshape-run."""
import json
import os
import subprocess
import sys

import pytest

import qshape
from conftest import INSTALLED, SOURCE, needs_qshape

BELL = SOURCE / "test" / "Tools" / "qshape-compile" / "Inputs" / "bell.mlir"


def oracle(path, args):
    out = subprocess.run([qshape.tool("qshape-sim"), str(path), "--args", json.dumps(args)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["results"]


@needs_qshape
def test_miss_then_hit_in_a_new_process(tmp_path):
    cache = tmp_path / "cache"
    first = qshape.compile(BELL, tmp_path / "a.so", cache_dir=cache)
    assert first.miss and not first.hit and first.key.startswith("blake3:")
    assert first.timings["mlir-passes"] > 0 and first.timings["link"] > 0
    # A new Python process, as a new session is.
    code = ("import json,sys,qshape; a=qshape.compile(sys.argv[1], sys.argv[2], cache_dir=sys.argv[3]);"
            "print(json.dumps([a.status, a.key, a.timings]))")
    out = subprocess.run([sys.executable, "-c", code, str(BELL), str(tmp_path / "b.so"), str(cache)],
                         capture_output=True, text=True, check=True,
                         env=dict(os.environ) if INSTALLED else
                         {**os.environ, "PYTHONPATH": str(SOURCE / "python")})
    status, key, timings = json.loads(out.stdout)
    assert status == "hit" and key == first.key
    assert "mlir-passes" not in timings and "link" not in timings and timings["parse"] == 0
    assert (tmp_path / "a.so").read_bytes() == (tmp_path / "b.so").read_bytes()


@needs_qshape
def test_text_input_and_run_agree_with_the_oracle(tmp_path):
    art = qshape.compile(BELL.read_text(), tmp_path / "bell.so", cache_dir=tmp_path / "c")
    assert art.path == str(tmp_path / "bell.so") and art.miss
    assert art.run([0.5]) == oracle(BELL, [0.5])
    again = qshape.compile(BELL.read_text(), tmp_path / "bell2.so", cache_dir=tmp_path / "c")
    assert again.hit and again.key == art.key


@needs_qshape
def test_arguments_of_any_size_reach_the_run(tmp_path):
    # Over 128 KiB: one command-line string cannot hold it (E2BIG).
    art = qshape.compile(BELL, tmp_path / "bell.so", cache_dir=tmp_path / "c")
    assert art.run(" " * 200_000 + "[0.5]") == oracle(BELL, [0.5])


@needs_qshape
def test_shots_and_seed_reach_the_run(tmp_path):
    art = qshape.compile(BELL, cache_dir=tmp_path / "c")
    assert art.path.endswith("/bell.so")
    a = art.run([0.5], shots=200, seed=3)
    b = art.run([0.5], shots=200, seed=3)
    c = art.run([0.5], shots=200, seed=4)
    assert a == b and a != c
    assert all(round(p * 200) == p * 200 for p in a[0])  # frequencies of 200 shots


@needs_qshape
def test_options_change_the_key_and_off_is_off(tmp_path):
    c = tmp_path / "c"
    base = qshape.compile(BELL, tmp_path / "a.so", cache_dir=c)
    o2 = qshape.compile(BELL, tmp_path / "b.so", cache_dir=c, opt_level=2)
    off = qshape.compile(BELL, tmp_path / "d.so", cache_dir=c, cache="off")
    assert o2.miss and o2.key != base.key
    assert off.status == "off" and off.key == base.key


@needs_qshape
def test_errors(tmp_path):
    with pytest.raises(qshape.CompileError, match="cannot parse"):
        qshape.compile("module { this is not mlir }", tmp_path / "x.so", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="cache=.sometimes.: use one of"):
        qshape.compile(BELL, cache="sometimes")
    art = qshape.compile(BELL, tmp_path / "ok.so", cache_dir=tmp_path / "c")
    with pytest.raises(qshape.RunError, match="qshape-run"):
        art.run(["not a number"])


ANGLES = SOURCE / "test" / "Tools" / "qshape-compile" / "Inputs" / "lift-angles.mlir"


@needs_qshape
def test_compile_many_sweeps_one_topology(tmp_path):
    # Three programs of one topology (other baked angles), as paths and as text.
    texts = [ANGLES.read_text().replace("0.3 : f64", f"{a!r} : f64") for a in (0.3, 0.9, -1.5)]
    paths = []
    for i, text in enumerate(texts[:2]):
        paths.append(tmp_path / f"g{i}.mlir")
        paths[-1].write_text(text)
    arts = qshape.compile_many(paths + [texts[2]], tmp_path / "out", share_topology=True,
                               cache_dir=tmp_path / "c")
    assert [a.status for a in arts] == ["miss", "hit", "hit"]
    assert len({a.key for a in arts}) == 1
    assert [a.path for a in arts] == [str(tmp_path / "out" / n)
                                      for n in ("g0.so", "g1.so", "module-2.so")]
    results = [a.run() for a in arts]
    for art, result, source in zip(arts, results, paths + [tmp_path / "out" / "module-2.mlir"]):
        assert result == pytest.approx(oracle(source, []), abs=1e-9)
    assert results[0] != results[1] != results[2]
    # Without share_topology each program is its own compile.
    plain = qshape.compile_many(paths, tmp_path / "plain", cache_dir=tmp_path / "c")
    assert [a.status for a in plain] == ["miss", "miss"] and plain[0].key != plain[1].key


@needs_qshape
def test_compile_many_refuses_two_outputs_of_one_name(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        (tmp_path / d / "x.mlir").write_text(BELL.read_text())
    with pytest.raises(qshape.CompileError, match="two inputs would write"):
        qshape.compile_many([tmp_path / "a" / "x.mlir", tmp_path / "b" / "x.mlir"], tmp_path,
                            cache_dir=tmp_path / "c")
    assert qshape.compile_many([], tmp_path) == []
