"""qshape.compile and Artifact.run: thin over qshape-compile and qshape-run."""
import json
import os
import subprocess
import sys

import pytest

import qshape
from conftest import BELL, INSTALLED, SOURCE, needs_qshape


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


def test_none_and_other_types_are_refused_without_reading_stdin(tmp_path):
    # Before: None went to subprocess as `input=None`, and qshape-compile read
    # this process's stdin. A child whose stdin holds a valid module shows it.
    code = ("import sys, qshape\n"
            "try:\n"
            "    qshape.compile(None, sys.argv[1])\n"
            "except qshape.ArgumentTypeError as e:\n"
            "    assert isinstance(e, TypeError)\n"
            "    print(e)\n")
    with open(BELL, "rb") as stdin:
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x.so")], stdin=stdin,
                             capture_output=True, text=True, timeout=60,
                             env=dict(os.environ) if INSTALLED else
                             {**os.environ, "PYTHONPATH": str(SOURCE / "python")})
    assert out.returncode == 0, out.stderr
    assert "qshape.compile: a program is a pathlib.Path" in out.stdout and "got NoneType" in out.stdout
    assert not (tmp_path / "x.so").exists()
    for bad in (None, 3.5, ["a.mlir"]):
        with pytest.raises(qshape.ArgumentTypeError, match="a program is a pathlib.Path"):
            qshape.compile(bad)
    with pytest.raises(qshape.ArgumentTypeError, match=r"sources\[1\]: a program"):
        qshape.compile_many([BELL, None], tmp_path)


@needs_qshape
def test_bytes_are_the_module_text_or_bytecode(tmp_path):
    c = tmp_path / "c"
    from_path = qshape.compile(BELL, tmp_path / "p.so", cache_dir=c)
    from_bytes = qshape.compile(BELL.read_bytes(), tmp_path / "b.so", cache_dir=c)
    assert from_bytes.hit and from_bytes.key == from_path.key
    assert from_bytes.run([0.5]) == oracle(BELL, [0.5])
    bytecode = subprocess.run([qshape.tool("qshape-opt"), str(BELL), "--emit-bytecode"],
                              capture_output=True, check=True).stdout
    assert bytecode.startswith(b"ML\xefR")
    from_bytecode = qshape.compile(bytecode, tmp_path / "bc.so", cache_dir=c)
    assert from_bytecode.key == from_path.key  # the same module, another encoding
    arts = qshape.compile_many([bytearray(BELL.read_bytes())], tmp_path / "many", cache_dir=c)
    assert arts[0].key == from_path.key


@needs_qshape
def test_a_path_object_is_a_file_and_a_str_is_text(tmp_path):
    c = tmp_path / "c"
    txt = tmp_path / "bell.txt"
    txt.write_text(BELL.read_text())
    # A Path is a file, whatever its name.
    art = qshape.compile(txt, cache_dir=c)
    assert art.path.endswith("/bell.so") and art.run([0.5]) == oracle(BELL, [0.5])
    # The same name as a str is MLIR text, never looked up on disk; the error says so.
    with pytest.raises(qshape.CompileError) as e:
        qshape.compile(str(txt), cache_dir=c)
    assert f"the MLIR given in memory ({len(str(txt))} bytes)" in str(e.value).splitlines()[0]
    assert f"pass pathlib.Path('{txt}') to compile the file" in str(e.value)
    # A one-line str ending in .mlir is a path, as README and the demos call it.
    (tmp_path / "bell.mlir").write_text(BELL.read_text())
    assert qshape.compile(str(tmp_path / "bell.mlir"), cache_dir=c).key == art.key


@needs_qshape
def test_a_file_that_is_not_mlir_is_named_in_the_error(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("remember to buy milk\n")
    with pytest.raises(qshape.CompileError) as e:
        qshape.compile(notes, tmp_path / "x.so", cache_dir=tmp_path / "c")
    first = str(e.value).splitlines()[0]
    assert first == f"qshape-compile failed on {notes} (exit 1):"
    assert f"{notes}: cannot parse the module" in str(e.value)
    with pytest.raises(qshape.CompileError, match=f"failed on {notes}"):
        qshape.compile_many([BELL, notes], tmp_path / "out", cache_dir=tmp_path / "c")


def test_a_missing_file_is_input_not_found(tmp_path):
    for missing in (tmp_path / "gone.txt", str(tmp_path / "gone.mlir")):
        with pytest.raises(qshape.InputNotFound, match=f"{missing}: no such file"):
            qshape.compile(missing)
        with pytest.raises(FileNotFoundError):
            qshape.compile_many([BELL, missing])
    with pytest.raises(qshape.InputNotFound, match="not a file"):
        qshape.compile(tmp_path)


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
