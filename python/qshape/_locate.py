"""Where qshape's files are.

A qshape prefix is a directory with qshape's tools in ``bin/`` and its plugins
and libraries in ``lib/``: an install prefix (``cmake --install build --prefix
P``) or a build directory, which has the same two directories. The rules, in
order; the first that gives a prefix with ``bin/qshape-opt`` wins:

1. ``$QSHAPE_PREFIX``;
2. the prefix recorded in the package: ``cmake --install`` writes
   ``qshape/_install_prefix.py`` into its copy of this project,
   ``<prefix>/share/qshape/python``, and ``pip install`` of that copy keeps it;
3. the ``qshape-opt`` on ``PATH`` (its ``bin/`` directory's parent);
4. the build directory: ``$QSHAPE_BUILD``, else, when the package is imported
   from qshape's source tree, ``build/`` at the top of that tree.

A variable that is set (``QSHAPE_PREFIX``, ``QSHAPE_BUILD``) but names no
qshape prefix is an error, not a reason to look elsewhere: it was set on
purpose. A recorded prefix that has gone away is passed over.
"""
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from ._errors import QShapeNotFound

TOOL = "qshape-opt"  # the file whose presence makes a directory a qshape prefix

_PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Rule:
    """One lookup rule and what it saw."""
    name: str             # e.g. "$QSHAPE_PREFIX"
    path: Optional[Path]  # the prefix it proposes, None if it has none
    explicit: bool        # set on purpose: an invalid path is an error
    note: str = ""        # why it proposes nothing, or where the path came from


@dataclass(frozen=True)
class Location:
    """The qshape prefix in use and the rule that found it."""
    prefix: Path
    rule: Rule
    rules: List[Rule]  # every rule, in order, as evaluated

    def bin(self, name: str) -> Path:
        return self.prefix / "bin" / name

    def lib(self, name: str) -> Path:
        return self.prefix / "lib" / name


def is_prefix(path: Optional[Path]) -> bool:
    return path is not None and (path / "bin" / TOOL).is_file()


def recorded_prefix() -> Optional[str]:
    """The prefix recorded in the package by `cmake --install`, if any."""
    try:
        from . import _install_prefix  # written by python/CMakeLists.txt
    except ImportError:
        return None
    return getattr(_install_prefix, "PREFIX", None)


def source_tree() -> Optional[Path]:
    """The top of qshape's source tree if the package is imported from it."""
    top = _PACKAGE_DIR.parent.parent
    if _PACKAGE_DIR.parent.name == "python" and (top / "cmake" / "AddQShape.cmake").is_file():
        return top
    return None


def rules() -> List[Rule]:
    """Every lookup rule with the prefix it proposes, in order."""
    out = []
    env = os.environ.get("QSHAPE_PREFIX")
    out.append(Rule("$QSHAPE_PREFIX", Path(env).resolve() if env else None, True,
                    "" if env else "not set"))

    rec = recorded_prefix()
    out.append(Rule("recorded install prefix", Path(rec) if rec else None, False,
                    str(_PACKAGE_DIR / "_install_prefix.py") if rec else
                    "none recorded (pip install <prefix>/share/qshape/python records one)"))

    opt = shutil.which(TOOL)
    if opt:
        real = Path(opt).resolve()
        out.append(Rule(f"{TOOL} on PATH", real.parent.parent, False, str(opt)))
    else:
        out.append(Rule(f"{TOOL} on PATH", None, False, "not on PATH"))

    build = os.environ.get("QSHAPE_BUILD")
    top = source_tree()
    if build:
        out.append(Rule("$QSHAPE_BUILD", Path(build).resolve(), True))
    elif top:
        out.append(Rule("source-tree build directory", top / "build", False, str(top)))
    else:
        out.append(Rule("$QSHAPE_BUILD", None, True, "not set (and not in a source tree)"))
    return out


def _describe(rs: List[Rule], used: Optional[Rule] = None) -> str:
    lines = []
    for i, r in enumerate(rs, 1):
        what = str(r.path) if r.path else r.note
        if r.path and not is_prefix(r.path):
            what += f" (no bin/{TOOL})"
        if r is used:
            what += "   <- used"
        lines.append(f"  {i}. {r.name}: {what}")
    return "\n".join(lines)


def locate() -> Location:
    """The qshape prefix to use; QShapeNotFound says what was tried and what to do."""
    rs = rules()
    for r in rs:
        if is_prefix(r.path):
            return Location(r.path, r, rs)
        if r.explicit and r.path is not None:
            var = r.name.lstrip("$")
            want = ("the directory given to `cmake --install build --prefix`"
                    if var == "QSHAPE_PREFIX" else "a built qshape build directory")
            raise QShapeNotFound(
                f"qshape: {r.name}={r.path} is not a qshape prefix: it has no bin/{TOOL}. "
                f"Point {var} at {want}, or unset it.")
    raise QShapeNotFound(
        "qshape: no qshape installation found. Looked at, in order:\n" + _describe(rs) +
        "\nInstall it with `cmake --install build --prefix P` and set QSHAPE_PREFIX=P "
        "(or put P/bin on PATH), or set QSHAPE_BUILD to a build directory.")


def describe(loc: Location) -> str:
    """The lookup, as `qshape where` prints it."""
    return _describe(loc.rules, loc.rule)
