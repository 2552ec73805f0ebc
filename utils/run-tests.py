#!/usr/bin/env python3
"""Runs every qshape test suite and prints one summary line.

Suites: lit tests (test/), GoogleTest unit tests (through lit), Python tests
(pytest), and the Python package's tests on an installed qshape in a fresh
venv (python/tests/installed.py). The last line is `N passed, N failed` (and
`, N skipped`); the exit code is non-zero when anything failed or when no
test ran at all.
"""
import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

PASS = {"PASS", "XFAIL", "FLAKYPASS"}
SKIP = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}


def run_lit(build, lit, out_json):
    cmd = [lit, "-sv", "--output", out_json,
           os.path.join(build, "test"), os.path.join(build, "unittests")]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd)
    try:
        with open(out_json) as f:
            tests = json.load(f).get("tests", [])
    except (OSError, ValueError) as e:
        print(f"run-tests: lit produced no results ({e})", file=sys.stderr)
        return 0, 1, 0
    p = sum(t["code"] in PASS for t in tests)
    s = sum(t["code"] in SKIP for t in tests)
    return p, len(tests) - p - s, s


def run_pytest(python, src, build, out_xml):
    env = dict(os.environ, QSHAPE_BUILD=os.path.abspath(build))
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           f"--junitxml={out_xml}", os.path.join(src, "python", "tests")]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, env=env, cwd=src)
    return junit_counts(out_xml)


def run_installed_python(python, src, build, out_xml):
    cmd = [python, os.path.join(src, "python", "tests", "installed.py"), "--build", build,
           "--python", python, f"--junitxml={out_xml}"]
    if os.path.exists(out_xml):  # a failed setup must not count the last run's results
        os.remove(out_xml)
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd)
    return junit_counts(out_xml)


def junit_counts(out_xml):
    try:
        root = ET.parse(out_xml).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"run-tests: pytest produced no results ({e})", file=sys.stderr)
        return 0, 1, 0
    suites = [root] if root.tag == "testsuite" else list(root)
    total = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    return total - failed - skipped, failed, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default="build")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--lit", default="/usr/lib/llvm-22/bin/lit")
    ap.add_argument("--suites", default="lit,pytest,installed-python",
                    help="comma-separated suites to run (make check-sanitize: lit)")
    ap.add_argument("--label", default="", help="prefix of the per-suite lines (e.g. sanitize)")
    args = ap.parse_args()
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = os.path.join(args.build, "test-results")
    os.makedirs(results, exist_ok=True)

    runners = {
        "lit": lambda: run_lit(args.build, args.lit, os.path.join(results, "lit.json")),
        "pytest": lambda: run_pytest(args.python, src, args.build, os.path.join(results, "pytest.xml")),
        "installed-python": lambda: run_installed_python(args.python, src, args.build,
                                                         os.path.join(results, "installed-python.xml")),
    }
    suites = {name: runners[name]() for name in args.suites.split(",")}
    passed = sum(r[0] for r in suites.values())
    failed = sum(r[1] for r in suites.values())
    skipped = sum(r[2] for r in suites.values())
    for name, (p, f, s) in suites.items():
        print(f"{args.label + ' ' if args.label else ''}{name}: {p} passed, {f} failed, {s} skipped")
    if passed + failed == 0:
        failed = 1
        print("run-tests: no test ran", file=sys.stderr)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
