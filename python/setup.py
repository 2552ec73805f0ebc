"""Build hooks that pyproject.toml cannot express.

* The version is qshape's, read from `project(qshape VERSION ...)` in the
  top-level CMakeLists.txt (its one source).
* `QSHAPE_PREFIX`, if set while the package is built (`QSHAPE_PREFIX=P pip
  install ./python`), is recorded in the installed package as
  qshape/_install_prefix.py, the second rule of qshape's lookup
  (qshape/_locate.py). A prefix without bin/qshape-opt is refused.
* The build happens in a temporary directory: pip builds in the source tree,
  and a python/build/ left from an earlier build would carry files that are
  gone from the source into the wheel.
"""
import atexit
import os
import re
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def qshape_version():
    cmakelists = os.path.join(HERE, "..", "CMakeLists.txt")
    with open(cmakelists) as f:
        m = re.search(r"project\(\s*qshape\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise SystemExit(f"qshape: no `project(qshape VERSION ...)` in {cmakelists}")
    return m.group(1)


class BuildPyRecordingPrefix(build_py):
    def run(self):
        super().run()
        prefix = os.environ.get("QSHAPE_PREFIX")
        if prefix:
            prefix = os.path.abspath(prefix)
            if not os.path.isfile(os.path.join(prefix, "bin", "qshape-opt")):
                raise SystemExit(f"qshape: QSHAPE_PREFIX={prefix} has no bin/qshape-opt; run "
                                 f"`cmake --install build --prefix {prefix}` first, or unset it")
        target = os.path.join(self.build_lib, "qshape", "_install_prefix.py")
        with open(target, "w") as f:
            f.write("# Written by setup.py at install time from $QSHAPE_PREFIX.\n"
                    f"PREFIX = {prefix!r}\n")


build_base = tempfile.mkdtemp(prefix="qshape-python-build-")
atexit.register(shutil.rmtree, build_base, ignore_errors=True)

setup(version=qshape_version(),
      cmdclass={"build_py": BuildPyRecordingPrefix},
      options={"build": {"build_base": build_base}, "egg_info": {"egg_base": build_base}})
