"""Compile once from Python: ``qshape.compile`` and ``Artifact.run``.

Thin over the tools: ``compile`` runs ``qshape-compile -v --timing`` (which
consults the artifact cache before any lowering, docs/cache.md) and reads its
summary; ``Artifact.run`` runs ``qshape-run`` on the library and returns the
results as qshape-sim prints them::

    art = qshape.compile(Path("circuit.mlir"), opt_level=2)
    art.hit, art.key, art.timings["total"]
    art.run([0.5], shots=1000, seed=7)

A second ``qshape.compile`` of the same program in a new Python session is a
hit: it costs a process start and a file copy, not a compilation.

A sweep (one topology, other baked values) compiles once in one process::

    arts = qshape.compile_many(paths, share_topology=True)   # 1 miss, then hits

What a program argument (``source``) is, decided by its type alone:

* an ``os.PathLike`` (``pathlib.Path``): a file, MLIR text or bytecode, with
  any name;
* ``bytes`` (or ``bytearray``, ``memoryview``): the module itself, text or
  bytecode, as a file would hold it;
* ``str``: MLIR text, except a one-line string ending in ``.mlir`` or
  ``.mlirbc``, which is a path (no MLIR text ends so). Whether a file of
  that name exists is never asked: ``"x.txt"`` is MLIR text (and fails to
  parse, with a hint to pass ``Path("x.txt")``);
* anything else (``None`` included) is an ``ArgumentTypeError``.
"""
import json
import operator
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._errors import ArgumentError, ArgumentTypeError, CompileError, InputNotFound, RunError

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
"""A program: a path (``os.PathLike``; a one-line str ending in .mlir/.mlirbc) or its contents."""

PathArg = Union[str, "os.PathLike[str]"]
"""A file or directory argument (``output``, ``output_dir``, ``cache_dir``)."""

_SUMMARY = re.compile(r"^qshape-compile: (hit|miss|off) (blake3:[0-9a-f]{64}) ([0-9.]+) s$", re.M)
# With --output-dir each line names its input.
_SUMMARY_OF = re.compile(r"^qshape-compile: (hit|miss|off) (blake3:[0-9a-f]{64}) ([0-9.]+) s (.+)$",
                         re.M)
_TIMING = re.compile(r"^qshape-compile: timing: (?:hit: )?(.*?)(?:; no MLIR pass.*)?$", re.M)
_STAGE = re.compile(r"([a-z-]+) ([0-9.]+) s")

CACHE_MODES = ("off", "read", "write", "readwrite")

PATH_SUFFIXES = (".mlir", ".mlirbc")
"""A one-line str with one of these endings is a path; any other str is MLIR text."""


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

    def run(self, args: Union[None, str, Sequence[Any]] = None, shots: Optional[int] = None,
            seed: Optional[int] = None, entry: Optional[str] = None) -> List[Any]:
        """Runs the library once (qshape-run) and returns its results list.

        ``args``: one value per argument of the entry (a list, or its JSON text);
        ``shots`` overrides the device's (0 = analytic); ``seed`` seeds sampling.
        Raises RunError if the run fails.
        """
        from . import tool
        cmd = [tool("qshape-run"), self.path]
        text = None
        if args is not None:
            # Through a pipe, not argv: any size goes (argv stops at 128 KiB).
            try:
                text = args if isinstance(args, str) else json.dumps(args)
            except (TypeError, ValueError) as e:
                raise ArgumentTypeError(f"Artifact.run: args must be JSON text or a list of "
                                        f"JSON values: {e}") from None
            cmd += ["--args", "@/dev/stdin"]
        if shots is not None:
            cmd += ["--shots", str(_int("shots", shots))]
        if seed is not None:
            cmd += ["--seed", str(_int("seed", seed))]
        if entry is not None:
            cmd += ["--entry", entry]
        out = subprocess.run(cmd, capture_output=True, text=True, input=text)
        if out.returncode != 0:
            raise RunError(f"qshape-run {self.path} failed:\n{out.stderr}")
        return json.loads(out.stdout)["results"]


def _int(name: str, value: Any) -> int:
    try:
        return operator.index(value)  # int, numpy's ints; not float, not str
    except TypeError:
        raise ArgumentTypeError(f"{name}={value!r}: an integer is needed") from None


def _source(source: Any, where: str) -> Tuple[Optional[str], Optional[bytes]]:
    """``(path, None)`` for a program in a file, ``(None, contents)`` for one in memory."""
    if isinstance(source, os.PathLike):
        path = os.fsdecode(os.fspath(source))
        if not os.path.isfile(path):
            raise InputNotFound(f"{where}: {path}: no such file" if not os.path.exists(path)
                                else f"{where}: {path}: not a file")
        return path, None
    if isinstance(source, (bytes, bytearray, memoryview)):
        return None, bytes(source)
    if isinstance(source, str):
        if "\n" not in source and source.endswith(PATH_SUFFIXES):
            if not os.path.isfile(source):
                raise InputNotFound(f"{where}: {source}: no such file (a one-line str ending "
                                    f"in {' or '.join(PATH_SUFFIXES)} is a path)")
            return source, None
        return None, source.encode()
    raise ArgumentTypeError(
        f"{where}: a program is a pathlib.Path (or another os.PathLike), MLIR text or bytecode "
        f"as str or bytes, or a str path ending in {' or '.join(PATH_SUFFIXES)}; got "
        f"{type(source).__name__}")


def _failure(what: str, source: Any, returncode: int, stderr: str) -> CompileError:
    """The CompileError of a failed qshape-compile: its first line names the input."""
    hint = ""
    if isinstance(source, str) and "\n" not in source and os.path.isfile(source):
        hint = (f"\n(the str {source!r} was read as MLIR text, and a file of that name exists: "
                f"pass pathlib.Path({source!r}) to compile the file)")
    return CompileError(f"qshape-compile failed on {what} (exit {returncode}):\n{stderr}"
                        f"{hint}")


def _flags(opt_level: Optional[int], roll: bool, cache: str, cache_dir: Optional[PathArg],
           cache_remote: Optional[str], lock_wait: Optional[str], linker: Optional[str],
           allow_unregistered_dialect: bool, share_topology: bool,
           extra_args: Iterable[str]) -> List[str]:
    """qshape-compile's options for compile() and compile_many()."""
    if cache not in CACHE_MODES:
        raise ArgumentError(f"cache={cache!r}: use one of {', '.join(CACHE_MODES)}")
    cmd = ["-v", f"--cache={cache}"]
    if opt_level is not None:
        cmd.append(f"--opt-level={_int('opt_level', opt_level)}")
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
    if isinstance(extra_args, (str, bytes)):
        raise ArgumentTypeError("extra_args is a list of arguments, not one string")
    return cmd + list(extra_args)


def compile(source: Source, output: Optional[PathArg] = None, *,
            opt_level: Optional[int] = None, roll: bool = True, cache: str = "readwrite",
            cache_dir: Optional[PathArg] = None, cache_remote: Optional[str] = None,
            lock_wait: Optional[str] = None, linker: Optional[str] = None,
            allow_unregistered_dialect: bool = False, share_topology: bool = False,
            extra_args: Iterable[str] = ()) -> Artifact:
    """Compiles one program to a shared library.

    ``source``: a ``pathlib.Path`` (a file), ``bytes`` or ``str`` of MLIR (a
    one-line str ending in .mlir or .mlirbc is a path; see the module's
    documentation). ``output``: the library's path (default: ``<new temporary
    directory>/<name>.so``). ``cache``: off, read, write or readwrite
    (qshape-compile --cache); ``cache_dir`` defaults to $QSHAPE_CACHE_DIR, else
    ~/.cache/qshape. ``share_topology``: one library per topology, this
    program's values written in (--share-topology). The other options are
    qshape-compile's (``qshape compile --help``). Raises CompileError if the
    program does not compile (its first line names the input), InputNotFound
    for a path that names no file, ArgumentTypeError/ArgumentError for
    arguments of the wrong type or value; all are ``qshape.Error``.
    """
    from . import tool
    path, contents = _source(source, "qshape.compile")
    flags = _flags(opt_level, roll, cache, cache_dir, cache_remote, lock_wait, linker,
                   allow_unregistered_dialect, share_topology, extra_args)
    if output is None:
        stem = os.path.splitext(os.path.basename(path))[0] if path is not None else "module"
        output = os.path.join(tempfile.mkdtemp(prefix="qshape-artifact-"), stem + ".so")
    output = os.path.abspath(os.fspath(output))
    cmd = [tool("qshape-compile"), path if path is not None else "-", "-o", output,
           "--timing"] + flags
    # Bytes in (text or bytecode, as a file holds it), diagnostics out as text.
    out = subprocess.run(cmd, input=contents if contents is not None else b"",
                         capture_output=True)
    stderr = out.stderr.decode(errors="replace")
    summary = _SUMMARY.search(stderr)
    if out.returncode != 0 or not summary:
        what = path if path is not None else f"the MLIR given in memory ({len(contents)} bytes)"
        raise _failure(what, source, out.returncode, stderr)
    timings = {}
    for line in _TIMING.finditer(stderr):
        for name, value in _STAGE.findall(line.group(1)):
            timings[name] = float(value)
    return Artifact(path=output, key=summary.group(2), status=summary.group(1),
                    seconds=float(summary.group(3)), timings=timings)


def compile_many(sources: Iterable[Source], output_dir: Optional[PathArg] = None, *,
                 opt_level: Optional[int] = None, roll: bool = True, cache: str = "readwrite",
                 cache_dir: Optional[PathArg] = None, cache_remote: Optional[str] = None,
                 lock_wait: Optional[str] = None, linker: Optional[str] = None,
                 allow_unregistered_dialect: bool = False, share_topology: bool = False,
                 extra_args: Iterable[str] = ()) -> List[Artifact]:
    """Compiles several programs in one qshape-compile run; one Artifact each, in order.

    ``sources``: programs as ``compile`` takes them; those given in memory are
    written to ``output_dir/module-<i>.mlir``. Each library is
    ``output_dir/<name>.so`` (default: a new temporary directory), so the files'
    names must differ. With ``share_topology`` a sweep over one topology
    compiles once: the first program misses, the others hit in the same
    process. The options are compile()'s. Raises CompileError if any program
    fails (the others' libraries are written).
    """
    from . import tool
    if isinstance(sources, (str, bytes, bytearray, memoryview, os.PathLike)) or sources is None:
        raise ArgumentTypeError(f"qshape.compile_many: sources is a list of programs; got "
                                f"{type(sources).__name__} (qshape.compile takes one)")
    resolved = [_source(s, f"qshape.compile_many: sources[{i}]") for i, s in enumerate(sources)]
    flags = _flags(opt_level, roll, cache, cache_dir, cache_remote, lock_wait, linker,
                   allow_unregistered_dialect, share_topology, extra_args)
    output_dir = os.path.abspath(os.fspath(output_dir) if output_dir is not None
                                 else tempfile.mkdtemp(prefix="qshape-artifacts-"))
    os.makedirs(output_dir, exist_ok=True)
    paths = []
    for i, (path, contents) in enumerate(resolved):
        if path is not None:
            paths.append(os.path.abspath(path))
        else:
            paths.append(os.path.join(output_dir, f"module-{i}.mlir"))
            with open(paths[-1], "wb") as f:
                f.write(contents)
    if not paths:
        return []
    cmd = [tool("qshape-compile"), f"--output-dir={output_dir}"] + flags + paths
    out = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    by_input = {m.group(4): m for m in _SUMMARY_OF.finditer(out.stderr)}
    if out.returncode != 0 or any(p not in by_input for p in paths):
        failed = [p for p in paths if p not in by_input]
        raise CompileError(f"qshape-compile failed on {', '.join(failed) or 'its inputs'} "
                           f"(exit {out.returncode}):\n{out.stderr}")
    return [Artifact(path=os.path.join(output_dir,
                                       os.path.splitext(os.path.basename(p))[0] + ".so"),
                     key=by_input[p].group(2), status=by_input[p].group(1),
                     seconds=float(by_input[p].group(3)))
            for p in paths]
