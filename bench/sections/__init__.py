"""The sections of bench/run.py, in the order they run and appear in
docs/benchmarks.md.

Each module's `run(ctx)` measures and returns a benchlib.Section; run.py adds
the command, date, load and machine and saves it as <build>/bench/<name>.json.
`options` are the run.py options a section reads: its recorded command names
those that differ from their defaults.
"""
import importlib
from typing import NamedTuple


class Spec(NamedTuple):
    name: str      # --sections name, and <build>/bench/<name>.json
    title: str     # its heading in docs/benchmarks.md
    module: str    # bench/sections/<module>.py
    function: str  # the module's entry point: function(ctx) -> Section
    options: tuple  # the run.py options (argparse dests) it reads
    default: bool  # in run.py's default --sections


SECTIONS = [
    Spec("fingerprint", "Fingerprint vs parse", "fingerprint", "run", ("sizes", "repeat"), True),
    Spec("canonicalize", "Canonical form (qshape-canonicalize)", "canonicalize", "run",
         ("sizes",), True),
    Spec("roll", "Loop rolling (qshape-roll-loops)", "roll", "roll", ("sizes", "mlir_opt"), True),
    Spec("roll-scale", "Loop rolling at scale", "roll_scale", "run",
         ("roll_terms", "roll_trotter", "roll_max_ops", "repeat", "sizes", "mlir_opt"), False),
    Spec("allocators", "W3 rolling under each malloc", "roll", "allocators", ("mlir_opt",),
         False),
    Spec("families", "Rolling the families users write", "families", "families", ("repeat",),
         True),
    Spec("nesting", "Nesting depth", "families", "nesting", ("repeat",), True),
    Spec("qref", "W1-W4 in the capture frontend's qref form", "qref", "run", ("native_limit",),
         True),
    Spec("native", "Native compilation (qshape-compile)", "native", "run",
         ("native_trotter", "native_limit"), True),
    Spec("noroll", "Unrolled compiles against argument reads", "noroll", "run",
         ("repeat", "noroll_reads", "noroll_off_max"), False),
    Spec("cache", "Compile cache", "cache", "local", ("repeat", "cache_rounds"), True),
    Spec("remote", "Remote cache", "cache", "remote", ("repeat", "cache_rounds"), True),
    Spec("catalyst-cache", "MLIR cache in a Catalyst-shaped pipeline", "topology",
         "catalyst_cache", ("repeat",), True),
    Spec("catalyst-native", "A Catalyst hit that skips LLVM (native staged cache)",
         "catalyst_native", "run", ("repeat",), True),
    Spec("artifact", "Artifact cache (qshape-compile: compile once)", "artifact", "run",
         ("repeat", "artifact_trotter"), True),
    Spec("topology", "One artifact per topology", "topology", "topology", ("topology_flags",),
         True),
    Spec("session", "W1's batch session end to end", "session", "run", ("repeat",), True),
    Spec("sim", "Simulator throughput", "sim", "run", (), True),
]
BY_NAME = {s.name: s for s in SECTIONS}


def entry(spec):
    """The section's run function (its module imported on first use)."""
    return getattr(importlib.import_module(f"sections.{spec.module}"), spec.function)
