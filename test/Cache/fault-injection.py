# Fault-injection suite of the persistent compile cache (issue 6). Each case
# breaks the cache in one way (corrupt, truncated and empty entries, writers
# killed with SIGKILL in the middle of a store, concurrent writers, readers
# and cleaners, a read-only and a full file system, key changes, the size
# cap, stale locks, unsafe directory permissions) and asserts that the
# compilation still succeeds with the right result, that no partial entry is
# ever visible, and that the warnings and counters say what happened.
#
# Read-only and full file systems are small tmpfs mounts when the suite may
# mount (root); otherwise it falls back to an unprivileged user (setpriv) or
# to chmod, and to RLIMIT_FSIZE, and says so in its summary line.
#
# `--cases remote` runs the remote cases instead (test/Cache/remote.test):
# real redis-server processes on 127.0.0.1 and free ports, started and
# stopped here, shared by cache directories that stand for machines.
#
# RUN: %python %s --src %qshape_src --work %t | FileCheck %s
# CHECK: fault-injection: 9 cases, {{[0-9]+}} checks passed, 0 failed
import argparse
import contextlib
import json
import os
import random
import re
import resource
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

PIPE = "func.func(canonicalize,cse),inline,symbol-dce"
REMARK = re.compile(r"remark: qshape-cache: (hit|miss|write) blake3:([0-9a-f]{64})( \(remote\))?")
TOOLS = {}


class Suite:
    def __init__(self):
        self.passed = 0
        self.failures = []
        self.notes = []
        self.case = ""

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failures.append(f"[{self.case}] {what}")
            print(f"FAIL [{self.case}] {what}", file=sys.stderr, flush=True)
        return cond


S = Suite()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

class Compile:
    """One qshape-opt --qshape-cache run."""

    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        m = REMARK.findall(proc.stderr)
        self.kinds = [k for k, _, _ in m]
        self.keys = [key for _, key, _ in m]
        self.remote = bool(m) and bool(m[0][2])  # the first lookup hit the remote
        self.kind = self.kinds[0] if self.kinds else None
        self.key = self.keys[0] if self.keys else None
        self.warnings = [l for l in proc.stderr.splitlines() if "warning:" in l]


def cache_opts(cache_dir, extra=""):
    return f"--qshape-cache=dir={cache_dir} pipeline={PIPE} emit-remarks {extra}".strip()


def compile_cmd(inp, cache_dir, extra="", binary=None):
    return [binary or TOOLS["opt"], inp, cache_opts(cache_dir, extra), "-o", "-"]


def compile_(inp, cache_dir, extra="", binary=None, env=None, preexec=None, user=None):
    cmd = compile_cmd(inp, cache_dir, extra, binary)
    if user is not None:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, preexec_fn=preexec)
    return Compile(p)


def reference(inp):
    """The result of the pipeline without the cache."""
    p = subprocess.run([TOOLS["opt"], inp, f"--qshape-cache=mode=off pipeline={PIPE}", "-o", "-"],
                       capture_output=True, text=True, check=True)
    return p.stdout


def tool(cache_dir, *args, env=None, text=True):
    return subprocess.run([TOOLS["cache"], "--dir", cache_dir] + list(args),
                          capture_output=True, text=text, env=env)


def stats(cache_dir):
    p = tool(cache_dir, "stats", "--json")
    return json.loads(p.stdout) if p.returncode == 0 else {}


def verify(cache_dir, env=None):
    """(exit code, parsed json) of `qshape-cache verify --json`."""
    p = tool(cache_dir, "verify", "--json", env=env)
    try:
        return p.returncode, json.loads(p.stdout)
    except ValueError:
        return p.returncode, {}


def payload_of(cache_dir, key, work):
    """The payload of an entry, through `qshape-cache get` (checked)."""
    out = os.path.join(work, "payload.out")
    p = tool(cache_dir, "get", key, "-o", out)
    return open(out, "rb").read() if p.returncode == 0 else None


def entry_path(cache_dir, key):
    return os.path.join(cache_dir, key[:2], key)


def temp_files(cache_dir):
    found = []
    for root, _, files in os.walk(cache_dir):
        found += [os.path.join(root, f) for f in files if f.startswith(".tmp-")]
    return found


def entries(cache_dir):
    found = []
    for root, _, files in os.walk(cache_dir):
        found += [f for f in files if re.fullmatch(r"[0-9a-f]{64}", f)]
    return found


def force_rmtree(path):
    """rmtree that also works on the read-only (mode 0500) trees of case 5."""
    if not os.path.lexists(path):
        return
    for root, dirs, _ in os.walk(path):
        for n in dirs:
            try:
                os.chmod(os.path.join(root, n), 0o700)
            except OSError:
                pass
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass
    shutil.rmtree(path, ignore_errors=True)


def fresh(path):
    umount_under(path)
    force_rmtree(path)
    os.makedirs(path, mode=0o700)
    os.chmod(path, 0o700)
    return path


def mounted_under(path):
    path = os.path.realpath(path)
    points = []
    with open("/proc/mounts") as f:
        for line in f:
            mp = line.split()[1].replace("\\040", " ")
            if mp == path or mp.startswith(path + "/"):
                points.append(mp)
    return points


def umount_under(path):
    for mp in sorted(mounted_under(path), key=len, reverse=True):
        subprocess.run(["umount", mp], capture_output=True)


NO_MOUNT = []


def try_mount_tmpfs(path, size):
    if NO_MOUNT:
        return False
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", path],
                       capture_output=True, text=True)
    return p.returncode == 0


def key_of(payload_id):
    return "%064x" % payload_id


def make_payload(seed, size):
    rnd = random.Random(seed)
    return bytes(rnd.getrandbits(8) for _ in range(size))


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def case_corrupt(work, small, ref):
    """(1) corrupt bytes in an entry -> miss, recompile, overwrite, then hit."""
    S.case = "1 corrupt"
    d = fresh(os.path.join(work, "c1"))
    first = compile_(small, d)
    S.check(first.rc == 0 and first.kind == "miss", "first run is a miss")
    S.check(first.out == ref, "miss result equals the uncached result")
    path = entry_path(d, first.key)
    good = open(path, "rb").read()
    good_payload = payload_of(d, first.key, work)
    header = 130  # fixed header part plus the checksum; payload follows
    for name, offset in [("payload middle", len(good) // 2 + header // 2),
                         ("header key field", 20), ("last payload byte", len(good) - 1)]:
        bad = bytearray(good)
        bad[offset] ^= 0xFF
        open(path, "wb").write(bytes(bad))
        before = stats(d)
        rc, _ = verify(d)
        S.check(rc == 1, f"{name}: verify reports the damaged entry")
        r = compile_(small, d)
        S.check(r.rc == 0 and r.kind == "miss" and r.key == first.key,
                f"{name}: a damaged entry is a miss under the same key")
        S.check(r.out == ref, f"{name}: the recompiled result is right")
        S.check(stats(d).get("corrupt", 0) == before.get("corrupt", 0) + 1,
                f"{name}: counted as corrupt")
        rc, _ = verify(d)
        S.check(rc == 0 and open(path, "rb").read() != bytes(bad)
                and payload_of(d, first.key, work) == good_payload,
                f"{name}: the entry was overwritten with a good one")
        r = compile_(small, d)
        S.check(r.kind == "hit" and r.out == ref, f"{name}: then a hit with the right result")
        S.check(not r.warnings, f"{name}: no warning for a corrupt entry")


def case_truncated(work, small, ref):
    """(2) truncated, zero-length and over-long entries."""
    S.case = "2 truncated"
    d = fresh(os.path.join(work, "c2"))
    first = compile_(small, d)
    path = entry_path(d, first.key)
    good = open(path, "rb").read()
    good_payload = payload_of(d, first.key, work)
    for name, damaged in [("zero-length", b""), ("truncated header", good[:10]),
                          ("truncated payload", good[:len(good) // 2]),
                          ("one byte short", good[:-1]), ("trailing bytes", good + b"x")]:
        open(path, "wb").write(damaged)
        r = compile_(small, d)
        S.check(r.rc == 0 and r.kind == "miss", f"{name}: a miss")
        S.check(r.out == ref, f"{name}: the recompiled result is right")
        S.check(verify(d)[0] == 0 and payload_of(d, first.key, work) == good_payload,
                f"{name}: the entry was replaced by a good one")
        r = compile_(small, d)
        S.check(r.kind == "hit" and r.out == ref, f"{name}: then a hit")
    s = stats(d)
    S.check(s.get("corrupt") == 5, f"5 corrupt lookups counted (got {s.get('corrupt')})")


def case_killed_writers(work, big, big_ref):
    """(3) writers killed with SIGKILL at random points."""
    S.case = "3 SIGKILL"
    rnd = random.Random(6)
    d = fresh(os.path.join(work, "c3"))
    slow = dict(os.environ, QSHAPE_CACHE_TEST_SLOW_WRITE_US="2000")
    key = key_of(0xC3)
    payloads = {0: make_payload(0, 256 * 1024)}
    src = os.path.join(work, "c3-payload-0")
    open(src, "wb").write(payloads[0])
    S.check(tool(d, "put", key, src).returncode == 0, "initial put")
    mid_write = 0
    readers_ok = True
    out = os.path.join(work, "c3-get")
    # 20 kills of `qshape-cache put` rewriting an existing entry; a reader
    # runs while the writer is in the middle of its store. Where fewer than 5
    # of them land mid-write (the sleep is random and a slow process start,
    # as under ASan, shifts it), more kills follow, up to 60: the check is
    # that the case covered killed stores, not how the dice fell.
    kills = 0
    for i in range(1, 61):
        if i > 20 and mid_write >= 5:
            break
        kills = i
        payloads[i] = make_payload(i, 256 * 1024)
        src = os.path.join(work, f"c3-payload-{i}")
        open(src, "wb").write(payloads[i])
        temps_before = len(temp_files(d))
        w = subprocess.Popen([TOOLS["cache"], "--dir", d, "put", key, src], env=slow,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0.0, 0.2))
        g = tool(d, "get", key, "-o", out)
        got = open(out, "rb").read() if g.returncode == 0 else None
        w.send_signal(signal.SIGKILL)
        w.wait()
        if g.returncode != 0 or got not in payloads.values():
            readers_ok = False
        if len(temp_files(d)) > temps_before:
            mid_write += 1
        rc, v = verify(d)
        S.check(rc == 0 and v.get("bad") == 0, f"put kill {i}: every visible entry verifies")
    S.check(readers_ok, "every read during a killed store returned a whole, known payload")
    # 10 kills of qshape-opt on a larger module (distinct keys by salt).
    start = time.monotonic()
    calib = compile_(big, d, "salt=calibrate", env=dict(os.environ, QSHAPE_CACHE_TEST_SLOW_WRITE_US="10000"))
    span = time.monotonic() - start
    S.check(calib.rc == 0 and calib.out == big_ref, "qshape-opt with slow writes works")
    opt_env = dict(os.environ, QSHAPE_CACHE_TEST_SLOW_WRITE_US="10000")
    for i in range(10):
        p = subprocess.Popen(compile_cmd(big, d, f"salt=kill{i}"), env=opt_env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0.3, 1.0) * span)
        p.send_signal(signal.SIGKILL)
        p.wait()
        rc, v = verify(d)
        S.check(rc == 0 and v.get("bad") == 0, f"qshape-opt kill {i}: every visible entry verifies")
    for i in range(10):
        r = compile_(big, d, f"salt=kill{i}")
        S.check(r.rc == 0 and r.out == big_ref, f"after kill {i}: the next compile ({r.kind}) is right")
    temps = temp_files(d)
    S.check(mid_write >= 5, f"at least 5 put kills landed mid-write (got {mid_write} of {kills})")
    S.check(len(temps) >= mid_write, "killed stores left their temp files behind")
    # A temp file may be a store in progress: a cleanup keeps young ones and
    # removes those older than an hour.
    p = tool(d, "prune", "--json")
    S.check(p.returncode == 0 and len(temp_files(d)) == len(temps), "prune keeps young temp files")
    old = time.time() - 2 * 3600
    for t in temps:
        os.utime(t, (old, old))
    p = tool(d, "prune", "--json")
    removed = json.loads(p.stdout).get("removed_temp_files") if p.returncode == 0 else None
    S.check(removed == len(temps) and not temp_files(d),
            f"prune removes the {len(temps)} orphaned temp files (removed {removed})")
    rc, v = verify(d)
    S.check(rc == 0 and v.get("bad") == 0, "the directory verifies after cleanup")
    S.notes.append(f"{mid_write}/{kills} put kills mid-write")


def case_concurrent(work, small, ref):
    """(4) 8 processes on one key; 8 processes on many keys under cleanups."""
    S.case = "4 concurrent"
    d = fresh(os.path.join(work, "c4a"))
    procs = [subprocess.Popen(compile_cmd(small, d), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(8)]
    results = []
    for p in procs:
        out, err = p.communicate()
        results.append(Compile(subprocess.CompletedProcess(p.args, p.returncode, out, err)))
    S.check(all(r.rc == 0 for r in results), "8 concurrent compiles of one key succeed")
    S.check(all(r.out == ref for r in results), "8 concurrent compiles give the right result")
    S.check(len({r.key for r in results}) == 1, "8 processes compute one key")
    S.check(len(entries(d)) == 1 and verify(d)[0] == 0, "one valid entry")
    s = stats(d)
    S.check(s.get("hits", 0) + s.get("misses", 0) == 8, "8 lookups counted (no lost update)")

    # 8 writers/readers of one key, each with its own payload.
    key = key_of(0xC4)
    payloads = [make_payload(100 + i, 64 * 1024) for i in range(8)]
    srcs = []
    for i, pl in enumerate(payloads):
        srcs.append(os.path.join(work, f"c4-payload-{i}"))
        open(srcs[-1], "wb").write(pl)
    problems = []

    def same_key_worker(i):
        for j in range(12):
            if j % 2 == 0:
                p = tool(d, "put", key, srcs[i])
                if p.returncode != 0:
                    problems.append(f"put {i}/{j}: rc {p.returncode} {p.stderr.strip()}")
            else:
                out = os.path.join(work, f"c4-get-{i}")
                p = tool(d, "get", key, "-o", out)
                if p.returncode != 0:
                    problems.append(f"get {i}/{j}: rc {p.returncode} {p.stderr.strip()}")
                elif open(out, "rb").read() not in payloads:
                    problems.append(f"get {i}/{j}: a payload nobody wrote")

    threads = [threading.Thread(target=same_key_worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    S.check(not problems, "8 processes storing and loading one key: every load whole "
            + "; ".join(problems[:3]))
    S.check(verify(d)[0] == 0 and not temp_files(d), "no bad entry, no temp file left")

    # 8 writers/readers of their own keys under a 1 MiB cap while a cleaner
    # prunes to 512 KiB in a loop.
    d = fresh(os.path.join(work, "c4b"))
    cap = 1024 * 1024
    problems = []
    loads = [0]
    busy = [0]
    stop = threading.Event()
    blobs = {}
    for i in range(8):
        for j in range(12):
            blobs[(i, j)] = make_payload(1000 + 100 * i + j, 48 * 1024)

    def many_keys_worker(i):
        for j in range(12):
            src = os.path.join(work, f"c4b-{i}-{j}")
            open(src, "wb").write(blobs[(i, j)])
            p = tool(d, "--max-size", str(cap), "put", key_of(0xB000 + 100 * i + j), src)
            if p.returncode != 0:
                problems.append(f"put {i}/{j}: rc {p.returncode} {p.stderr.strip()}")
            jj = random.Random(i * 100 + j).randrange(j + 1)
            out = os.path.join(work, f"c4b-get-{i}")
            p = tool(d, "get", key_of(0xB000 + 100 * i + jj), "-o", out)
            if p.returncode == 0:
                loads[0] += 1
                if open(out, "rb").read() != blobs[(i, jj)]:
                    problems.append(f"get {i}/{jj}: wrong payload")
            elif p.returncode != 1 or "corrupt" in p.stderr:  # 1 = a miss (evicted)
                problems.append(f"get {i}/{jj}: rc {p.returncode} {p.stderr.strip()}")

    def cleaner():
        while not stop.is_set():
            p = tool(d, "prune", "--max-size", "512K")
            if p.returncode == 2 and "another cleanup holds" in p.stderr:
                busy[0] += 1
            elif p.returncode != 0:
                problems.append(f"prune: rc {p.returncode} {p.stderr.strip()}")

    c = threading.Thread(target=cleaner)
    c.start()
    threads = [threading.Thread(target=many_keys_worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    c.join()
    S.check(not problems, "8 processes on many keys with a cleaner: no failure, every load exact "
            + "; ".join(problems[:3]))
    S.check(loads[0] > 0, "some loads hit")
    rc, v = verify(d)
    S.check(rc == 0 and v.get("bad") == 0, "no bad entry after concurrent cleanups")
    S.check(not os.path.exists(os.path.join(d, "cleanup.lock")), "no cleanup lock left behind")
    tool(d, "--max-size", str(cap), "prune")
    s = stats(d)
    S.check(s.get("size_bytes", cap + 1) <= cap, f"size {s.get('size_bytes')} within the cap after a prune")
    S.check(s.get("evictions", 0) > 0, "entries were evicted")
    # 8 qshape-opt processes on different keys while a cleaner runs.
    stop.clear()
    problems = []
    c = threading.Thread(target=cleaner)
    c.start()
    procs = [subprocess.Popen(compile_cmd(small, d, f"salt=p{i} max-size=1M"), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(8)]
    outs = [p.communicate()[0] for p in procs]
    stop.set()
    c.join()
    S.check(all(p.returncode == 0 for p in procs) and all(o == ref for o in outs),
            "8 compiles on different keys during cleanups succeed")
    S.check(verify(d)[0] == 0, "still no bad entry")
    S.notes.append(f"{busy[0]} prunes found the lock busy")


def case_read_only(work, small, ref, other, other_ref):
    """(5) read-only cache directory: hits work, misses compile, one warning."""
    S.case = "5 read-only"
    d = fresh(os.path.join(work, "c5"))
    user = None
    how = None
    if os.geteuid() == 0 and try_mount_tmpfs(d, "4m"):
        how = "tmpfs remounted read-only"
    first = compile_(small, d)
    S.check(first.kind == "miss" and first.rc == 0, "populate the cache")
    if how:
        if subprocess.run(["mount", "-o", "remount,ro", d], capture_output=True).returncode != 0:
            how = None
            umount_under(d)
            d = fresh(d)
            compile_(small, d)
    if not how:
        if os.geteuid() == 0 and shutil.which("setpriv"):
            # An unprivileged owner who may read but not write.
            user = 65534
            for root, dirs, files in os.walk(d):
                for n in dirs + files:
                    os.chown(os.path.join(root, n), user, user)
                for n in dirs:
                    os.chmod(os.path.join(root, n), 0o500)
                for n in files:
                    os.chmod(os.path.join(root, n), 0o400)
            os.chown(d, user, user)
            os.chmod(d, 0o500)
            os.chmod(work, 0o755)
            how = "directory owned by uid 65534 with mode 0500 (setpriv; no mount)"
        else:
            for root, dirs, files in os.walk(d):
                for n in dirs:
                    os.chmod(os.path.join(root, n), 0o500)
                for n in files:
                    os.chmod(os.path.join(root, n), 0o400)
            os.chmod(d, 0o500)
            how = "chmod 0500 (not root; no mount)"
    S.notes.append("read-only: " + how)
    probe = os.path.join(d, "probe")
    try:
        if user is None:
            open(probe, "w").close()
            writable = True
            os.unlink(probe)
        else:
            writable = subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups",
                                       "touch", probe], capture_output=True).returncode == 0
    except OSError:
        writable = False
    S.check(not writable, "the cache directory is really read-only")
    r = compile_(small, d, user=user)
    S.check(r.rc == 0 and r.kind == "hit", "a hit works")
    S.check(r.out == ref, "the hit gives the right result")
    S.check(len(r.warnings) == 1, f"exactly one warning on a hit (got {len(r.warnings)})")
    r = compile_(other, d, user=user)
    S.check(r.rc == 0 and r.kind == "miss", "a miss compiles")
    S.check(r.out == other_ref, "the miss gives the right result")
    S.check(len(r.warnings) == 1, f"exactly one warning on a miss (got {len(r.warnings)}): "
            + " | ".join(r.warnings))
    S.check(not os.path.exists(entry_path(d, r.key)), "nothing was stored")
    # Two cache passes in one process (a hit and a failed store): one warning.
    cmd = [TOOLS["opt"], other, "--pass-pipeline=builtin.module(qshape-cache{dir=%s pipeline=symbol-dce}," 
           "qshape-cache{dir=%s pipeline=\"%s\" salt=x})" % (d, d, PIPE), "-o", "-"]
    if user is not None:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True)
    S.check(p.returncode == 0 and p.stdout == other_ref, "a process with two cache passes compiles")
    S.check(p.stderr.count("warning:") == 1, "and warns once")
    umount_under(d)


def case_disk_full(work, small, ref):
    """(6) disk full: the compile succeeds, one warning."""
    S.case = "6 disk full"
    d = fresh(os.path.join(work, "c6"))
    preexec = None
    if os.geteuid() == 0 and try_mount_tmpfs(d, "64k"):
        how = "64 KiB tmpfs filled up"
        # Fill every free block of the empty file system.
        fd = os.open(os.path.join(d, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        try:
            while True:  # the last partial block
                os.write(fd, b"\0")
        except OSError:
            pass
        os.close(fd)
        st = os.statvfs(d)
        S.check(st.f_bavail == 0, "the file system is full")
    else:
        how = "RLIMIT_FSIZE 4096 (no mount)"

        def preexec():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    S.notes.append("disk full: " + how)
    r = compile_(small, d, preexec=preexec)
    S.check(r.rc == 0 and r.kind == "miss", "the compile succeeds")
    S.check(r.out == ref, "with the right result")
    S.check(len(r.warnings) == 1, f"exactly one warning (got {len(r.warnings)})")
    S.check(any("No space left on device" in w or "File too large" in w for w in r.warnings),
            "the warning names the cause: " + " | ".join(r.warnings))
    S.check(not os.path.exists(entry_path(d, r.key)), "no entry was stored")
    S.check(not temp_files(d), "the failed store removed its temp file")
    S.check(verify(d)[0] == 0, "the directory verifies")
    tag = os.path.join(d, "CACHEDIR.TAG")
    tag_ok = lambda: os.path.exists(tag) and open(tag).read().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55\n") and open(tag).read().endswith("\n")
    S.check(not os.path.exists(tag) or tag_ok(), "no cut-short CACHEDIR.TAG")
    # Space comes back: the cache works again.
    if preexec is None:
        os.unlink(os.path.join(d, "filler"))
    r = compile_(small, d)
    S.check(r.kind == "miss" and r.rc == 0 and not r.warnings, "with space, a miss stores")
    S.check(tag_ok(), "and CACHEDIR.TAG is complete")
    r = compile_(small, d)
    S.check(r.kind == "hit" and r.out == ref, "then hits")
    umount_under(d)


def case_key_changes(work, small, ref):
    """(7) version/build-id/pipeline/salt change -> miss; same input -> same key."""
    S.case = "7 key"
    d = fresh(os.path.join(work, "c7"))
    a = compile_(small, d)
    b = compile_(small, d)
    S.check(a.kind == "miss" and b.kind == "hit" and a.key == b.key,
            "two fresh processes compute the same key")
    generic = os.path.join(work, "c7-generic.mlir")
    subprocess.run([TOOLS["opt"], small, "--mlir-print-op-generic", "-o", generic], check=True)
    g = compile_(generic, d)
    S.check(g.kind == "hit" and g.key == a.key, "the generic form has the same key")
    salt = compile_(small, d, "salt=other")
    S.check(salt.kind == "miss" and salt.key != a.key, "another salt misses")
    p = subprocess.run([TOOLS["opt"], small, f"--qshape-cache=dir={d} pipeline=func.func(cse),inline,symbol-dce "
                        "emit-remarks", "-o", "-"], capture_output=True, text=True)
    pipe = Compile(p)
    S.check(pipe.kind == "miss" and pipe.key != a.key, "another pipeline misses")
    # Build id: a byte-identical copy of qshape-opt shares the key (the path
    # of the binary is not in it); one appended byte makes a new build.
    bindir = fresh(os.path.join(work, "c7-bin"))
    copy = os.path.join(bindir, "qshape-opt")
    shutil.copy2(TOOLS["opt"], copy)
    same = compile_(small, d, binary=copy)
    S.check(same.kind == "hit" and same.key == a.key, "an identical copy of the binary hits")
    with open(copy, "ab") as f:
        f.write(b"\0")
    rebuilt = compile_(small, d, binary=copy)
    S.check(rebuilt.rc == 0 and rebuilt.kind == "miss" and rebuilt.key != a.key,
            "a rebuilt binary (new build id) misses")
    S.check(rebuilt.out == ref, "and compiles the right result")
    # The build id is the running binary's, not whatever file argv[0] names:
    # the real qshape-opt found through PATH, run next to the rebuilt copy.
    p = subprocess.run(["qshape-opt", small, cache_opts(d), "-o", "-"], cwd=bindir, capture_output=True,
                       text=True, env=dict(os.environ, PATH=os.path.dirname(TOOLS["opt"]) + ":" + os.environ["PATH"]))
    via_path = Compile(p)
    S.check(via_path.kind == "hit" and via_path.key == a.key,
            "through PATH, next to another file of the same name: the running binary's key")
    # Entry format version: an entry written by another format is a miss.
    path = entry_path(d, a.key)
    data = bytearray(open(path, "rb").read())
    data[8] = 1  # format version field: what the first format's writers wrote
    open(path, "wb").write(bytes(data))
    r = compile_(small, d)
    S.check(r.kind == "miss" and r.out == ref, "an entry of another format version misses")
    r = compile_(small, d)
    S.check(r.kind == "hit", "and is replaced")


def case_cap_locks_permissions(work, small, ref):
    """(8) the size cap holds; stale locks are broken; permission policy."""
    S.case = "8 cap/lock/perm"
    d = fresh(os.path.join(work, "c8"))
    cap = 256 * 1024
    blob = os.path.join(work, "c8-blob")
    open(blob, "wb").write(make_payload(8, 20 * 1024))
    over = []
    for i in range(10):
        tool(d, "--max-size", str(cap), "put", key_of(0x800 + i), blob)
    # Entry 0 is used last: LRU must keep it over older ones.
    now = time.time()
    for i in range(10):
        p = entry_path(d, key_of(0x800 + i))
        os.utime(p, (now - 1000 + i, now - 1000 + i))
    S.check(tool(d, "get", key_of(0x800), "-o", os.devnull).returncode == 0, "get entry 0")
    first_eviction = None
    for i in range(10, 40):
        tool(d, "--max-size", str(cap), "put", key_of(0x800 + i), blob)
        size = sum(os.path.getsize(entry_path(d, e)) for e in entries(d))
        if size > cap:
            over.append(size)
        if first_eviction is None and stats(d).get("evictions", 0) > 0:
            first_eviction = (os.path.exists(entry_path(d, key_of(0x800))),
                              os.path.exists(entry_path(d, key_of(0x801))))
    S.check(not over, f"the cap holds after every store (over: {over[:3]})")
    s = stats(d)
    S.check(s.get("evictions", 0) > 0 and first_eviction is not None, "entries were evicted")
    S.check(first_eviction == (True, False),
            f"the first eviction kept the recently used entry and removed the least recently used one ({first_eviction})")
    # Stale locks.
    lock = os.path.join(d, "cleanup.lock")
    dead = next(pid for pid in range(4_000_000, 3_000_000, -1) if not os.path.exists(f"/proc/{pid}"))
    host = socket.gethostname()
    open(lock, "w").write(f"{dead} {host} {int(time.time())}\n")
    p = tool(d, "prune")
    S.check(p.returncode == 0 and "broke a stale cleanup lock" in p.stdout,
            "a lock of a dead process is broken")
    S.check(not os.path.exists(lock), "and released")
    open(lock, "w").write(f"{os.getpid()} {host} {int(time.time())}\n")
    p = tool(d, "prune")
    S.check(p.returncode == 2 and "another cleanup holds" in p.stderr, "a live lock is respected")
    old = time.time() - 3600
    os.utime(lock, (old, old))
    p = tool(d, "prune")
    S.check(p.returncode == 0 and "broke a stale cleanup lock" in p.stdout,
            "a lock not refreshed for an hour is broken")
    # Directory permissions.
    for mode, words in [(0o770, "writable by group or others"), (0o707, "writable by group or others")]:
        pd = fresh(os.path.join(work, "c8-perm"))
        os.chmod(pd, mode)
        r = compile_(small, pd)
        S.check(r.rc == 0 and r.out == ref, f"mode {mode:o}: the compile goes on")
        S.check(len(r.warnings) == 1 and words in r.warnings[0],
                f"mode {mode:o}: one warning: " + " | ".join(r.warnings))
        S.check(not os.listdir(pd), f"mode {mode:o}: nothing written")
    if os.geteuid() == 0:
        pd = fresh(os.path.join(work, "c8-perm"))
        os.chown(pd, 65534, 65534)
        r = compile_(small, pd)
        S.check(r.rc == 0 and r.out == ref and len(r.warnings) == 1
                and "owned by uid 65534" in r.warnings[0], "a directory of another user is refused")
        os.chown(pd, 0, 0)
    else:
        S.notes.append("not root: foreign-owner check skipped")
    pd = fresh(os.path.join(work, "c8-perm"))
    r1, r2 = compile_(small, pd), compile_(small, pd)
    S.check(r1.kind == "miss" and r2.kind == "hit" and not r1.warnings, "mode 0700 works")


def case_identical(work, big, big_ref):
    """(9) a hit gives the module the miss produced: text and fingerprint."""
    S.case = "9 identical"
    d = fresh(os.path.join(work, "c9"))
    for flags in [[], ["--mlir-print-debuginfo"], ["--mlir-print-op-generic"]]:
        runs = []
        for _ in range(2):
            p = subprocess.run([TOOLS["opt"], big, cache_opts(d)] + flags + ["-o", "-"],
                               capture_output=True, text=True)
            runs.append(Compile(p))
        miss, hit = runs
        S.check(miss.kind == "miss" and hit.kind == "hit", f"{flags}: miss then hit")
        S.check(miss.out == hit.out, f"{flags}: identical text")
        if not flags:
            S.check(miss.out == big_ref, "the miss equals the uncached compile")
        fps = []
        for r, name in [(miss, "miss"), (hit, "hit")]:
            path = os.path.join(work, f"c9-{name}.mlir")
            open(path, "w").write(r.out)
            fp = subprocess.run([TOOLS["fingerprint"], path], capture_output=True, text=True)
            fps.append(fp.stdout.split()[0] if fp.returncode == 0 and fp.stdout else None)
        S.check(fps[0] is not None and fps[0] == fps[1], f"{flags}: identical exact fingerprint")
        d = fresh(d)


# ---------------------------------------------------------------------------
# Remote cases: a real redis-server shared by directories that stand for
# machines (--cases remote)
# ---------------------------------------------------------------------------

SERVERS = []
PLUGINS = []  # pass plugin, dialect plugin (--plugins)
MLIR_OPT = []  # the upstream mlir-opt command, with its env prefix if any


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Resp:
    """A minimal RESP client for the test's own control of the server."""

    def __init__(self, port, password=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        if password:
            self.call("AUTH", password)

    def call(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        self.sock.sendall(out)
        return self._reply()

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                chunk = self.sock.recv(max(65536, n + 2 - len(self.buf)))
                if not chunk:
                    raise ConnectionError("closed")
                self.buf += chunk
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._reply() for _ in range(n)]
        raise ValueError(f"bad reply {line!r}")

    def close(self):
        self.sock.close()


class RedisServer:
    """redis-server on 127.0.0.1 and a free port, stopped by stop() (and by
    main()'s finally, so also when a case fails)."""

    def __init__(self, work, name, *config, password=None):
        self.dir = fresh(os.path.join(work, "redis-" + name))
        self.port = free_port()
        self.password = password
        cmd = [TOOLS["redis"], "--port", str(self.port), "--bind", "127.0.0.1",
               "--save", "", "--appendonly", "no", "--dir", self.dir,
               "--logfile", os.path.join(self.dir, "log")] + list(config)
        if password:
            cmd += ["--requirepass", password]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        SERVERS.append(self)
        deadline = time.monotonic() + 15
        while True:
            try:
                c = Resp(self.port, password)
                if c.call("PING") == "PONG":
                    c.close()
                    break
                c.close()
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.02)

    def url(self, attrs="", userinfo=""):
        u = "redis://" + (userinfo + "@" if userinfo else "") + f"127.0.0.1:{self.port}/0"
        return u + ("?" + attrs if attrs else "")

    def call(self, *args):
        c = Resp(self.port, self.password)
        try:
            return c.call(*args)
        finally:
            c.close()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()


def stop_servers():
    for srv in SERVERS:
        srv.stop()


def remote_env(url, key=None, **more):
    env = dict(os.environ)
    for var in ("QSHAPE_CACHE_REMOTE_KEY", "QSHAPE_CACHE_REMOTE_KEY_FILE",
                "QSHAPE_CACHE_REMOTE_PASSWORD_FILE"):
        env.pop(var, None)
    env["QSHAPE_CACHE_REMOTE"] = url
    if key:
        env["QSHAPE_CACHE_REMOTE_KEY"] = key
    else:
        # A remote without a key is left out unless asked for by name.
        env["QSHAPE_CACHE_REMOTE_INSECURE"] = "1"
    env.update(more)
    return env


def timed_compile(inp, d, env, extra=""):
    start = time.monotonic()
    r = compile_(inp, d, extra, env=env)
    return r, time.monotonic() - start


def remote_key_name(key, prefix="qshape"):
    return f"{prefix}:{key}"


def sim(path, args_file=None):
    cmd = [TOOLS["sim"], path] + ([f"--args=@{args_file}"] if args_file else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


TEAM_KEY = "our team's shared secret, 2026"
OTHER_KEY = "a different team's secret, 2026"


def fetched_copy(local, remote):
    """`local` is `remote` with the fetched flag (bit 1 of the flags at 52)
    set and the header checksum (the 16 bytes before the payload) redone."""
    if len(local) != len(remote) or len(local) < 64:
        return False
    size = struct.unpack_from("<I", remote, 12)[0]
    flags_l, flags_r = struct.unpack_from("<I", local, 52)[0], struct.unpack_from("<I", remote, 52)[0]
    return (local[:52] == remote[:52] and flags_l == flags_r | 2 and not flags_r & 2
            and local[56:size - 16] == remote[56:size - 16] and local[size:] == remote[size:])


def case_two_machines(work, big, big_ref, big_args):
    """(R1) A misses, B gets a remote hit and B's L1 is filled; same output."""
    S.case = "R1 two machines"
    srv = RedisServer(work, "r1")
    env = remote_env(srv.url())
    a, b = fresh(os.path.join(work, "r1-a")), fresh(os.path.join(work, "r1-b"))
    ra = compile_(big, a, env=env)
    S.check(ra.rc == 0 and ra.kind == "miss" and not ra.remote, "A misses")
    S.check(ra.out == big_ref, "A's result equals the uncached compile")
    S.check(srv.call("EXISTS", remote_key_name(ra.key)) == 1, "A stored to the remote")
    S.check(os.path.exists(entry_path(a, ra.key)), "A stored to its own directory")
    rb = compile_(big, b, env=env)
    S.check(rb.rc == 0 and rb.kind == "hit" and rb.remote and rb.key == ra.key, "B gets a remote hit")
    S.check(rb.out == ra.out, "B's output is A's, byte for byte")
    S.check(os.path.exists(entry_path(b, ra.key))
            and fetched_copy(open(entry_path(b, ra.key), "rb").read(),
                             srv.call("GET", remote_key_name(ra.key))),
            "B's directory holds the remote entry, marked fetched, its tag and payload as they came")
    rb2 = compile_(big, b, env=env)
    S.check(rb2.kind == "hit" and not rb2.remote and rb2.out == ra.out, "B's next run hits locally")
    sa, sb = stats(a), stats(b)
    S.check(sa.get("remote_misses") == 1 and sa.get("remote_stores") == 1, f"A counts a remote miss and a store ({sa.get('remote_misses')}, {sa.get('remote_stores')})")
    S.check(sb.get("remote_hits") == 1 and sb.get("hits") == 1 and sb.get("misses") == 1,
            "B counts one remote hit, then one local hit")
    # The oracle: the input and both outputs compute the same.
    paths = []
    for name, out in [("a", ra.out), ("b", rb.out)]:
        paths.append(os.path.join(work, f"r1-{name}.mlir"))
        open(paths[-1], "w").write(out)
    results = [sim(big, big_args), sim(paths[0], big_args), sim(paths[1], big_args)]
    S.check(results[0] is not None and results[0] == results[1] == results[2],
            "qshape-sim agrees on the input, A's output and B's output")
    p = tool(b, "verify", "--remote", env=env)
    S.check(p.returncode == 0 and "verified 1 remote entry: 1 ok, 0 bad" in p.stdout,
            "verify --remote: " + p.stdout.strip())
    p = tool(b, "stats", env=env)
    S.check(p.returncode == 0 and re.search(r"Remote server: +redis [0-9.]+, 1 keys", p.stdout) is not None
            and re.search(r"Remote hits: +1\n", p.stdout) is not None, "stats shows the server and the remote hit")
    # The plugin in upstream mlir-opt shares the server too (its key holds
    # the plugin's build id, so it has entries of its own).
    if PLUGINS:
        runs = []
        for name in ("c", "d"):
            cmd = MLIR_OPT + [f"--load-dialect-plugin={PLUGINS[1]}", f"--load-pass-plugin={PLUGINS[0]}",
                   "--pass-pipeline=builtin.module(qshape-cache{dir=%s pipeline=\"%s\" emit-remarks})"
                   % (fresh(os.path.join(work, "r1-" + name)), PIPE), big, "-o", "-"]
            runs.append(Compile(subprocess.run(cmd, capture_output=True, text=True, env=env)))
        c, d = runs
        S.check(c.rc == 0 and c.kind == "miss" and d.rc == 0 and d.kind == "hit" and d.remote,
                f"the plugin in mlir-opt: a miss, then a remote hit on another machine ({c.kind}, {d.kind})")
        S.check(c.out == d.out and c.key != ra.key, "with the same output, under the plugin's own key")
    srv.stop()


def case_concurrent_clients(work, small, ref):
    """(R2) 8 concurrent clients on one server."""
    S.case = "R2 8 clients"
    srv = RedisServer(work, "r2")
    env = remote_env(srv.url(), TEAM_KEY)
    dirs = [fresh(os.path.join(work, f"r2-{i}")) for i in range(16)]

    def run_all(ds):
        procs = [subprocess.Popen(compile_cmd(small, d), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env) for d in ds]
        res = []
        for p in procs:
            out, err = p.communicate()
            res.append(Compile(subprocess.CompletedProcess(p.args, p.returncode, out, err)))
        return res

    first = run_all(dirs[:8])
    S.check(all(r.rc == 0 and r.out == ref for r in first), "8 concurrent first compiles succeed, right result")
    S.check(len({r.key for r in first}) == 1, "one key")
    S.check(all(not r.warnings for r in first), "no warning: " + " | ".join(w for r in first for w in r.warnings)[:300])
    second = run_all(dirs[8:])
    S.check(all(r.rc == 0 and r.kind == "hit" and r.remote and r.out == ref for r in second),
            f"8 concurrent fresh machines all hit the remote ({[r.kind + ('/remote' if r.remote else '') for r in second]})")
    # 8 clients storing and loading their own keys, 256 KiB each, at once.
    payloads = {(i, j): make_payload(2000 + 10 * i + j, 256 * 1024) for i in range(8) for j in range(4)}
    problems = []

    def worker(i):
        d = fresh(os.path.join(work, f"r2-put-{i}"))
        for j in range(4):
            src = os.path.join(work, f"r2-src-{i}-{j}")
            open(src, "wb").write(payloads[(i, j)])
            p = tool(d, "put", key_of(0xE000 + 16 * i + j), src, env=env)
            if p.returncode != 0:
                problems.append(f"put {i}/{j}: {p.stderr.strip()}")
        for j in range(4):
            other = (i + 1) % 8  # what another client stored
            g = fresh(os.path.join(work, f"r2-get-{i}-{j}"))
            out = os.path.join(work, f"r2-out-{i}-{j}")
            p = tool(g, "get", key_of(0xE000 + 16 * other + j), "-o", out, env=env)
            if p.returncode == 1 and "miss: no entry" in p.stderr:
                continue  # the other client has not stored it yet
            if p.returncode != 0 or open(out, "rb").read() != payloads[(other, j)]:
                problems.append(f"get {i}/{j}: rc {p.returncode} {p.stderr.strip()}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    S.check(not problems, "8 clients storing and loading at once: every load exact; " + "; ".join(problems[:3]))
    p = tool(dirs[0], "verify", "--remote", "--json", env=env)
    v = json.loads(p.stdout) if p.returncode == 0 else {}
    S.check(v.get("bad") == 0 and v.get("checked") == 33, f"33 remote entries, all verify with the team key ({v.get('checked')}, {v.get('bad')})")
    srv.stop()


def case_remote_faults(work, small, ref):
    """(R3) every fault costs one warning, a counter and bounded time."""
    S.case = "R3 faults"
    # The baseline: a compile without any remote.
    base_dir = fresh(os.path.join(work, "r3-base"))
    _, base = timed_compile(small, base_dir, remote_env("off"))
    bound = base + 3.0  # generous: a correctness bound (no hang), not a benchmark
    three = ("--pass-pipeline=builtin.module(qshape-cache{dir=%s pipeline=symbol-dce emit-remarks},"
             "qshape-cache{dir=%s pipeline=canonicalize salt=2},qshape-cache{dir=%s pipeline=cse salt=3})")

    def three_passes(d, env):
        start = time.monotonic()
        p = subprocess.run([TOOLS["opt"], small, three % (d, d, d), "-o", "-"], capture_output=True,
                           text=True, env=env)
        return p, time.monotonic() - start

    def expect_one_fault(what, url, counter, words, extra_env=None, skipped=4, during=contextlib.nullcontext):
        """skipped: operations the breaker skips when three passes run in one
        process (3 lookups + 3 stores, 2 after a failed lookup); None: not
        checked (a fault that only a present entry triggers). during: a
        context that holds the fault around each process."""
        d = fresh(os.path.join(work, "r3-" + re.sub(r"\W+", "-", what)))
        env = remote_env(url, **(extra_env or {}))
        with during():
            r, wall = timed_compile(small, d, env)
        S.check(r.rc == 0 and r.out == ref, f"{what}: the compile succeeds with the right result")
        S.check(len(r.warnings) == 1 and words in r.warnings[0],
                f"{what}: one warning naming the cause: " + " | ".join(r.warnings))
        S.check(wall < bound, f"{what}: bounded wall time ({wall:.2f} s < {bound:.2f} s)")
        st = stats(d)
        S.check(st.get(counter) == 1, f"{what}: counted in {counter} ({st.get(counter)})")
        S.check(os.path.exists(entry_path(d, r.key)), f"{what}: the local cache still works")
        if skipped is None:
            return r
        # Three cache passes in one process: one failure, one warning; the
        # breaker skips the remote for the rest.
        d3 = fresh(d + "-3")
        with during():
            p, wall3 = three_passes(d3, env)
        st3 = stats(d3)
        S.check(p.returncode == 0 and p.stderr.count("warning:") == 1, f"{what}: three passes, one warning")
        S.check(st3.get("remote_errors", 0) + st3.get("remote_timeouts", 0) == 1 and st3.get("remote_skipped", 0) >= skipped,
                f"{what}: one failure per process, the rest skipped ({st3.get('remote_errors')}+"
                f"{st3.get('remote_timeouts')}, {st3.get('remote_skipped')} skipped)")
        S.check(wall3 < bound, f"{what}: three passes, still bounded ({wall3:.2f} s)")
        return r

    # Down at start: nothing listens.
    expect_one_fault("server down", f"redis://127.0.0.1:{free_port()}/0", "remote_errors", "cannot connect")
    # Unreachable: a listener whose backlog is full drops the SYN; the
    # connect waits out connect-timeout (default 100 ms).
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(0)
    fillers = []
    for _ in range(8):
        f = socket.socket()
        f.setblocking(False)
        try:
            f.connect(lst.getsockname())
        except BlockingIOError:
            pass
        fillers.append(f)
    time.sleep(0.05)
    expect_one_fault("connect timeout", f"redis://127.0.0.1:{lst.getsockname()[1]}/0", "remote_timeouts",
                     "within the connect timeout (100 ms)")
    for f in fillers:
        f.close()
    lst.close()

    srv = RedisServer(work, "r3")
    # Paused (SIGSTOP): the kernel still accepts the connection, and no reply
    # comes. The server is held only while a compile runs, so a slow
    # (sanitizer) build cannot outlast the fault.
    @contextlib.contextmanager
    def stopped():
        os.kill(srv.proc.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(srv.proc.pid, signal.SIGCONT)

    expect_one_fault("paused server", srv.url("timeout=1s"), "remote_timeouts",
                     "within the operation timeout (1000 ms", during=stopped)
    # Wrong password, and none at all, on a server that requires one.
    pw = RedisServer(work, "r3-auth", password="s3cret-pass")
    expect_one_fault("wrong password", pw.url(userinfo=":wrong"), "remote_errors", "WRONGPASS")
    expect_one_fault("no password", pw.url(), "remote_errors", "NOAUTH")
    pwfile = os.path.join(work, "r3-password")
    open(pwfile, "w").write("s3cret-pass\n")
    d = fresh(os.path.join(work, "r3-right-password"))
    env = remote_env(pw.url(), QSHAPE_CACHE_REMOTE_PASSWORD_FILE=pwfile)
    r = compile_(small, d, env=env)
    S.check(r.rc == 0 and not r.warnings and pw.call("EXISTS", remote_key_name(r.key)) == 1,
            "the right password from a file works (and is not in argv)")
    pw.stop()

    # Killed in the middle of a transfer (a): a proxy that passes the GET on
    # and cuts the reply after 1000 bytes.
    d = fresh(os.path.join(work, "r3-cut-src"))
    first = compile_(small, d, env=remote_env(srv.url()))
    size = len(srv.call("GET", remote_key_name(first.key)))
    proxy = socket.socket()
    proxy.bind(("127.0.0.1", 0))
    proxy.listen(4)

    def cut_connection(c):
        up = socket.create_connection(("127.0.0.1", srv.port))
        sent = 0
        try:
            while True:
                ready, _, _ = select.select([c, up], [], [], 5)
                if not ready:
                    break
                if c in ready:
                    data = c.recv(65536)
                    if not data:
                        break
                    up.sendall(data)
                if up in ready:
                    data = up.recv(65536)
                    if not data:
                        break
                    room = 1000 - sent
                    c.sendall(data[:room])
                    sent += min(len(data), room)
                    if sent >= 1000:
                        break
        except OSError:
            pass
        finally:
            # A reset, as the kernel of a killed server sends.
            c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            c.close()
            up.close()

    def cut_proxy():
        while True:
            try:
                c, _ = proxy.accept()
            except OSError:
                return  # closed: the case is over
            threading.Thread(target=cut_connection, args=(c,), daemon=True).start()

    t = threading.Thread(target=cut_proxy, daemon=True)
    t.start()
    r = expect_one_fault("reply cut mid-transfer", f"redis://127.0.0.1:{proxy.getsockname()[1]}/0?retry-after=1h",
                         "remote_errors", "during GET", skipped=None)
    proxy.close()
    t.join(10)
    S.check(size > 1000, f"the cut fell inside the value ({size} bytes)")

    # Killed in the middle of a transfer (b): SIGKILL a real server while 4
    # clients fetch a 32 MiB entry over and over from fresh directories.
    kill_srv = RedisServer(work, "r3-kill")
    blob = os.path.join(work, "r3-blob")
    big_payload = make_payload(31, 1024 * 1024) * 32
    open(blob, "wb").write(big_payload)
    kenv = remote_env(kill_srv.url("timeout=5s"))
    p = tool(fresh(os.path.join(work, "r3-kill-src")), "put", key_of(0xF00), blob, env=kenv)
    S.check(p.returncode == 0, "a 32 MiB entry is stored")
    outcomes = []
    stop = threading.Event()

    def fetcher(i):
        n = 0
        while not stop.is_set() and n < 200:
            g = fresh(os.path.join(work, f"r3-kill-{i}"))
            out = os.path.join(work, f"r3-kill-out-{i}")
            start = time.monotonic()
            q = tool(g, "get", key_of(0xF00), "-o", out, env=kenv)
            wall = time.monotonic() - start
            got = open(out, "rb").read() if q.returncode == 0 else None
            outcomes.append((q.returncode, got == big_payload if got is not None else None, wall, q.stderr))
            n += 1

    threads = [threading.Thread(target=fetcher, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    time.sleep(random.Random(3).uniform(0.3, 0.6))
    kill_srv.kill()
    time.sleep(0.5)
    stop.set()
    for th in threads:
        th.join()
    bad = [o for o in outcomes if not (o[0] == 0 and o[1]) and not (o[0] == 1 and "miss" in o[3])]
    S.check(not bad, f"every fetch across the kill gave the whole payload or a miss ({bad[:2]})")
    S.check(all(o[2] < bound + 5 for o in outcomes), "every fetch bounded in time")
    lost = sum(1 for o in outcomes if o[0] == 1 and ("connection lost" in o[3] or "closed the connection" in o[3]
                                                        or "Connection reset" in o[3]))
    S.notes.append(f"server kill: {lost} of {len(outcomes)} fetches lost mid-transfer")

    # Evicted under maxmemory (allkeys-lru): a plain remote miss.
    lru = RedisServer(work, "r3-lru", "--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru")
    lenv = remote_env(lru.url())
    d = fresh(os.path.join(work, "r3-lru-a"))
    first = compile_(small, d, env=lenv)
    filler = os.path.join(work, "r3-filler")
    for i in range(40):
        open(filler, "wb").write(make_payload(500 + i, 200 * 1024))
        tool(fresh(os.path.join(work, "r3-lru-fill")), "put", key_of(0xA000 + i), filler, env=lenv)
    info = lru.call("INFO", "stats").decode()
    evicted = int(re.search(r"evicted_keys:(\d+)", info).group(1))
    S.check(evicted > 0 and lru.call("EXISTS", remote_key_name(first.key)) == 0,
            f"maxmemory evicted the first entry ({evicted} keys evicted)")
    d = fresh(os.path.join(work, "r3-lru-b"))
    r, wall = timed_compile(small, d, lenv)
    S.check(r.rc == 0 and r.kind == "miss" and r.out == ref and not r.warnings and wall < bound,
            "an evicted entry is a plain miss: the right result, no warning")
    S.check(stats(d).get("remote_misses") == 1, "counted as a remote miss")
    lru.stop()
    # maxmemory with noeviction: the server refuses writes (OOM).
    full = RedisServer(work, "r3-oom", "--maxmemory-policy", "noeviction")
    used = int(re.search(r"used_memory:(\d+)", full.call("INFO", "memory").decode()).group(1))
    full.call("CONFIG", "SET", "maxmemory", str(used))  # full: every write is refused
    # Only the writes stop: the lookups go on (three passes: 1 refused
    # store, 2 skipped).
    expect_one_fault("maxmemory noeviction", full.url(), "remote_errors", "OOM", skipped=2)
    full.stop()

    # A value over the server's size limit (proto-max-bulk-len 1 MiB):
    # learnt with CONFIG GET and kept local; or, where CONFIG is not
    # allowed, refused by the server.
    srv.call("CONFIG", "SET", "proto-max-bulk-len", "1mb")
    open(blob, "wb").write(make_payload(41, 2 * 1024 * 1024))
    for who, url in [("server limit", srv.url()),
                     ("server limit, CONFIG forbidden", srv.url(userinfo="nocfg:pw"))]:
        if "nocfg" in url:
            srv.call("ACL", "SETUSER", "nocfg", "on", ">pw", "~*", "+@all", "-config")
        d = fresh(os.path.join(work, "r3-" + re.sub(r"\W+", "-", who)))
        env = remote_env(url)
        start = time.monotonic()
        p = tool(d, "put", key_of(0xC00), blob, env=env)
        wall = time.monotonic() - start
        warnings = [l for l in p.stderr.splitlines() if "warning:" in l]
        S.check(p.returncode == 0 and len(warnings) == 1 and wall < bound,
                f"{who}: the put succeeds locally with one warning ({wall:.2f} s): " + p.stderr.strip()[:300])
        st = stats(d)
        S.check(st.get("remote_too_large", 0) + st.get("remote_errors", 0) == 1,
                f"{who}: counted ({st.get('remote_too_large')} too large, {st.get('remote_errors')} errors)")
        S.check(srv.call("EXISTS", remote_key_name(key_of(0xC00))) == 0, f"{who}: nothing on the server")
        S.check(tool(d, "get", key_of(0xC00), "-o", os.devnull, env=remote_env("off")).returncode == 0,
                f"{who}: the entry is in the local cache")
    srv.call("CONFIG", "SET", "proto-max-bulk-len", "512mb")
    # And our own limit: max-entry-size.
    d = fresh(os.path.join(work, "r3-max-entry"))
    p = tool(d, "put", key_of(0xC01), blob, env=remote_env(srv.url("max-entry-size=64K")))
    S.check(p.returncode == 0 and "max-entry-size" in p.stderr and stats(d).get("remote_too_large") == 1,
            "max-entry-size keeps a large entry local with one warning")
    srv.stop()


def case_authenticity(work, small, ref, other, other_ref):
    """(R4) with the team key, untagged and other-key entries are refused."""
    S.case = "R4 tags"
    srv = RedisServer(work, "r4")
    team = remote_env(srv.url(), TEAM_KEY)
    # Honest entries of a client without the key, and of another team.
    for who, env in [("untagged", remote_env(srv.url())), ("other key", remote_env(srv.url(), OTHER_KEY))]:
        srv.call("FLUSHALL")
        planter = compile_(small, fresh(os.path.join(work, "r4-planter")), env=env)
        S.check(planter.kind == "miss" and srv.call("EXISTS", remote_key_name(planter.key)) == 1,
                f"{who}: planted")
        d = fresh(os.path.join(work, "r4-reader"))
        r = compile_(small, d, env=team)
        S.check(r.rc == 0 and r.kind == "miss" and r.out == ref, f"{who}: refused, so a miss with the right result")
        S.check(len(r.warnings) == 1 and "refused" in r.warnings[0], f"{who}: one warning: " + " | ".join(r.warnings))
        S.check(stats(d).get("remote_refused") == 1, f"{who}: counted as refused")
        value = srv.call("GET", remote_key_name(r.key))
        S.check(value[52] & 1 == 1, f"{who}: the remote entry was replaced by a tagged one")
        p = tool(d, "verify", "--remote", env=team)
        S.check(p.returncode == 0, f"{who}: and it verifies with the team key")
        r2 = compile_(small, fresh(os.path.join(work, "r4-reader2")), env=team)
        S.check(r2.kind == "hit" and r2.remote and r2.out == ref, f"{who}: the right key's entry is accepted")
        p = tool(d, "verify", "--remote", env=remote_env(srv.url(), OTHER_KEY))
        S.check(p.returncode == 1 and "refused: its authenticity tag does not verify" in p.stdout,
                f"{who}: verify with another key reports it")
    # A forged entry: another circuit's module planted under this key. A
    # client without the key takes it (it trusts the server, like ccache and
    # sccache); a client with the key refuses it.
    srv.call("FLUSHALL")
    keyrun = compile_(small, fresh(os.path.join(work, "r4-key")), env=remote_env("off"))
    forged = os.path.join(work, "r4-forged.mlirbc")
    subprocess.run([TOOLS["opt"], other, f"--qshape-cache=mode=off pipeline={PIPE}", "--emit-bytecode", "-o", forged],
                   check=True)
    p = tool(fresh(os.path.join(work, "r4-forger")), "put", keyrun.key, forged, "--kind", "mlirbc",
             env=remote_env(srv.url()))
    S.check(p.returncode == 0, "a forged entry is planted without the key")
    trusting = compile_(small, fresh(os.path.join(work, "r4-trusting")), env=remote_env(srv.url()))
    S.check(trusting.kind == "hit" and trusting.remote and trusting.out == other_ref,
            "without the key the forged module is used: a client without a team key trusts the server")
    d = fresh(os.path.join(work, "r4-careful"))
    careful = compile_(small, d, env=team)
    S.check(careful.kind == "miss" and careful.out == ref and stats(d).get("remote_refused") == 1,
            "with the key it is refused, and the right module is compiled")
    srv.stop()


def case_remote_corrupt(work, small, ref):
    """(R5) a corrupted remote value is a miss and is repaired."""
    S.case = "R5 corrupt remote"
    srv = RedisServer(work, "r5")
    env = remote_env(srv.url())
    a = compile_(small, fresh(os.path.join(work, "r5-a")), env=env)
    name = remote_key_name(a.key)
    good = srv.call("GET", name)
    for what, offset in [("payload", len(good) // 2 + 80), ("header", 20), ("last byte", len(good) - 1)]:
        bad = bytearray(good)
        bad[offset] ^= 0xFF
        srv.call("SET", name, bytes(bad))
        p = tool(fresh(os.path.join(work, "r5-v")), "verify", "--remote", env=env)
        S.check(p.returncode == 1 and "bad entry blake3:" + a.key in p.stdout, f"{what}: verify --remote reports it")
        d = fresh(os.path.join(work, "r5-b"))
        b = compile_(small, d, env=env)
        S.check(b.rc == 0 and b.kind == "miss" and b.out == ref and not b.warnings,
                f"{what}: a miss with the right result, no warning")
        S.check(stats(d).get("remote_corrupt") == 1, f"{what}: counted as remote corrupt")
        S.check(srv.call("GET", name) != bytes(bad), f"{what}: the remote value was overwritten")
        c = compile_(small, fresh(os.path.join(work, "r5-c")), env=env)
        S.check(c.kind == "hit" and c.remote and c.out == ref, f"{what}: then a remote hit")
    # Not ours at all: a hash under the key; verify --fix removes it.
    srv.call("DEL", name)
    srv.call("HSET", name, "f", "v")
    d = fresh(os.path.join(work, "r5-type"))
    b = compile_(small, d, env=env)
    S.check(b.rc == 0 and b.out == ref and stats(d).get("remote_corrupt") == 1,
            "a value of another type is a corrupt entry")
    srv.call("DEL", name)
    srv.call("SET", name, b"QSHCACHE garbage")
    p = tool(d, "verify", "--remote", "--fix", env=env)
    S.check(p.returncode == 0 and "1 removed" in p.stdout and srv.call("EXISTS", name) == 0,
            "verify --remote --fix removes a bad remote entry")
    srv.stop()


def case_remote_modes(work, small, ref):
    """(R6) read-only, prefix and TTL."""
    S.case = "R6 modes"
    srv = RedisServer(work, "r6")
    d = fresh(os.path.join(work, "r6-ro"))
    r = compile_(small, d, env=remote_env(srv.url("read-only")))
    S.check(r.rc == 0 and r.out == ref and srv.call("DBSIZE") == 0 and not r.warnings,
            "read-only: nothing is stored remotely, no warning")
    w = compile_(small, fresh(os.path.join(work, "r6-w")), env=remote_env(srv.url("prefix=team-a&ttl=1h")))
    S.check(srv.call("EXISTS", remote_key_name(w.key, "team-a")) == 1, "prefix: the key lives under team-a:")
    ttl = srv.call("PTTL", remote_key_name(w.key, "team-a"))
    S.check(3500_000 < ttl <= 3600_000, f"ttl: the entry expires in an hour ({ttl} ms)")
    srv.call("PEXPIRE", remote_key_name(w.key, "team-a"), "60000")
    ro = compile_(small, fresh(os.path.join(work, "r6-ro2")), env=remote_env(srv.url("prefix=team-a&ttl=1h&read-only")))
    S.check(ro.kind == "hit" and ro.remote, "read-only still reads")
    ttl = srv.call("PTTL", remote_key_name(w.key, "team-a"))
    S.check(ttl > 3500_000, f"a hit refreshes the TTL ({ttl} ms)")
    none = compile_(small, fresh(os.path.join(work, "r6-other")), env=remote_env(srv.url()))
    S.check(none.kind == "miss", "another prefix does not see team-a's entries")
    # Read-only enforced by the server: an ACL user that may not SET. Its
    # stores stop (one warning), its lookups go on in the same process.
    srv.call("ACL", "SETUSER", "dev", "on", ">devpw", "~qshape:*", "+get", "+getex", "+ping", "+info",
             "+dbsize", "+scan", "+strlen")
    two = "--pass-pipeline=builtin.module(qshape-cache{dir=%s pipeline=symbol-dce salt=%s}," \
          "qshape-cache{dir=%s pipeline=\"%s\" emit-remarks})"
    ci_dir = fresh(os.path.join(work, "r6-ci"))
    subprocess.run([TOOLS["opt"], small, two % (ci_dir, "ci", ci_dir, PIPE), "-o", "-"], capture_output=True,
                   check=True, env=remote_env(srv.url()))
    dev_dir = fresh(os.path.join(work, "r6-dev"))
    p = subprocess.run([TOOLS["opt"], small, two % (dev_dir, "dev", dev_dir, PIPE), "-o", "-"], capture_output=True,
                       text=True, env=remote_env(srv.url(userinfo="dev:devpw")))
    dev = Compile(p)
    warnings = [l for l in p.stderr.splitlines() if "warning:" in l]
    S.check(p.returncode == 0 and p.stdout == ref, "a user without write permission compiles the right result")
    S.check(len(warnings) == 1 and "refuses writes of this user" in warnings[0],
            "its refused store costs one warning: " + " | ".join(warnings))
    S.check(dev.kind == "hit" and dev.remote, "and its next lookup in the same process still hits the remote")
    st = stats(dev_dir)
    S.check(st.get("remote_errors") == 1 and st.get("remote_hits") == 1, "counted: one error, one remote hit")
    srv.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", choices=["local", "remote"], default="local",
                    help="local: the directory's cases (1-9); remote: a shared Redis (R1-R6)")
    ap.add_argument("--plugins", nargs=2, metavar=("PASS_PLUGIN", "DIALECT_PLUGIN"),
                    help="remote: also run the pass plugin in upstream mlir-opt")
    ap.add_argument("--mlir-opt", default="mlir-opt",
                    help="the upstream mlir-opt command (lit's %%upstream_mlir_opt: under ASan it "
                         "preloads the sanitizer runtime)")
    ap.add_argument("--no-mount", action="store_true",
                    help="exercise the fallbacks (setpriv/chmod, RLIMIT_FSIZE)")
    args = ap.parse_args()
    if args.no_mount:
        NO_MOUNT.append(True)
    tools = [("opt", "qshape-opt"), ("cache", "qshape-cache"), ("fingerprint", "qshape-fingerprint")]
    if args.cases == "remote":
        tools += [("sim", "qshape-sim"), ("redis", "redis-server")]
        if args.plugins:
            PLUGINS.extend(os.path.abspath(p) for p in args.plugins)
            MLIR_OPT.extend(shlex.split(args.mlir_opt))
            tools.append(("mlir-opt", MLIR_OPT[-1]))
    for name, exe in tools:
        TOOLS[name] = shutil.which(exe) or (shutil.which(exe, path="/usr/sbin:/usr/bin") if exe == "redis-server" else None)
        if not TOOLS[name]:
            hint = " (Debian: redis-server; `make deps` installs it)" if exe == "redis-server" else ""
            print(f"fault-injection: {exe} not on PATH{hint}", file=sys.stderr)
            return 2
    work = os.path.abspath(args.work)
    umount_under(work)
    force_rmtree(work)
    os.makedirs(work)
    args.src = os.path.abspath(args.src)
    small = os.path.join(args.src, "examples", "qpe-h2-native.mlir")
    other = os.path.join(args.src, "examples", "w1-unrolled.mlir")
    big = os.path.join(work, "w2.mlir")
    big_args = os.path.join(work, "w2.args.json")
    subprocess.run([sys.executable, os.path.join(args.src, "utils", "gen", "workloads.py"), "w2",
                    "--n-trotter", "10", "-o", big, "--args-out", big_args], check=True)
    ref, other_ref, big_ref = reference(small), reference(other), reference(big)
    start = time.monotonic()
    if args.cases == "local":
        title = "fault-injection"
        cases = [lambda: case_corrupt(work, small, ref),
                 lambda: case_truncated(work, small, ref),
                 lambda: case_killed_writers(work, big, big_ref),
                 lambda: case_concurrent(work, small, ref),
                 lambda: case_read_only(work, small, ref, other, other_ref),
                 lambda: case_disk_full(work, small, ref),
                 lambda: case_key_changes(work, small, ref),
                 lambda: case_cap_locks_permissions(work, small, ref),
                 lambda: case_identical(work, big, big_ref)]
    else:
        title = "fault-injection (remote)"
        cases = [lambda: case_two_machines(work, big, big_ref, big_args),
                 lambda: case_concurrent_clients(work, small, ref),
                 lambda: case_remote_faults(work, small, ref),
                 lambda: case_authenticity(work, small, ref, other, other_ref),
                 lambda: case_remote_corrupt(work, small, ref),
                 lambda: case_remote_modes(work, small, ref)]
    try:
        for run in cases:
            try:
                run()
            except Exception as e:  # a crash of the suite is a failure
                S.check(False, f"exception {type(e).__name__}: {e}")
    finally:
        stop_servers()
        umount_under(work)
    print(f"{title}: {len(cases)} cases, {S.passed} checks passed, {len(S.failures)} failed"
          f" in {time.monotonic() - start:.1f} s ({'; '.join(S.notes)})")
    for f in S.failures:
        print("  FAILED " + f)
    return 1 if S.failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        stop_servers()  # also on an exception or ^C outside the cases
