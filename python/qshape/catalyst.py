"""qshape's passes in a Catalyst pipeline, as data.

Catalyst compiles in stages: ``qjit(pipelines=...)`` takes a list of
``(stage_name, [pass, ...])``; each stage's passes are joined with commas and
parsed as one module-level pass pipeline. These helpers take such a list and
return a new one with qshape's passes where they belong:

* ``qshape-canonicalize`` and ``qshape-roll-loops`` in the
  quantum-compilation stage, so that Catalyst lowers the rolled program:
  right after ``convert-to-value-semantics`` where the stage has it (the
  capture frontend's ``qref`` is value semantics from there on), else first
  (Catalyst 0.15 and earlier, whose frontend writes ``quantum`` itself);
* the compile cache around the whole lowering: ``qshape-cache-lookup`` first
  in the first stage and ``qshape-cache-store`` last in the last stage
  (docs/cache.md, "Staged drivers").

Without a pipeline they start from Catalyst's default one:
``catalyst.pipelines.default_pipeline()`` when ``catalyst`` is importable,
else qshape's copy of it (``qshape._catalyst_default``)::

    import qshape.catalyst

    @qml.qjit(**qshape.catalyst.qjit_options(cache_options={"dir": "/tmp/qc"}))
    @qml.qnode(dev)
    def circuit(x): ...

``qjit_options()`` adds the plugin arguments: QShapePassPlugin.so as a pass
plugin and, as Catalyst itself does for ``apply_pass_plugin``, as a dialect
plugin (its dialect entry point registers no ``quantum`` dialect; the
QShapeQuantumDialectPlugin.so is for upstream mlir-opt and must not be given
to Catalyst, which has its own).
"""
import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from . import _catalyst_default
from ._errors import ArgumentError, ArgumentTypeError

Stage = Tuple[str, List[str]]
"""One stage of a Catalyst pipeline: its name and its pass-pipeline strings."""

Stages = List[Stage]
"""A Catalyst pipeline, as ``qjit(pipelines=...)`` takes it."""

QUANTUM_STAGES = ("QuantumCompilationStage", "quantum-compilation-stage")
"""Names of Catalyst's quantum-compilation stage (Python's and the C++ driver's)."""

VALUE_SEMANTICS_PASS = "convert-to-value-semantics"
"""Catalyst's pass from its capture frontend's ``qref`` to ``quantum``: qshape's passes go after it."""


def default_pipeline(use_catalyst: bool = True) -> Stages:
    """Catalyst's default pipeline as a list of ``(stage_name, [pass, ...])``.

    From the installed Catalyst when ``catalyst`` is importable (and
    ``use_catalyst``), else from qshape's copy of Catalyst's lists at commit
    ``_catalyst_default.CATALYST_COMMIT``.
    """
    if use_catalyst:
        try:
            from catalyst.pipelines import default_pipeline as catalysts
        except ImportError:
            pass
        else:
            return [(name, list(passes)) for name, passes in catalysts()]
    return copy.deepcopy(_catalyst_default.DEFAULT_PIPELINE)


def _split(text: str) -> List[str]:
    """Split pass-pipeline text at the commas outside (), {} and quotes."""
    items, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    if depth or quoted:
        raise ArgumentError(f"unbalanced pass pipeline text: {text!r}")
    items.append(text[start:])
    return [item.strip() for item in items if item.strip()]


def pass_names(entry: str) -> List[str]:
    """The pass names in pipeline text: ``"func.func(cse,canonicalize{max-iterations=2})"``
    gives ``["cse", "canonicalize"]``; op anchors (``func.func(...)``) are not passes."""
    names = []
    for item in _split(entry):
        cut = min([i for i in (item.find("{"), item.find("(")) if i >= 0], default=len(item))
        name, rest = item[:cut].strip(), item[cut:]
        if rest.startswith("{"):  # options: skip to the matching brace
            depth, quoted = 0, False
            for i, c in enumerate(rest):
                quoted = quoted != (c == '"')
                if not quoted:
                    depth += (c == "{") - (c == "}")
                    if depth == 0:
                        rest = rest[i + 1:].strip()
                        break
        if rest.startswith("(") and rest.endswith(")"):
            names += pass_names(rest[1:-1])  # `name` anchors a nested pipeline
        else:
            names.append(name)
    return names


def pass_text(name: str, options: Optional[Mapping[str, Any]] = None) -> str:
    """``name{key=value ...}`` with MLIR's option syntax (True -> "true", quoted when needed)."""
    if not options:
        return name
    parts = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        value = str(value)
        if '"' in value:
            raise ArgumentError(f"{name}: option {key}={value!r}: a value cannot contain '\"'")
        if value == "" or any(c in value for c in " {}(),=\t"):
            value = f'"{value}"'
        parts.append(f"{key}={value}")
    return f"{name}{{{' '.join(parts)}}}"


def _check_stages(stages: Any) -> None:
    ok = isinstance(stages, (list, tuple)) and all(
        isinstance(s, (list, tuple)) and len(s) == 2 and isinstance(s[0], str)
        and isinstance(s[1], (list, tuple)) and all(isinstance(p, str) for p in s[1])
        for s in stages)
    if not ok or not stages:
        raise ArgumentTypeError("a Catalyst pipeline is a non-empty list of "
                                "(stage_name, [pass, ...]), as qjit(pipelines=...) takes it")
    present = sorted({n for _, passes in stages for p in passes for n in pass_names(p)
                      if n.startswith("qshape-")})
    if present:
        raise ArgumentError(f"the pipeline already has qshape passes ({', '.join(present)}); "
                         "give it without them")


def _catalyst_version() -> Optional[str]:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("pennylane-catalyst")
    except (ImportError, PackageNotFoundError):
        return None


# The staged compile cache. The one place that knows its passes' names and
# options: if qshape's cache passes change, only this function changes.
_CACHE_LOOKUP_OPTIONS = {"dir", "mode", "emit-remarks", "native", "runtime-lib", "linker",
                         "opt-level"}
_CACHE_STORE_OPTIONS = {"dir", "mode", "emit-remarks", "max-size"}
CACHE_OPTIONS = sorted(_CACHE_LOOKUP_OPTIONS | _CACHE_STORE_OPTIONS | {"salt"})
"""Keys accepted in ``cache_options``."""


def _add_cache(stages: Stages, options: Optional[Mapping[str, Any]]) -> Stages:
    """qshape-cache-lookup first in the first stage, qshape-cache-store last in the last.

    The entry stands for every stage, so the lookup's ``salt`` is a digest of
    the stage lists (qshape's passes and their options included), Catalyst's
    version and the caller's ``salt``: Catalyst's pass strings need not nest
    inside the ``pipeline=`` option value (docs/cache.md).
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(CACHE_OPTIONS))
    if unknown:
        raise ArgumentError(f"unknown cache option(s) {', '.join(unknown)}; "
                         f"known: {', '.join(CACHE_OPTIONS)}")
    if options.get("native") and not options.get("runtime-lib"):
        # Catalyst loads its library with RTLD_LOCAL: the forwarded library
        # finds the runtime only through its own NEEDED entry.
        raise ArgumentError("cache option native needs runtime-lib: the path of Catalyst's "
                            "librt_capi.so, which the cached library is linked against")
    digest = hashlib.sha256(json.dumps(
        {"catalyst": _catalyst_version(), "stages": stages, "salt": options.pop("salt", "")},
        sort_keys=True).encode()).hexdigest()
    lookup = {"salt": digest, **{k: v for k, v in options.items() if k in _CACHE_LOOKUP_OPTIONS}}
    store = {k: v for k, v in options.items() if k in _CACHE_STORE_OPTIONS}
    # One after the other: in a one-stage pipeline the first stage is the last.
    stages[0] = (stages[0][0], [pass_text("qshape-cache-lookup", lookup)] + stages[0][1])
    stages[-1] = (stages[-1][0], stages[-1][1] + [pass_text("qshape-cache-store", store)])
    return stages


def pipeline(stages: Optional[Sequence[Tuple[str, Sequence[str]]]] = None, *,
             canonicalize: bool = True, roll_loops: bool = True, cache: bool = True,
             roll_options: Optional[Mapping[str, Any]] = None,
             cache_options: Optional[Mapping[str, Any]] = None,
             quantum_stage: Optional[str] = None) -> Stages:
    """A Catalyst pipeline with qshape's passes, as a new list of ``(stage_name, [pass, ...])``.

    stages: the pipeline to start from (default: ``default_pipeline()``); not modified.
    canonicalize, roll_loops: put ``qshape-canonicalize`` / ``qshape-roll-loops``
        in the quantum-compilation stage: after ``convert-to-value-semantics`` when
        the stage has it, else first.
    roll_options: qshape-roll-loops options, e.g. ``{"verify-roundtrip": True}``.
    cache: add ``qshape-cache-lookup`` (first) and ``qshape-cache-store`` (last).
    cache_options: ``dir``, ``mode``, ``max-size``, ``emit-remarks``, ``salt``;
        ``native`` (with ``runtime-lib``, and optionally ``linker`` and
        ``opt-level``): a hit skips Catalyst's LLVM too (docs/catalyst.md).
    quantum_stage: the name of the stage to put canonicalize/roll into
        (default: ``QuantumCompilationStage`` or ``quantum-compilation-stage``).
    """
    if stages is None:
        stages = default_pipeline()
    _check_stages(stages)
    out = [(name, list(passes)) for name, passes in stages]

    front = []
    if canonicalize:
        front.append("qshape-canonicalize")
    if roll_loops:
        front.append(pass_text("qshape-roll-loops", roll_options))
    if front:
        names = [name for name, _ in out]
        wanted = [quantum_stage] if quantum_stage else list(QUANTUM_STAGES)
        found = [i for i, name in enumerate(names) if name in wanted]
        if not found:
            raise ArgumentError(f"no quantum-compilation stage ({' or '.join(wanted)}) among the "
                             f"stages {names}; name it with quantum_stage=")
        i = found[0]
        passes = out[i][1]
        at = next((k + 1 for k, entry in enumerate(passes)
                   if VALUE_SEMANTICS_PASS in pass_names(entry)), 0)
        out[i] = (out[i][0], passes[:at] + front + passes[at:])
    if cache:
        out = _add_cache(out, cache_options)
    return out


def plugins() -> Dict[str, Set[Path]]:
    """``{"pass_plugins": {...}, "dialect_plugins": {...}}`` for qjit: QShapePassPlugin.so in both."""
    from . import pass_plugin
    path = Path(pass_plugin())
    return {"pass_plugins": {path}, "dialect_plugins": {path}}


def qjit_options(stages: Optional[Sequence[Tuple[str, Sequence[str]]]] = None,
                 **kwargs: Any) -> Dict[str, Any]:
    """Keyword arguments for ``qjit``: ``pipelines`` from ``pipeline(stages, **kwargs)`` and the
    plugin arguments from ``plugins()``."""
    return {"pipelines": pipeline(stages, **kwargs), **plugins()}
