"""qshape.catalyst: qshape's passes in Catalyst pipelines, tested as data.

Catalyst is not installed here, and no stand-in for it is made: the pipelines
are checked as text against qshape-opt and Debian's mlir-opt. A stage is one
module-level pass pipeline (Catalyst joins its entries with commas). Only
passes that qshape-opt registers (qshape's and upstream MLIR's) can be
checked; an entry naming a pass qshape-opt lacks (Catalyst's own:
split-multiple-tapes, the stablehlo legalizations, convert-quantum-to-llvm,
...) is left out of the parsed text, and the test requires each such name to
come from the pipeline given to the helper, never from the helper, and never
to be a qshape pass.
"""
import copy
import os
import subprocess

import pytest

import qshape
from qshape import _catalyst_default
from qshape import catalyst as qc
from conftest import EXAMPLES, needs_qshape, registered_passes

try:
    import catalyst  # noqa: F401
    HAVE_CATALYST = True
except ImportError:
    HAVE_CATALYST = False

MLIR_OPT = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")


def names_in(stages):
    return [n for _, passes in stages for p in passes for n in qc.pass_names(p)]


def checkable(passes, known):
    """(entries whose every pass is in `known`, names of the passes that are not)."""
    kept, missing = [], []
    for entry in passes:
        absent = [n for n in qc.pass_names(entry) if n not in known]
        (missing.extend(absent) if absent else kept.append(entry))
    return kept, missing


def parse(tool, text, cache_dir, extra=()):
    """Run `tool` with `builtin.module(text)` on an empty module, dumping the parsed pipeline."""
    return subprocess.run([tool, *extra, f"--pass-pipeline=builtin.module({text})",
                           "--dump-pass-pipeline", "-o", os.devnull], input="module {}\n",
                          capture_output=True, text=True, env=dict(os.environ, QSHAPE_CACHE_DIR=str(cache_dir)))


# --- the default pipeline ---------------------------------------------------

@pytest.mark.skipif(HAVE_CATALYST, reason="catalyst is importable: its pipeline is used")
def test_default_pipeline_without_catalyst_is_the_copy():
    stages = qc.default_pipeline()
    assert stages == _catalyst_default.DEFAULT_PIPELINE
    stages[0][1].append("changed")  # a copy, not the module's data
    assert _catalyst_default.DEFAULT_PIPELINE[0][1][-1] == "symbol-dce"


@pytest.mark.skipif(not HAVE_CATALYST, reason="catalyst is not installed")
def test_default_pipeline_with_catalyst_is_catalysts():
    from catalyst.pipelines import default_pipeline
    assert qc.default_pipeline() == [(n, list(p)) for n, p in default_pipeline()]


def test_pass_names():
    assert qc.pass_names("func.func(cse,canonicalize{max-iterations=2})") == ["cse", "canonicalize"]
    assert qc.pass_names("builtin.module(func.func(a),b{x=\"p,q(r)\" y}),c") == ["a", "b", "c"]
    assert qc.pass_names("one-shot-bufferize{bufferize-function-boundaries}") == ["one-shot-bufferize"]
    with pytest.raises(ValueError, match="unbalanced"):
        qc.pass_names("func.func(cse")


# --- where the passes go ----------------------------------------------------

def test_placement_in_the_default_pipeline():
    base = qc.default_pipeline()
    kept = copy.deepcopy(base)
    out = qc.pipeline(base)
    assert base == kept  # the input is not modified
    assert [n for n, _ in out] == [n for n, _ in base]
    assert out[0][0] == "QuantumCompilationStage"
    first = out[0][1]
    assert first[0].startswith("qshape-cache-lookup{salt=")
    # Catalyst's stage now converts the capture frontend's qref first: qshape's
    # passes see value semantics.
    at = base[0][1].index("convert-to-value-semantics") + 1
    assert first[1:] == base[0][1][:at] + ["qshape-canonicalize", "qshape-roll-loops"] + \
        base[0][1][at:]
    assert out[-1][1] == base[-1][1] + ["qshape-cache-store"]
    assert out[1:-1] == base[1:-1]


def test_placement_in_both_generations_of_the_stage():
    # Catalyst <= 0.15: the frontend writes quantum, qshape's passes go first.
    old = [("QuantumCompilationStage", ["canonicalize", "split-multiple-tapes"])]
    out = qc.pipeline(old, cache=False)
    assert out[0][1] == ["qshape-canonicalize", "qshape-roll-loops", "canonicalize",
                         "split-multiple-tapes"]
    # Catalyst's main: right after convert-to-value-semantics, also when it is
    # nested or has options.
    new = [("QuantumCompilationStage", ["canonicalize", "verify-no-quantum-use-after-free",
                                         "builtin.module(convert-to-value-semantics)",
                                         "canonicalize"])]
    out = qc.pipeline(new, cache=False)
    assert out[0][1] == ["canonicalize", "verify-no-quantum-use-after-free",
                         "builtin.module(convert-to-value-semantics)", "qshape-canonicalize",
                         "qshape-roll-loops", "canonicalize"]


def test_quantum_stage_need_not_be_first():
    base = [("Pre", ["cse"]), ("quantum-compilation-stage", ["canonicalize"]), ("Post", ["inline"])]
    out = qc.pipeline(base)
    assert out[0][1][0].startswith("qshape-cache-lookup") and out[0][1][1:] == ["cse"]
    assert out[1][1] == ["qshape-canonicalize", "qshape-roll-loops", "canonicalize"]
    assert out[2][1] == ["inline", "qshape-cache-store"]


def test_one_stage_pipeline_gets_both_cache_passes():
    out = qc.pipeline([("QuantumCompilationStage", ["canonicalize"])])
    passes = out[0][1]
    assert passes[0].startswith("qshape-cache-lookup{salt=")
    assert passes[1:] == ["qshape-canonicalize", "qshape-roll-loops", "canonicalize",
                          "qshape-cache-store"]


def test_quantum_stage_by_name_or_a_clear_error():
    base = [("mine", ["cse"]), ("lower", ["inline"])]
    with pytest.raises(ValueError, match=r"no quantum-compilation stage .* among the stages \['mine', 'lower'\]"):
        qc.pipeline(base)
    out = qc.pipeline(base, quantum_stage="lower", cache=False)
    assert out == [("mine", ["cse"]), ("lower", ["qshape-canonicalize", "qshape-roll-loops", "inline"])]
    # Without canonicalize and roll no quantum stage is needed; nothing at all gives the input.
    assert qc.pipeline(base, canonicalize=False, roll_loops=False, cache=False) == base


def test_bad_pipelines_are_refused():
    for bad in ([], "cse", [("s", "cse")], [("s", ["cse"], "x")], [(1, ["cse"])]):
        with pytest.raises(TypeError, match=r"list of \(stage_name, \[pass, ...\]\)"):
            qc.pipeline(bad)
    with pytest.raises(ValueError, match="already has qshape passes .*qshape-canonicalize"):
        qc.pipeline(qc.pipeline())


def test_options():
    out = qc.pipeline(roll_options={"verify-roundtrip": True, "min-trip-count": 4},
                      cache_options={"dir": "/tmp/a cache", "mode": "read", "max-size": "500M",
                                     "emit-remarks": True})
    first, last = out[0][1], out[-1][1]
    assert "qshape-roll-loops{verify-roundtrip=true min-trip-count=4}" in first
    assert first[0].startswith("qshape-cache-lookup{salt=")
    assert first[0].endswith(' dir="/tmp/a cache" mode=read emit-remarks=true}')
    assert last[-1] == 'qshape-cache-store{dir="/tmp/a cache" mode=read max-size=500M emit-remarks=true}'
    with pytest.raises(ValueError, match="unknown cache option.*pipeline; known: dir, emit-remarks"):
        qc.pipeline(cache_options={"pipeline": "cse"})


def test_native_options_go_to_the_lookup_only():
    out = qc.pipeline(cache_options={"dir": "/tmp/c", "native": True,
                                     "runtime-lib": "/opt/catalyst/lib/librt_capi.so"})
    first, last = out[0][1][0], out[-1][1][-1]
    assert first.endswith(' dir=/tmp/c native=true runtime-lib=/opt/catalyst/lib/librt_capi.so}')
    assert last == "qshape-cache-store{dir=/tmp/c}"
    # Catalyst loads its library RTLD_LOCAL: without its own runtime the
    # cached library could not resolve a runtime call.
    with pytest.raises(ValueError, match="native needs runtime-lib: the path of Catalyst's "
                                         "librt_capi.so"):
        qc.pipeline(cache_options={"native": True})


def test_cache_salt_names_the_whole_lowering():
    def salt(**kw):
        lookup = qc.pipeline(**kw)[0][1][0]
        return lookup[len("qshape-cache-lookup{salt="):].split()[0].rstrip("}")
    base = qc.default_pipeline()
    assert len(salt()) == 64 and salt() == salt()
    changed = copy.deepcopy(base)
    changed[3][1].append("cse")
    assert salt(stages=changed) != salt(stages=base)
    assert salt(roll_options={"min-trip-count": 4}) != salt()
    assert salt(cache_options={"salt": "v2"}) != salt()
    # Where the entries live is not what they stand for.
    assert salt(cache_options={"dir": "/elsewhere"}) == salt()


# --- the pipelines against qshape-opt and mlir-opt --------------------------

def all_on(tmp_path):
    """Every option the helpers take; the cache directory (with a space) under tmp_path,
    since parsing on an empty module also runs the passes."""
    return dict(roll_options={"verify-roundtrip": True},
                cache_options={"dir": str(tmp_path / "qshape cache"), "emit-remarks": True,
                               "max-size": "1G"})


@needs_qshape
def test_every_qshape_pass_named_exists_in_qshape_opt(tmp_path):
    known = registered_passes()
    named = {n for n in names_in(qc.pipeline(**all_on(tmp_path))) if n.startswith("qshape-")}
    assert named == {"qshape-cache-lookup", "qshape-canonicalize", "qshape-roll-loops",
                     "qshape-cache-store"}
    assert named <= known, named - known


@needs_qshape
def test_each_stage_parses_in_qshape_opt(tmp_path):
    known = registered_passes()
    base = qc.default_pipeline()
    catalysts = set(names_in(base))
    checked, dumps = 0, {}
    for name, passes in qc.pipeline(base, **all_on(tmp_path)):
        kept, missing = checkable(passes, known)
        # What qshape-opt lacks came from Catalyst's pipeline, not from the helper.
        assert not [n for n in missing if n.startswith("qshape-") or n not in catalysts], name
        if not kept:
            continue
        out = parse(qshape.tool("qshape-opt"), ",".join(kept), tmp_path)
        assert out.returncode == 0, f"{name}: {out.stderr}"
        dumps[name] = out.stderr
        checked += len(kept)
    first, last = base[0][0], base[-1][0]
    cache = "{%s}" % (tmp_path / "qshape cache")  # how MLIR prints a value with a space
    assert f"qshape-cache-lookup{{defer-install=true dir={cache} emit-remarks=true linker= mode=readwrite" in dumps[first]
    assert "qshape-roll-loops{" in dumps[first] and "verify-roundtrip=true" in dumps[first]
    assert f"qshape-cache-store{{dir={cache} emit-remarks=true max-size=1G" in dumps[last]
    assert checked >= 4 + 20, checked


@needs_qshape
def test_a_misspelt_pass_fails_the_parse(tmp_path):
    # The parse check can fail: an option qshape-roll-loops does not have.
    stages = qc.pipeline(roll_options={"verify-round-trip": True}, cache=False)
    kept, _ = checkable(stages[0][1], registered_passes())
    out = parse(qshape.tool("qshape-opt"), ",".join(kept), tmp_path)
    assert out.returncode != 0 and "verify-round-trip" in out.stderr


@needs_qshape
@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason=f"{MLIR_OPT} not installed")
def test_each_stage_parses_in_mlir_opt_with_the_plugin(tmp_path):
    # As in Catalyst's driver: qshape's passes come from the plugin, the rest from the host.
    opts = qc.qjit_options(**all_on(tmp_path))
    plugin_args = [f"--load-pass-plugin={p}" for p in opts["pass_plugins"]]
    known = registered_passes()
    for name, passes in opts["pipelines"]:
        kept, _ = checkable(passes, known)
        if kept:
            out = parse(MLIR_OPT, ",".join(kept), tmp_path, plugin_args)
            assert out.returncode == 0, f"{name}: {out.stderr}"


@needs_qshape
def test_first_stage_rolls_and_keys_a_circuit(tmp_path):
    # The quantum stage's checkable part, run on W1 as traced without autograph.
    stages = qc.pipeline(cache_options={"dir": str(tmp_path / "cache")})
    kept, _ = checkable(stages[0][1], registered_passes())
    out = subprocess.run([qshape.tool("qshape-opt"), str(EXAMPLES / "w1-unrolled.mlir"),
                          f"--pass-pipeline=builtin.module({','.join(kept)})"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "scf.for" in out.stdout
    assert 'qshape.cache_key = "blake3:' in out.stdout
    assert qshape.stats(out.stdout)["loops"] == 1


# --- the qjit arguments -----------------------------------------------------

@needs_qshape
def test_qjit_options_name_the_pass_plugin_only():
    opts = qc.qjit_options(cache=False)
    assert set(opts) == {"pipelines", "pass_plugins", "dialect_plugins"}
    plugin = qshape.pass_plugin()
    assert {str(p) for p in opts["pass_plugins"]} == {plugin}
    # Catalyst has its own quantum dialect: never give it qshape's dialect plugin.
    assert {str(p) for p in opts["dialect_plugins"]} == {plugin}
    assert opts["pipelines"] == qc.pipeline(cache=False)
