# A hit whose OUT already holds the library byte for byte leaves that file in
# place and only sets its modification time (OutputFile::reuseIfSame): the
# same inode, a newer mtime. Any other OUT is replaced by a new file, as on
# every other hit: one with other bytes, a symlink, one with a second link
# (which keeps the old bytes), one of another mode. Every result is checked
# byte for byte against the library the miss wrote.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s --tools %qshape_tools --input %S/Inputs/bell.mlir --work %t | FileCheck %s
# CHECK: reuse-output: 6 cases passed, 0 failed
import argparse
import os
import shutil
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--tools", required=True)
ap.add_argument("--input", required=True)
ap.add_argument("--work", required=True)
a = ap.parse_args()
compile_ = os.path.join(a.tools, "qshape-compile")
cache = os.path.join(a.work, "cache")
out = os.path.join(a.work, "out.so")
failed = []


def run():
    p = subprocess.run([compile_, a.input, "-o", out, "-v", "--cache-dir=" + cache],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"qshape-compile failed: {p.stderr}")
    return p.stderr


def check(name, ok, detail=""):
    if not ok:
        failed.append(name)
        print(f"FAIL {name} {detail}")


assert "miss" in run()
library = open(out, "rb").read()
mode = os.stat(out).st_mode & 0o7777

# The same bytes: kept, touched.
before = os.stat(out)
time.sleep(0.02)
log = run()
after = os.stat(out)
check("same", "hit" in log and after.st_ino == before.st_ino and
      after.st_mtime_ns > before.st_mtime_ns and open(out, "rb").read() == library)

# Other bytes of the same size: replaced.
with open(out, "r+b") as f:
    f.seek(len(library) // 2)
    f.write(b"\0\1\2\3")
ino = os.stat(out).st_ino
run()
check("other bytes", os.stat(out).st_ino != ino and open(out, "rb").read() == library)

# A shorter file: replaced.
with open(out, "r+b") as f:
    f.truncate(100)
run()
check("shorter", open(out, "rb").read() == library)

# A symlink to a file holding the library: replaced by a file.
target = os.path.join(a.work, "target.so")
shutil.copy(out, target)
os.remove(out)
os.symlink(target, out)
run()
check("symlink", not os.path.islink(out) and open(out, "rb").read() == library)

# Two links: OUT is replaced, the other name keeps its file.
other = os.path.join(a.work, "other.so")
os.link(out, other)
ino = os.stat(out).st_ino
run()
check("two links", os.stat(out).st_ino != ino and os.stat(other).st_ino == ino and
      open(out, "rb").read() == library)

# Another mode: replaced, with the mode a new OUT gets.
os.chmod(out, 0o600)
ino = os.stat(out).st_ino
run()
check("mode", os.stat(out).st_ino != ino and os.stat(out).st_mode & 0o7777 == mode and
      open(out, "rb").read() == library)

print(f"reuse-output: {6 - len(failed)} cases passed, {len(failed)} failed")
