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
# RUN: %python %s --src %qshape_src --work %t | FileCheck %s
# CHECK: fault-injection: 9 cases, {{[0-9]+}} checks passed, 0 failed
import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

PIPE = "func.func(canonicalize,cse),inline,symbol-dce"
REMARK = re.compile(r"remark: qshape-cache: (hit|miss|write) blake3:([0-9a-f]{64})")
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
        self.kinds = [k for k, _ in m]
        self.keys = [key for _, key in m]
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


def verify(cache_dir):
    """(exit code, parsed json) of `qshape-cache verify --json`."""
    p = tool(cache_dir, "verify", "--json")
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
    # runs while the writer is in the middle of its store.
    for i in range(1, 21):
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
    S.check(mid_write >= 5, f"at least 5 of 20 put kills landed mid-write (got {mid_write})")
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
    S.notes.append(f"{mid_write}/20 put kills mid-write")


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--no-mount", action="store_true",
                    help="exercise the fallbacks (setpriv/chmod, RLIMIT_FSIZE)")
    args = ap.parse_args()
    if args.no_mount:
        NO_MOUNT.append(True)
    for name, exe in [("opt", "qshape-opt"), ("cache", "qshape-cache"), ("fingerprint", "qshape-fingerprint")]:
        TOOLS[name] = shutil.which(exe)
        if not TOOLS[name]:
            print(f"fault-injection: {exe} not on PATH", file=sys.stderr)
            return 2
    work = os.path.abspath(args.work)
    umount_under(work)
    force_rmtree(work)
    os.makedirs(work)
    args.src = os.path.abspath(args.src)
    small = os.path.join(args.src, "examples", "qpe-h2-native.mlir")
    other = os.path.join(args.src, "examples", "w1-unrolled.mlir")
    big = os.path.join(work, "w2.mlir")
    subprocess.run([sys.executable, os.path.join(args.src, "bench", "workloads.py"), "w2",
                    "--n-trotter", "10", "-o", big], check=True)
    ref, other_ref, big_ref = reference(small), reference(other), reference(big)
    start = time.monotonic()
    cases = [lambda: case_corrupt(work, small, ref),
             lambda: case_truncated(work, small, ref),
             lambda: case_killed_writers(work, big, big_ref),
             lambda: case_concurrent(work, small, ref),
             lambda: case_read_only(work, small, ref, other, other_ref),
             lambda: case_disk_full(work, small, ref),
             lambda: case_key_changes(work, small, ref),
             lambda: case_cap_locks_permissions(work, small, ref),
             lambda: case_identical(work, big, big_ref)]
    try:
        for run in cases:
            try:
                run()
            except Exception as e:  # a crash of the suite is a failure
                S.check(False, f"exception {type(e).__name__}: {e}")
    finally:
        umount_under(work)
    print(f"fault-injection: {len(cases)} cases, {S.passed} checks passed, {len(S.failures)} failed"
          f" in {time.monotonic() - start:.1f} s ({'; '.join(S.notes)})")
    for f in S.failures:
        print("  FAILED " + f)
    return 1 if S.failures else 0


if __name__ == "__main__":
    sys.exit(main())
