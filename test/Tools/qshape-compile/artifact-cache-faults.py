# Fault injection of qshape-compile's artifact cache (issue 13), on the
# helpers of the cache layer's suite (test/Cache/fault-injection.py). Each
# case asserts that every compile exits 0 with a library that gives the
# oracle's (qshape-sim's) results, that no bad entry is ever used or left
# visible, and what -v says (hit or miss):
#
#   hit        a miss then a hit in a new process; the hit runs no MLIR pass
#              (--mlir-print-ir-after-all prints nothing) and no linker (a
#              logging linker logs nothing); OUT is a copy (writing into it
#              leaves the cache intact); owner-only files in 0700 dirs
#   corrupt    a flipped payload byte, a flipped header byte, a truncated
#              and an empty library entry, a damaged source index: each is
#              recompiled, OUT is never the damaged bytes
#   planted    an intact entry whose header names another producer (as
#              `qshape-cache put` writes it: no LLVM, no ABI): a miss
#   killed     SIGKILL in the middle of the library's store: nothing
#              visible; the next compile misses, then hits
#   read-only  a read-only tmpfs with the entry: hits; other inputs compile
#   full       a full tmpfs: compiles, one warning, no partial entry
#   single     8 concurrent compiles of one input: one miss, seven hits;
#   flight     a dead lock holder (SIGKILL) is passed at once, a live stuck
#              one after --cache-lock-wait; a waiter waits in the front end
#              and hits there, with its compiler unstartable
#   keys       another opt level, rolling, linker or binary (build id): a
#              miss; an input cached with --allow-unregistered-dialect is
#              still refused without it; --cache=off/read/write do what
#              they say
#   remote     --cache-remote: another machine (a fresh directory) hits
#              through a redis-server started here; with a team key, a
#              machine with another key refuses the entry (a miss); a
#              stopped server (SIGSTOP) costs one 1 s timeout a compile
#   output     a full disk under OUT: one line, exit 1; SIGTERM and SIGINT
#              mid-compile; nothing left behind (no OUT temporary, no object
#              in TMPDIR); a SIGKILLed run's temporary is swept by the next
#
# RUN: %python %s --tools %qshape_tools --src %qshape_src --work %t | FileCheck %s
# CHECK: artifact-cache faults: 11 cases, {{[0-9]+}} checks passed, 0 failed
import argparse
import fcntl
import importlib.util
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time

spec = importlib.util.spec_from_file_location(
    "fault_injection", os.path.join(os.path.dirname(__file__), "..", "..", "Cache",
                                    "fault-injection.py"))
fi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fi)
S = fi.S
check = S.check
spec = importlib.util.spec_from_file_location(
    "compare_results", os.path.join(os.path.dirname(__file__), "..", "..", "..", "utils",
                                    "compare-results.py"))
cr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cr)


def same_results(a, b):
    """qshape-run's and qshape-sim's outputs agree to 1e-9 (utils/compare-results.py)."""
    try:
        return cr.compare(json.loads(a)["results"], json.loads(b)["results"], 1e-9, False,
                          "results") is None
    except (TypeError, ValueError, KeyError):
        return False

VERBOSE = re.compile(r"^qshape-compile: (hit|miss|off) (blake3:[0-9a-f]{64}) [0-9.]+ s$", re.M)
TOOLS = {}
ARGS = "[0.5]"
SRC = None


class Run:
    def __init__(self, proc, out):
        self.rc = proc.returncode
        self.err = proc.stderr
        m = VERBOSE.search(proc.stderr)
        self.outcome = m.group(1) if m else None
        self.key = m.group(2) if m else None
        self.out = out
        self.warnings = [l for l in proc.stderr.splitlines() if "warning:" in l]


def compile_(inp, cache, out, *extra, env=None, tool=None):
    cmd = [tool or TOOLS["compile"], inp, "-o", out, "-v", f"--cache-dir={cache}"] + list(extra)
    return Run(subprocess.run(cmd, capture_output=True, text=True, env=env), out)


def spawn(inp, cache, out, *extra, env=None):
    cmd = [TOOLS["compile"], inp, "-o", out, "-v", f"--cache-dir={cache}"] + list(extra)
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env)


def results(lib, args=None):
    p = subprocess.run([TOOLS["run"], lib, "--args", args or ARGS], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def good(r, ref, what):
    """The compile worked and its library gives the oracle's results."""
    ok = check(r.rc == 0, f"{what}: exit 0 ({r.err.strip()[-300:]})")
    return check(ok and same_results(results(r.out), ref), f"{what}: OUT gives the oracle's results") and ok


def by_kind(cache):
    """{kind: [key hex]} of the entries, from `qshape-cache list --json`."""
    p = fi.tool(cache, "list", "--json")
    out = {}
    for e in json.loads(p.stdout or "[]") if p.returncode == 0 else []:
        out.setdefault(e["kind"], []).append(e["key"].split(":")[-1])
    return out


def library_path(cache):
    keys = by_kind(cache).get("shared-lib", [])
    return fi.entry_path(cache, keys[0]) if len(keys) == 1 else None


def verified(cache, what, env=None):
    rc, v = fi.verify(cache, env)
    check(rc == 0 and v.get("bad") == 0, f"{what}: every visible entry verifies")


# ---------------------------------------------------------------------------

def case_hit(work, inp, ref):
    S.case = "1 hit"
    d = fi.fresh(os.path.join(work, "c1"))
    log = os.path.join(work, "c1-linker.log")
    linker = os.path.join(work, "c1-ld.sh")
    with open(linker, "w") as f:
        f.write(f"#!/bin/sh\necho \"$@\" >> {log}\nexec {TOOLS['lld']} \"$@\"\n")
    os.chmod(linker, 0o755)
    env = dict(os.environ, QSHAPE_LINKER=linker)
    a = compile_(inp, d, os.path.join(work, "c1-a.so"), "--mlir-print-ir-after-all", env=env)
    good(a, ref, "first compile")
    check(a.outcome == "miss", f"first compile is a miss ({a.outcome})")
    check("IR Dump After" in a.err, "the miss ran MLIR passes")
    check(os.path.exists(log) and len(open(log).readlines()) == 1, "the miss ran the linker once")
    b = compile_(inp, d, os.path.join(work, "c1-b.so"), "--mlir-print-ir-after-all", "--timing",
                 env=env)
    good(b, ref, "second compile")
    check(b.outcome == "hit" and b.key == a.key, f"second compile hits the same key ({b.outcome})")
    check("IR Dump After" not in b.err, "the hit ran no MLIR pass")
    check(len(open(log).readlines()) == 1, "the hit ran no linker")
    check("timing: hit (source index):" in b.err and "no MLIR pass, LLVM or linker ran" in b.err,
          "--timing says the hit skipped every stage")
    check(open(a.out, "rb").read() == open(b.out, "rb").read(), "the hit's OUT is the miss's bytes")
    # Another spelling of the module: the source index misses, the compile key hits.
    other = os.path.join(work, "c1-renamed.mlir")
    open(other, "w").write("// another spelling\n" + open(inp).read().replace("%theta", "%angle"))
    c = compile_(other, d, os.path.join(work, "c1-c.so"), env=env)
    good(c, ref, "renamed input")
    check(c.outcome == "hit" and c.key == a.key, "another spelling hits the compile key")
    check(len(open(log).readlines()) == 1, "still no second link")
    # Owner-only files in 0700 directories.
    modes = []
    for root, dirs, files in os.walk(d):
        modes += [stat.S_IMODE(os.stat(os.path.join(root, n)).st_mode) == 0o700 for n in dirs]
        modes += [stat.S_IMODE(os.stat(os.path.join(root, n)).st_mode) == 0o600 for n in files]
    check(stat.S_IMODE(os.stat(d).st_mode) == 0o700 and modes and all(modes),
          "entries are 0600 files in 0700 directories")
    # OUT is a copy: writing into it in place does not touch the entry.
    with open(b.out, "r+b") as f:
        f.write(b"\0" * 64)
    verified(d, "after writing into OUT")
    e = compile_(inp, d, os.path.join(work, "c1-e.so"), env=env)
    good(e, ref, "after writing into an earlier OUT")
    check(e.outcome == "hit", "still a hit")


def corrupt_and_recompile(work, d, inp, ref, what, damage, intact):
    lib = library_path(d)
    if not check(lib is not None, f"{what}: one library entry"):
        return
    damage(lib)
    r = compile_(inp, d, os.path.join(work, "c2.so"))
    good(r, ref, what)
    check(r.outcome == "miss", f"{what}: recompiled ({r.outcome})")
    out = open(r.out, "rb").read()
    check(out == intact, f"{what}: OUT is the intact library, not the damaged entry's bytes")
    verified(d, what)
    again = compile_(inp, d, os.path.join(work, "c2-again.so"))
    check(again.rc == 0 and again.outcome == "hit", f"{what}: the store replaced it (then a hit)")


def flip(offset_from_end=None, offset=None):
    def damage(path):
        data = bytearray(open(path, "rb").read())
        i = offset if offset is not None else len(data) - offset_from_end
        data[i] ^= 0x40
        open(path, "wb").write(bytes(data))
    return damage


def truncate(size):
    def damage(path):
        data = open(path, "rb").read()
        open(path, "wb").write(data[:size if size >= 0 else len(data) + size])
    return damage


def case_corrupt(work, inp, ref):
    S.case = "2 corrupt"
    d = fi.fresh(os.path.join(work, "c2"))
    first = compile_(inp, d, os.path.join(work, "c2-first.so"))
    check(first.outcome == "miss", "first miss")
    intact = open(first.out, "rb").read()
    # A byte in the middle of the library (code, not its info document, which
    # the second check reads) and one near its end (the section headers).
    for what, damage in (("payload byte flipped", flip(offset=len(intact) // 2)),
                         ("payload end flipped", flip(offset_from_end=100)),
                         ("header byte flipped", flip(offset=70)),
                         ("truncated", truncate(-1000)), ("empty", truncate(0))):
        corrupt_and_recompile(work, d, inp, ref, what, damage, intact)
    # A damaged source index: the parse-level lookup still hits.
    idx = by_kind(d).get("blob", [])
    if check(len(idx) == 1, "one source index entry"):
        flip(offset_from_end=5)(fi.entry_path(d, idx[0]))
        r = compile_(inp, d, os.path.join(work, "c2-idx.so"))
        good(r, ref, "damaged source index")
        check(r.outcome == "hit", "damaged source index: the library still hits by its key")
        verified(d, "damaged source index")


def case_planted(work, inp, ref):
    S.case = "3 planted"
    d = fi.fresh(os.path.join(work, "c3"))
    a = compile_(inp, d, os.path.join(work, "c3-a.so"))
    check(a.outcome == "miss", "first miss")
    lib = library_path(d)
    # The same, intact library, re-stored by a tool whose header names no
    # LLVM and no runtime ABI: not this toolchain's entry.
    fi.tool(d, "clear")
    p = fi.tool(d, "put", "--kind", "shared-lib", a.key, a.out)
    check(p.returncode == 0, f"put the library under its key ({p.stderr.strip()})")
    show = fi.tool(d, "show", a.key).stdout
    check("runtime-abi" not in show, "the planted header names no runtime ABI")
    r = compile_(inp, d, os.path.join(work, "c3-b.so"))
    good(r, ref, "planted entry")
    check(r.outcome == "miss", f"an entry of another producer is a miss ({r.outcome})")
    check(any("was written by" in w for w in r.warnings), "one warning names the producer")
    again = compile_(inp, d, os.path.join(work, "c3-c.so"))
    check(again.outcome == "hit", "the recompile replaced it")
    check(lib is not None, "library entry existed")


def case_killed(work, inp, ref):
    S.case = "4 SIGKILL"
    d = fi.fresh(os.path.join(work, "c4"))
    slow = dict(os.environ, QSHAPE_CACHE_TEST_SLOW_WRITE_US="200000")
    out = os.path.join(work, "c4.so")
    killed_mid_store = 0
    for i in range(3):
        p = spawn(inp, d, out, env=slow)
        deadline = time.monotonic() + 60
        while not fi.temp_files(d) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if fi.temp_files(d):
            killed_mid_store += 1
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stderr.close()
        check(by_kind(d).get("shared-lib") is None, f"kill {i}: no library entry visible")
        verified(d, f"kill {i}")
        check(not os.path.exists(out), f"kill {i}: no OUT (it is renamed in after the store)")
    check(killed_mid_store == 3, f"all 3 kills hit the store ({killed_mid_store})")
    r = compile_(inp, d, out)
    good(r, ref, "after the kills")
    check(r.outcome == "miss", "after the kills: a miss")
    check(compile_(inp, d, out).outcome == "hit", "then a hit")
    prune = fi.tool(d, "prune")
    check(prune.returncode == 0, "qshape-cache prune runs")


def case_read_only(work, inp, ref, other, other_ref):
    S.case = "5 read-only"
    d = fi.fresh(os.path.join(work, "c5"))
    if not fi.try_mount_tmpfs(d, "4m"):
        S.notes.append("read-only: no tmpfs (not root), case skipped")
        return
    try:
        check(compile_(inp, d, os.path.join(work, "c5-a.so")).outcome == "miss", "fill")
        check(subprocess.run(["mount", "-o", "remount,ro", d]).returncode == 0, "remount ro")
        r = compile_(inp, d, os.path.join(work, "c5-b.so"))
        good(r, ref, "hit from a read-only cache")
        check(r.outcome == "hit", f"a read-only cache still hits ({r.outcome})")
        global ARGS
        o = compile_(other, d, os.path.join(work, "c5-c.so"))
        saved, ARGS = ARGS, OTHER_ARGS
        try:
            good(o, other_ref, "another input on a read-only cache")
        finally:
            ARGS = saved
        check(o.outcome == "miss" and len(o.warnings) <= 1, "a miss, at most one warning")
    finally:
        fi.umount_under(d)


def case_full(work, inp, ref):
    S.case = "6 full"
    d = fi.fresh(os.path.join(work, "c6"))
    if not fi.try_mount_tmpfs(d, "64k"):
        S.notes.append("full: no tmpfs (not root), case skipped")
        return
    try:
        fill(d, 4096)  # less room than the library needs (the entry is > 7 KiB)
        r = compile_(inp, d, os.path.join(work, "c6.so"))
        good(r, ref, "compile into a full cache")
        check(r.outcome == "miss", "a miss")
        check(len(r.warnings) == 1 and "No space left on device" in r.warnings[0],
              f"one warning says the disk is full ({r.warnings})")
        check(not fi.temp_files(d) and by_kind(d).get("shared-lib") is None,
              "no partial entry, no temp file")
        verified(d, "full")
    finally:
        fi.umount_under(d)


def fill(directory, leave):
    """Fills the file system of `directory` but for about `leave` bytes."""
    path = os.path.join(directory, "filler")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 1024) == 1024:
            pass
    except OSError:
        pass
    os.close(fd)
    os.truncate(path, max(0, os.path.getsize(path) - leave))


def leftovers(*directories):
    return sorted(f for d in directories for f in os.listdir(d) if f != "filler")


def case_output_faults(work, big, big_ref):
    """The output's own faults: a full disk under OUT, SIGTERM and SIGKILL in
    the middle of a compile. Each ends in an error (or the signal) with
    nothing left behind: no partial OUT, no temporary next to it, no object
    file in TMPDIR; a SIGKILLed run's temporary is swept by the next run."""
    S.case = "11 output faults"
    tmp = fi.fresh(os.path.join(work, "c11-tmp"))
    env = dict(os.environ, TMPDIR=tmp)
    full = fi.fresh(os.path.join(work, "c11-full"))
    if fi.try_mount_tmpfs(full, "256k"):
        try:
            fill(full, 8192)  # room for the temporary, not for the library
            out = os.path.join(full, "out.so")
            p = subprocess.run([TOOLS["compile"], big, "-o", out, "--cache=off"],
                               capture_output=True, text=True, env=env)
            errors = [l for l in p.stderr.splitlines() if l.strip()]
            check(p.returncode == 1 and len(errors) == 1 and "No space left on device" in errors[0],
                  f"a full disk under OUT: exit 1 and one line that says so ({p.returncode}: {p.stderr.strip()[-400:]})")
            check(leftovers(full, tmp) == [], f"a full disk leaves nothing behind ({leftovers(full, tmp)})")
        finally:
            fi.umount_under(full)
    else:
        S.notes.append("output faults: no tmpfs (not root), full-disk part skipped")
    out_dir = fi.fresh(os.path.join(work, "c11-out"))
    out = os.path.join(out_dir, "w2.so")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        # SIGINT as from a terminal: lit starts tests with it ignored.
        proc = subprocess.Popen([TOOLS["compile"], big, "-o", out, "--cache=off"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 10
        while not leftovers(out_dir) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
        time.sleep(0.05)
        running = proc.poll() is None
        proc.send_signal(sig)
        proc.communicate()
        name = signal.Signals(sig).name
        if not running:
            S.notes.append(f"{name}: the compile ended before the signal")
            continue
        check(proc.returncode != 0, f"{name}: the compile did not succeed ({proc.returncode})")
        left = leftovers(out_dir, tmp)
        if sig != signal.SIGKILL:
            check(left == [], f"{name}: nothing left behind ({left})")
            continue
        left = leftovers(out_dir)  # (an object file in TMPDIR is the system's to clean)
        check(len(left) == 1 and left[0].startswith(".w2.so.tmp-"),
              f"SIGKILL leaves its temporary (no handler runs): {left}")
        r = compile_(big, fi.fresh(os.path.join(work, "c11-cache")), out, "--cache=off")
        check(r.rc == 0 and same_results(results(out, BIG_ARGS), big_ref),
              "the run after a SIGKILL compiles a library that gives the oracle's results")
        check(leftovers(out_dir) == ["w2.so"], f"the next run swept the SIGKILLed temporary ({leftovers(out_dir)})")


def holder(path):
    """A process that holds the flock of `path` until killed."""
    code = ("import fcntl,os,sys,time\n"
            f"fd=os.open({path!r},os.O_RDWR|os.O_CREAT,0o600)\n"
            "fcntl.flock(fd,fcntl.LOCK_EX)\nprint('held',flush=True)\ntime.sleep(600)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    p.stdout.readline()
    return p


def case_single_flight(work, big, big_ref):
    S.case = "7 single flight"
    global ARGS
    saved, ARGS = ARGS, BIG_ARGS
    try:
        d = fi.fresh(os.path.join(work, "c7"))
        procs = [spawn(big, d, os.path.join(work, f"c7-{i}.so")) for i in range(8)]
        outcomes = []
        for i, p in enumerate(procs):
            _, err = p.communicate()
            m = VERBOSE.search(err)
            outcomes.append(m.group(1) if p.returncode == 0 and m else f"rc {p.returncode}")
        check(sorted(outcomes) == ["hit"] * 7 + ["miss"],
              f"8 concurrent compiles: one miss, seven hits ({outcomes})")
        libs = {open(os.path.join(work, f"c7-{i}.so"), "rb").read() for i in range(8)}
        check(len(libs) == 1, "all 8 OUTs are the same library")
        check(same_results(results(os.path.join(work, "c7-0.so")), big_ref), "and it gives the oracle's results")
        # The lock of the source key, found through the index entry the run made.
        src = by_kind(d).get("blob", [])
        if not check(len(src) == 1, "one source index entry"):
            return
        lock = os.path.join(d, "locks", src[0])
        fi.tool(d, "clear")
        # A dead holder: the kernel dropped its lock; the waiter goes on.
        h = holder(lock)
        p = spawn(big, d, os.path.join(work, "c7-dead.so"), "--cache-lock-wait=120s")
        time.sleep(0.5)
        check(p.poll() is None, "the compile waits while the holder lives")
        h.kill()
        h.wait()
        start = time.monotonic()
        _, err = p.communicate()
        waited = time.monotonic() - start
        m = VERBOSE.search(err)
        check(p.returncode == 0 and m and m.group(1) == "miss", "after a dead holder: a miss")
        check("warning" not in err and waited < 60, f"passed at once, no warning ({waited:.1f} s)")
        fi.tool(d, "clear")
        # A live holder that never lets go (stuck): the wait is bounded.
        h = holder(lock)
        try:
            start = time.monotonic()
            r = compile_(big, d, os.path.join(work, "c7-stuck.so"), "--cache-lock-wait=1s")
            took = time.monotonic() - start
        finally:
            h.kill()
            h.wait()
        good(r, big_ref, "with a stuck holder")
        check(r.outcome == "miss" and any("waited 1000 ms" in w for w in r.warnings),
              f"a stuck holder is waited for 1 s, then compiled past ({took:.1f} s)")
        frontend_waits(work, d, big, big_ref, lock)
    finally:
        ARGS = saved


def prefix_copy(work, name):
    """A copy of bin/qshape-compile and its compiler in a prefix of its own,
    so that the compiler can be made unstartable (chmod a-x stops even root
    from exec()ing it); returns (front end, compiler)."""
    prefix = os.path.join(work, name)
    for sub in ("bin", os.path.join("libexec", "qshape")):
        os.makedirs(os.path.join(prefix, sub), exist_ok=True)
    binary = os.path.join(prefix, "bin", "qshape-compile")
    shutil.copy(TOOLS["compile"], binary)
    full = os.path.join(prefix, "libexec", "qshape", "qshape-compile-full")
    shutil.copy(os.path.join(os.path.dirname(TOOLS["compile"]), "..", "libexec", "qshape",
                             "qshape-compile-full"), full)
    return binary, full


def frontend_waits(work, d, big, big_ref, lock):
    """A process that waits for another's compile does so in the front end
    and then hits there: it starts no compiler. Its compiler is unstartable
    while it waits on a held lock; a compile that does not wait
    (--cache-lock-wait=0s) fills the cache meanwhile; the holder dies."""
    S.case = "7 single flight (front end)"
    binary, full = prefix_copy(work, "c7-prefix")
    fi.tool(d, "clear")
    h = holder(lock)
    waiter = None
    try:
        os.chmod(full, 0o644)
        waiter = subprocess.Popen([binary, big, "-o", os.path.join(work, "c7-waiter.so"), "-v",
                                   f"--cache-dir={d}", "--cache-lock-wait=120s"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        check(waiter.poll() is None, "the front end waits while the holder lives")
        r = compile_(big, d, os.path.join(work, "c7-filler.so"), "--cache-lock-wait=0s")
        check(r.rc == 0 and r.outcome == "miss", "a compile that does not wait fills the cache")
        h.kill()
        h.wait()
        _, err = waiter.communicate(timeout=60)
        m = VERBOSE.search(err)
        check(waiter.returncode == 0 and m and m.group(1) == "hit",
              f"after the wait the front end hits, with its compiler unstartable "
              f"(rc {waiter.returncode}: {err.strip()[-200:]})")
        check(same_results(results(os.path.join(work, "c7-waiter.so")), big_ref),
              "and its OUT gives the oracle's results")
    finally:
        os.chmod(full, 0o755)
        if waiter and waiter.poll() is None:
            waiter.kill()
        if h.poll() is None:
            h.kill()
            h.wait()


def case_keys(work, inp, ref):
    S.case = "8 keys"
    d = fi.fresh(os.path.join(work, "c8"))
    out = os.path.join(work, "c8.so")
    base = compile_(inp, d, out)
    check(base.outcome == "miss", "first miss")
    seen = {base.key}
    for flags in (["--opt-level=2"], ["--no-roll"]):
        r = compile_(inp, d, out, *flags)
        good(r, ref, " ".join(flags))
        check(r.outcome == "miss" and r.key not in seen, f"{flags}: a miss with a new key")
        seen.add(r.key)
    # Another linker (a copy: another path): another toolchain.
    ld = os.path.join(work, "c8-ld.lld")
    shutil.copy(TOOLS["lld"], ld)
    r = compile_(inp, d, out, f"--linker={ld}")
    good(r, ref, "another linker")
    check(r.outcome == "miss" and r.key not in seen, "another linker: a miss")
    seen.add(r.key)
    # Another build of the compiler (one byte more: another build id),
    # behind a copy of the front end: the key is the compiler's.
    binary, full = prefix_copy(work, "c8-prefix")
    with open(full, "ab") as f:
        f.write(b"\0")
    r = compile_(inp, d, out, tool=binary)
    good(r, ref, "another build")
    check(r.outcome == "miss" and r.key not in seen, "another build id: a miss")
    check(compile_(inp, d, out).outcome == "hit", "the first build still hits its own entry")
    # An input that parses only with --allow-unregistered-dialect: cached
    # with it, a run without it still refuses the input.
    lk = os.path.join(SRC, "test", "Tools", "qshape-sim", "launch-kernel.mlir")
    r = compile_(lk, d, out, "--allow-unregistered-dialect")
    check(r.rc == 0 and r.outcome == "miss", "launch-kernel.mlir compiles with the flag")
    r = compile_(lk, d, out)
    check(r.rc == 1 and "unregistered dialect" in r.err,
          f"without the flag the cached input is still refused (rc {r.rc}, {r.outcome})")


def case_modes(work, inp, ref):
    S.case = "9 modes"
    d = fi.fresh(os.path.join(work, "c9"))
    out = os.path.join(work, "c9.so")
    r = compile_(inp, d, out, "--cache=off")
    good(r, ref, "--cache=off")
    check(r.outcome == "off" and not fi.entries(d), "--cache=off: off, nothing stored")
    r = compile_(inp, d, out, "--cache=read")
    check(r.outcome == "miss" and not fi.entries(d), "--cache=read: a miss stores nothing")
    r = compile_(inp, d, out, "--cache=write")
    check(r.outcome == "miss" and len(fi.entries(d)) == 2, "--cache=write stores")
    r = compile_(inp, d, out, "--cache=write")
    check(r.outcome == "miss", "--cache=write never hits")
    r = compile_(inp, d, out, "--cache=read")
    good(r, ref, "--cache=read")
    check(r.outcome == "hit", "--cache=read hits")
    p = subprocess.run([TOOLS["compile"], inp, "-o", out, "--cache=sometimes"],
                       capture_output=True, text=True)
    check(p.returncode == 1 and "use off, read, write or readwrite" in p.stderr,
          "a bad --cache is an error that lists the modes")


def case_remote(work, inp, ref):
    S.case = "10 remote"
    if not fi.TOOLS.get("redis"):
        S.notes.append("remote: no redis-server, case skipped")
        return
    server = fi.RedisServer(work, "artifact")
    try:
        url = server.url()
        team = dict(os.environ, QSHAPE_CACHE_REMOTE_KEY="team secret number one, 32 bytes")
        other = dict(os.environ, QSHAPE_CACHE_REMOTE_KEY="another team's secret, 32 bytes!")
        a = compile_(inp, fi.fresh(os.path.join(work, "c10-a")), os.path.join(work, "c10-a.so"),
                     f"--cache-remote={url}", env=team)
        good(a, ref, "machine A")
        check(a.outcome == "miss", "machine A: a miss, stored locally and on the server")
        b_dir = fi.fresh(os.path.join(work, "c10-b"))
        b = compile_(inp, b_dir, os.path.join(work, "c10-b.so"), f"--cache-remote={url}", env=team)
        good(b, ref, "machine B")
        check(b.outcome == "hit" and b.key == a.key, f"machine B hits the remote ({b.outcome})")
        check(by_kind(b_dir).get("shared-lib") is not None, "the remote hit filled B's directory")
        verified(b_dir, "machine B", team)
        rc, v = fi.verify(b_dir)
        refused = [e for e in v.get("bad_entries", []) if e["problem"].startswith("refused: fetched")]
        check(rc == 1 and v.get("ok") == 0 and len(refused) == v.get("bad") > 0,
              f"machine B without the team key: verify refuses every fetched entry ({v})")
        c = compile_(inp, fi.fresh(os.path.join(work, "c10-c")), os.path.join(work, "c10-c.so"),
                     f"--cache-remote={url}", env=other)
        good(c, ref, "machine C, another team key")
        check(c.outcome == "miss", f"another team key refuses the entry ({c.outcome})")
        stalled_remote(work, inp, ref, server, team)
    finally:
        server.stop()


def stalled_remote(work, inp, ref, server, team):
    """A stopped server (SIGSTOP) costs one timeout a compile, whose front
    end and compiler both ask it: the front end hands the open breaker to
    the compiler it starts. Measured against the same miss without it."""
    def miss(name, *extra):
        start = time.monotonic()
        r = compile_(inp, fi.fresh(os.path.join(work, name)), os.path.join(work, name + ".so"),
                     "--cache=readwrite", *extra, env=team)
        return r, time.monotonic() - start

    _, plain = miss("c10-local", "--cache-remote=off")
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        d, stalled = miss("c10-d", f"--cache-remote={server.url()}")
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    good(d, ref, "a stopped server")
    timeouts = [w for w in d.warnings if "operation timeout (1000 ms" in w]
    check(len(timeouts) == 1 and len(d.warnings) == 1,
          f"a stopped server: one warning, of the default 1 s timeout ({d.warnings})")
    check(stalled < plain + 1.8,
          f"a stopped server adds one timeout to the compile, not two ({stalled:.2f} s "
          f"against {plain:.2f} s without the remote)")


OTHER_ARGS = "[1.25]"
BIG_ARGS = None


def main():
    global BIG_ARGS, ARGS, SRC
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    SRC = args.src
    for name in ("compile", "run", "sim", "cache"):
        TOOLS[name] = os.path.join(args.tools, f"qshape-{name}")
    fi.TOOLS["cache"] = TOOLS["cache"]
    fi.TOOLS["redis"] = shutil.which("redis-server")
    TOOLS["lld"] = shutil.which("ld.lld-22") or shutil.which("ld.lld") or "/usr/bin/ld.lld-22"
    work = args.work
    fi.umount_under(work)
    fi.force_rmtree(work)
    os.makedirs(work)
    start = time.monotonic()
    inp = os.path.join(args.src, "test", "Tools", "qshape-compile", "Inputs", "bell.mlir")

    def oracle(path, a):
        return subprocess.run([TOOLS["sim"], path, "--args", a], capture_output=True,
                              text=True, check=True).stdout

    ref = oracle(inp, ARGS)
    other = os.path.join(work, "other.mlir")
    open(other, "w").write(open(inp).read().replace("math.cos", "math.sin"))
    other_ref = oracle(other, OTHER_ARGS)
    big = os.path.join(work, "w2.mlir")
    big_args = os.path.join(work, "w2.args.json")
    subprocess.run([sys.executable, os.path.join(args.src, "utils", "gen", "workloads.py"), "w2",
                    "--n-trotter", "4", "--variant", "decomposed", "--prep", "standard",
                    "-o", big, "--args-out", big_args], check=True)
    BIG_ARGS = open(big_args).read()
    saved, ARGS = ARGS, BIG_ARGS
    big_ref = oracle(big, BIG_ARGS)
    ARGS = saved
    cases = [lambda: case_hit(work, inp, ref),
             lambda: case_corrupt(work, inp, ref),
             lambda: case_planted(work, inp, ref),
             lambda: case_killed(work, inp, ref),
             lambda: case_read_only(work, inp, ref, other, other_ref),
             lambda: case_full(work, inp, ref),
             lambda: case_single_flight(work, big, big_ref),
             lambda: case_keys(work, inp, ref),
             lambda: case_modes(work, inp, ref),
             lambda: case_remote(work, inp, ref),
             lambda: case_output_faults(work, big, big_ref)]
    try:
        for run in cases:
            try:
                run()
            except Exception as e:  # a crash of the suite is a failure
                check(False, f"exception {type(e).__name__}: {e}")
    finally:
        fi.stop_servers()
        fi.umount_under(work)
    print(f"artifact-cache faults: {len(cases)} cases, {S.passed} checks passed, "
          f"{len(S.failures)} failed in {time.monotonic() - start:.1f} s ({'; '.join(S.notes)})")
    for f in S.failures:
        print("  FAILED " + f)
    return 1 if S.failures else 0


if __name__ == "__main__":
    sys.exit(main())
