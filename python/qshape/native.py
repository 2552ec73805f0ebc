"""Compile once from Python: ``qshape.compile`` and ``Artifact.run``.

Thin over the tools: ``compile`` runs ``qshape-compile -v --timing`` (which
consults the artifact cache before any lowering, docs/cache.md) and reads its
summary; ``Artifact.run`` runs ``qshape-run`` on the library and returns the
results as qshape-sim prints them::

    art = qshape.compile("circuit.mlir", opt_level=2)
    art.hit, art.key, art.timings["total"]
    art.run([0.5], shots=1000, seed=7)

A second ``qshape.compile`` of the same program in a new Python session is a
hit: it costs a process start and a file copy, not a compilation.

A sweep (one topology, other baked values) compiles once in one process::

    arts = qshape.compile_many(paths, share_topology=True)   # 1 miss, then hits
"""
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional

_SUMMARY = re.compile(r"^qshape-compile: (hit|miss|off) (blake3:[0-9a-f]{64}) ([0-9.]+) s$", re.M)
# With --output-dir each line names its input.
_SUMMARY_OF = re.compile(r"^qshape-compile: (hit|miss|off) (blake3:[0-9a-f]{64}) ([0-9.]+) s (.+)$",
                         re.M)
_TIMING = re.compile(r"^qshape-compile: timing: (?:hit: )?(.*?)(?:; no MLIR pass.*)?$", re.M)
_STAGE = re.compile(r"([a-z-]+) ([0-9.]+) s")

CACHE_MODES = ("off", "read", "write", "readwrite")


class CompileError(ValueError):
    """qshape-compile failed; the message carries its diagnostics."""


class RunError(RuntimeError):
    """qshape-run failed (a run-time error of the program, or a bad library)."""


@dataclass(frozen=True)
class Artifact:
    """A compiled library: where it is, its compile key, and what the cache did."""
    path: str
    key: str
    status: str  # "hit", "miss" or "off" (cache off)
    seconds: float  # qshape-compile's own wall time
    timings: Dict[str, float] = field(default_factory=dict)  # stage -> seconds (--timing)

    @property
    def hit(self) -> bool:
        return self.status == "hit"

    @property
    def miss(self) -> bool:
        return self.status == "miss"

    def run(self, args=None, shots: Optional[int] = None, seed: Optional[int] = None,
            entry: Optional[str] = None):
        """Runs the library once (qshape-run) and returns its results list.

        ``args``: one value per argument of the entry (a list, or its JSON text);
        ``shots`` overrides the device's (0 = analytic); ``seed`` seeds sampling.
        """
        from . import tool
        cmd = [tool("qshape-run"), self.path]
        text = None
        if args is not None:
            # Through a pipe, not argv: any size goes (argv stops at 128 KiB).
            text = args if isinstance(args, str) else json.dumps(args)
            cmd += ["--args", "@/dev/stdin"]
        if shots is not None:
            cmd += ["--shots", str(int(shots))]
        if seed is not None:
            cmd += ["--seed", str(int(seed))]
        if entry is not None:
            cmd += ["--entry", entry]
        out = subprocess.run(cmd, capture_output=True, text=True, input=text)
        if out.returncode != 0:
            raise RunError(f"qshape-run {self.path} failed:\n{out.stderr}")
        return json.loads(out.stdout)["results"]


def _is_path(source) -> bool:
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and "\n" not in source and (
        source.endswith(".mlir") or os.path.isfile(source))


def _flags(opt_level, roll, cache, cache_dir, cache_remote, lock_wait, linker,
           allow_unregistered_dialect, share_topology, extra_args):
    """qshape-compile's options for compile() and compile_many()."""
    if cache not in CACHE_MODES:
        raise ValueError(f"cache={cache!r}: use one of {', '.join(CACHE_MODES)}")
    cmd = ["-v", f"--cache={cache}"]
    if opt_level is not None:
        cmd.append(f"--opt-level={int(opt_level)}")
    if not roll:
        cmd.append("--no-roll")
    if cache_dir is not None:
        cmd.append(f"--cache-dir={os.fspath(cache_dir)}")
    if cache_remote is not None:
        cmd.append(f"--cache-remote={cache_remote}")
    if lock_wait is not None:
        cmd.append(f"--cache-lock-wait={lock_wait}")
    if linker is not None:
        cmd.append(f"--linker={linker}")
    if allow_unregistered_dialect:
        cmd.append("--allow-unregistered-dialect")
    if share_topology:
        cmd.append("--share-topology")
    return cmd + list(extra_args)


def compile(source, output=None, *, opt_level: Optional[int] = None, roll: bool = True,
            cache: str = "readwrite", cache_dir=None, cache_remote: Optional[str] = None,
            lock_wait: Optional[str] = None, linker: Optional[str] = None,
            allow_unregistered_dialect: bool = False, share_topology: bool = False,
            extra_args=()) -> Artifact:
    """Compiles MLIR (text, or a path to a .mlir file) to a shared library.

    ``output``: the library's path (default: ``<new temporary directory>/<name>.so``).
    ``cache``: off, read, write or readwrite (qshape-compile --cache); ``cache_dir``
    defaults to $QSHAPE_CACHE_DIR, else ~/.cache/qshape. ``share_topology``: one
    library per topology, this program's values written in (--share-topology). The
    other options are qshape-compile's (``qshape compile --help``). Raises
    CompileError on failure.
    """
    from . import tool
    flags = _flags(opt_level, roll, cache, cache_dir, cache_remote, lock_wait, linker,
                   allow_unregistered_dialect, share_topology, extra_args)
    is_path = _is_path(source)
    if output is None:
        stem = os.path.splitext(os.path.basename(os.fspath(source)))[0] if is_path else "module"
        output = os.path.join(tempfile.mkdtemp(prefix="qshape-artifact-"), stem + ".so")
    output = os.path.abspath(os.fspath(output))
    cmd = [tool("qshape-compile"), os.fspath(source) if is_path else "-", "-o", output,
           "--timing"] + flags
    out = subprocess.run(cmd, input=None if is_path else source, capture_output=True, text=True)
    summary = _SUMMARY.search(out.stderr)
    if out.returncode != 0 or not summary:
        raise CompileError(f"qshape-compile failed (exit {out.returncode}):\n{out.stderr}")
    timings = {}
    for line in _TIMING.finditer(out.stderr):
        for name, value in _STAGE.findall(line.group(1)):
            timings[name] = float(value)
    return Artifact(path=output, key=summary.group(2), status=summary.group(1),
                    seconds=float(summary.group(3)), timings=timings)


def compile_many(sources, output_dir=None, *, opt_level: Optional[int] = None,
                 roll: bool = True, cache: str = "readwrite", cache_dir=None,
                 cache_remote: Optional[str] = None, lock_wait: Optional[str] = None,
                 linker: Optional[str] = None, allow_unregistered_dialect: bool = False,
                 share_topology: bool = False, extra_args=()) -> List[Artifact]:
    """Compiles several programs in one qshape-compile run; one Artifact each, in order.

    ``sources``: paths to .mlir files, or MLIR texts (written to
    ``output_dir/module-<i>.mlir``). Each library is ``output_dir/<name>.so``
    (default: a new temporary directory), so the files' names must differ. With
    ``share_topology`` a sweep over one topology compiles once: the first program
    misses, the others hit in the same process. The options are compile()'s.
    Raises CompileError if any program fails (the others' libraries are written).
    """
    from . import tool
    flags = _flags(opt_level, roll, cache, cache_dir, cache_remote, lock_wait, linker,
                   allow_unregistered_dialect, share_topology, extra_args)
    output_dir = os.path.abspath(os.fspath(output_dir) if output_dir is not None
                                 else tempfile.mkdtemp(prefix="qshape-artifacts-"))
    os.makedirs(output_dir, exist_ok=True)
    paths = []
    for i, source in enumerate(sources):
        if _is_path(source):
            paths.append(os.path.abspath(os.fspath(source)))
        else:
            paths.append(os.path.join(output_dir, f"module-{i}.mlir"))
            with open(paths[-1], "w") as f:
                f.write(source)
    if not paths:
        return []
    cmd = [tool("qshape-compile"), f"--output-dir={output_dir}"] + flags + paths
    out = subprocess.run(cmd, capture_output=True, text=True)
    by_input = {m.group(4): m for m in _SUMMARY_OF.finditer(out.stderr)}
    if out.returncode != 0 or any(p not in by_input for p in paths):
        raise CompileError(f"qshape-compile failed (exit {out.returncode}):\n{out.stderr}")
    return [Artifact(path=os.path.join(output_dir,
                                       os.path.splitext(os.path.basename(p))[0] + ".so"),
                     key=by_input[p].group(2), status=by_input[p].group(1),
                     seconds=float(by_input[p].group(3)))
            for p in paths]
