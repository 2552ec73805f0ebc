"""The `qshape` command: run qshape's tools from the installation the package finds."""
import argparse
import json
import os
import sys
from typing import Optional, Sequence

from . import _locate
from . import catalyst as _catalyst

TOOL_PREFIX = "qshape-"


def _tools(loc):
    """Subcommand name -> path, for every qshape-* executable in the prefix's bin/."""
    if loc is None:
        return {}
    bindir = loc.prefix / "bin"
    out = {}
    for entry in sorted(os.listdir(bindir)):
        path = bindir / entry
        if entry.startswith(TOOL_PREFIX) and os.access(path, os.X_OK) and path.is_file():
            out[entry[len(TOOL_PREFIX):]] = path
    return out


def _where(loc, as_json):
    files = {"prefix": str(loc.prefix), "found-by": loc.rule.name,
             "pass-plugin": str(loc.lib("QShapePassPlugin.so")),
             "dialect-plugin": str(loc.lib("QShapeQuantumDialectPlugin.so")),
             "tools": {name: str(path) for name, path in _tools(loc).items()}}
    if as_json:
        files["rules"] = [{"rule": r.name, "path": str(r.path) if r.path else None,
                           "is-prefix": _locate.is_prefix(r.path), "note": r.note}
                          for r in loc.rules]
        print(json.dumps(files, indent=2))
        return 0
    print(f"{'prefix:':16}{loc.prefix}")
    print(f"{'found by:':16}{loc.rule.name}" + (f" ({loc.rule.note})" if loc.rule.note else ""))
    for key in ("pass-plugin", "dialect-plugin"):
        print(f"{key + ':':16}{files[key]}")
    print(f"{'tools:':16}{' '.join(TOOL_PREFIX + t for t in files['tools'])}")
    print("lookup order:")
    print(_locate.describe(loc))
    return 0


def _catalyst_pipeline(args):
    cache_options = {}
    if args.cache_dir:
        cache_options["dir"] = args.cache_dir
    stages = _catalyst.pipeline(canonicalize=not args.no_canonicalize,
                                roll_loops=not args.no_roll, cache=not args.no_cache,
                                cache_options=cache_options)
    print(json.dumps([[name, passes] for name, passes in stages], indent=2))
    return 0


def _parser(tools, problem):
    epilog = ("A tool command runs qshape-<command> from the prefix with the remaining "
              "arguments\n(`qshape opt --help` is qshape-opt's help)." if tools else
              f"No tool commands, no qshape installation was found:\n{problem}")
    p = argparse.ArgumentParser(
        prog="qshape", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run qshape's tools from the qshape installation this package finds "
                    "($QSHAPE_PREFIX, the prefix recorded by cmake --install, qshape-opt on PATH, "
                    "the build directory).", epilog=epilog)
    sub = p.add_subparsers(dest="command", metavar="<command>")
    w = sub.add_parser("where", help="print the qshape prefix in use, how it was found, its "
                                     "plugins and tools")
    w.add_argument("--json", action="store_true", help="print it as JSON, with every rule")
    c = sub.add_parser("catalyst-pipeline",
                       help="print Catalyst's default pipeline with qshape's passes as JSON "
                            "(the value of qjit(pipelines=...))")
    c.add_argument("--no-canonicalize", action="store_true", help="leave out qshape-canonicalize")
    c.add_argument("--no-roll", action="store_true", help="leave out qshape-roll-loops")
    c.add_argument("--no-cache", action="store_true", help="leave out the compile cache passes")
    c.add_argument("--cache-dir", help="the cache directory option of the cache passes")
    for name in tools:
        sub.add_parser(name, help=f"run {TOOL_PREFIX}{name}", add_help=False)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        loc, problem = _locate.locate(), ""
    except _locate.QShapeNotFound as e:
        loc, problem = None, str(e)
    tools = _tools(loc)
    if loc is None and argv and not argv[0].startswith("-") and argv[0] != "catalyst-pipeline":
        print(problem, file=sys.stderr)  # `qshape where`, `qshape opt ...` need a prefix
        return 1
    if argv and argv[0] in tools:
        # The tool's own arguments, --help included, go to it untouched.
        path = str(tools[argv[0]])
        os.execv(path, [path] + argv[1:])
    args = _parser(tools, problem).parse_args(argv)
    if args.command is None:
        _parser(tools, problem).print_help()
        return 2
    if args.command == "catalyst-pipeline":
        return _catalyst_pipeline(args)
    return _where(loc, args.json)


def entry_point() -> int:
    """The console script: main(), quiet when its output pipe closes (`qshape where | head`)."""
    try:
        return main()
    except BrokenPipeError:
        # Python's documented way: point stdout at /dev/null so the exit flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(entry_point())
