#!/usr/bin/env python3
"""The Python package tests on an installed qshape, as a user gets it.

1. `cmake --install <build> --prefix <work>/prefix` (a fresh prefix);
2. `python3 -m venv --system-site-packages <work>/venv` (a fresh venv: Debian's
   setuptools, wheel and pytest come from the system);
3. `pip install --no-build-isolation --no-index <prefix>/share/qshape/python`
   (the copy of python/ that step 1 installs, with the prefix recorded in it);
4. the package tests (python/tests, without the bench generators' tests) run
   by the venv's python from <work>, with QSHAPE_TEST_INSTALLED=1, no other
   QSHAPE_* variable and no qshape tool on PATH: the installed package finds
   the installed prefix through its recorded path.

utils/run-tests.py runs this as the `installed-python` suite of `make check`.
<work> is <build>/python-installed, removed first.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def step(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the qshape build directory to install")
    ap.add_argument("--python", default="/usr/bin/python3", help="the python that makes the venv")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--junitxml", help="pytest's JUnit XML report")
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    work = os.path.join(build, "python-installed")
    prefix, venv = os.path.join(work, "prefix"), os.path.join(work, "venv")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith("QSHAPE_")}
    # No qshape tool on PATH (the build's bin/ or an earlier install).
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and not os.path.isfile(os.path.join(p, "qshape-opt")))
    vpy = os.path.join(venv, "bin", "python")

    ok = (step([args.cmake, "--install", build, "--prefix", prefix], stdout=subprocess.DEVNULL)
          and step([args.python, "-m", "venv", "--system-site-packages", venv])
          and step([vpy, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index",
                    os.path.join(prefix, "share", "qshape", "python")], env=env))
    if not ok:
        print("installed.py: could not set up the installed package", file=sys.stderr)
        return 1
    cmd = [vpy, "-m", "pytest", "-q", "-p", "no:cacheprovider", HERE,
           "--ignore", os.path.join(HERE, "test_generators.py")]
    if args.junitxml:
        cmd.append(f"--junitxml={os.path.abspath(args.junitxml)}")
    test_env = dict(env, QSHAPE_TEST_INSTALLED="1", QSHAPE_TEST_EXPECT_PREFIX=prefix)
    return 0 if step(cmd, env=test_env, cwd=work) else 1


if __name__ == "__main__":
    sys.exit(main())
