# Attacks on the shared cache (docs/security.md): a writer of the Redis
# server who does not hold the team key attacks a team whose machines run
# qshape-compile (and qshape-opt's cache pass) with QSHAPE_CACHE_REMOTE_KEY.
# The attacker's code is the library of another program (bell.mlir with
# math.cos replaced by math.sin), its library info patched to name the
# victim's compile key, so that it passes every check but the tag; its
# results differ from the oracle's (qshape-sim on the victim's input).
#
# Every scenario asserts that the victim's compile exits 0 with a library
# that gives the oracle's results, that the lookup was a miss or a refusal
# (and, where one applies, the counter of `qshape-cache stats --json`), and,
# where the attack can work at all, runs a control in which the entry IS
# accepted (the insecure mode, a holder of the attacker's key, a copy whose
# fetched flag was cleared) and asserts that the attacker's results ARE seen
# there: the oracle check of the scenario can fail.
#
#   blake3  the pure-Python BLAKE3 below (hash, keyed hash, key derivation)
#           against the empty-input test vector and against qshape: payload
#           hashes of `qshape-cache put` entries of 0 B to 31 KiB, the header
#           checksum, payload hash and team tag of a legitimate entry; a
#           forged entry placed in a directory is `show`n as ok
#   a       a forged untagged library under the victim's key (producer copied
#           from a legitimate entry, payload hash and header checksum right);
#           also with QSHAPE_CACHE_REMOTE_INSECURE=1 beside the key
#   b       the same, flagged tagged with a random tag
#   c       a legitimate tagged entry of the victim's key with the payload
#           (size, hash, header checksum) replaced: the tag no longer holds
#   d       replays under another key: another program's tagged library
#           RENAMEd to the victim's name; the same with its header key
#           rewritten (tag kept); another program's source index moved
#   e       tagged with another team's key: the attacker's library under the
#           attacker's own key; an honest entry of another team
#   f       truncated legitimate entries (half, one byte short, header only)
#   g       a poisoned local copy: fetched in the insecure mode (the
#           attacker's code IS served then: that mode's risk), then the team
#           sets its key: not served, `verify` reports it refused and exits 1,
#           `verify --purge` removes it, a second verify exits 0; the copy
#           is not served either when the insecure mode is dropped without
#           a key. Control: the same copy with its fetched flag cleared (as
#           the directory's owner could write it) IS served with the key
#   k       a key rotation: a copy fetched under the old key is refused
#   h       a remote without a key and without QSHAPE_CACHE_REMOTE_INSECURE:
#           never connected to, one warning that says how to set a key
#   i       a forged source index that sends the victim's input to another
#           program's legitimate library
#   m-a     qshape-opt's cache pass: a forged untagged module (case a)
#   m-g     qshape-opt's cache pass: a poisoned local copy (case g)
#
# REQUIRES: redis
# RUN: %python %s --tools %qshape_tools --src %qshape_src --work %t | FileCheck %s
# CHECK: attacks: 13 scenarios, {{[0-9]+}} checks passed, 0 failed
import argparse
import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, *path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, *path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# artifact-cache-faults.py loads fault-injection.py itself: one instance of
# it (its tool paths, its servers, its check counter) serves both.
af = load("artifact_cache_faults", "..", "Tools", "qshape-compile", "artifact-cache-faults.py")
fi = af.fi
S = fi.S
check = S.check

# ---------------------------------------------------------------------------
# BLAKE3, from the specification (hash, keyed_hash and derive_key modes; any
# length, one output block of 64 bytes is enough for the 32 bytes used here)
# ---------------------------------------------------------------------------

IV = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
      0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)
PERMUTATION = (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8)
CHUNK_START, CHUNK_END, PARENT, ROOT = 1, 2, 4, 8
KEYED_HASH, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL = 16, 32, 64
BLOCK, CHUNK = 64, 1024
M32 = 0xFFFFFFFF


def _g(s, a, b, c, d, x, y):
    va = (s[a] + s[b] + x) & M32
    vd = s[d] ^ va
    vd = (vd >> 16) | ((vd << 16) & M32)
    vc = (s[c] + vd) & M32
    vb = s[b] ^ vc
    vb = (vb >> 12) | ((vb << 20) & M32)
    va = (va + vb + y) & M32
    vd = vd ^ va
    vd = (vd >> 8) | ((vd << 24) & M32)
    vc = (vc + vd) & M32
    vb = vb ^ vc
    vb = (vb >> 7) | ((vb << 25) & M32)
    s[a], s[b], s[c], s[d] = va, vb, vc, vd


def compress(cv, block, counter, block_len, flags):
    """The compression function: 16 words of output."""
    m = list(struct.unpack("<16I", block))
    s = list(cv) + list(IV[:4]) + [counter & M32, (counter >> 32) & M32, block_len, flags]
    for r in range(7):
        _g(s, 0, 4, 8, 12, m[0], m[1])
        _g(s, 1, 5, 9, 13, m[2], m[3])
        _g(s, 2, 6, 10, 14, m[4], m[5])
        _g(s, 3, 7, 11, 15, m[6], m[7])
        _g(s, 0, 5, 10, 15, m[8], m[9])
        _g(s, 1, 6, 11, 12, m[10], m[11])
        _g(s, 2, 7, 8, 13, m[12], m[13])
        _g(s, 3, 4, 9, 14, m[14], m[15])
        if r < 6:
            m = [m[i] for i in PERMUTATION]
    for i in range(8):
        s[i] ^= s[i + 8]
        s[i + 8] ^= cv[i]
    return s


class Output:
    """A compression not yet made: a chunk's last block or a parent node,
    which is a chaining value or, with ROOT, the hash."""

    def __init__(self, cv, block, counter, block_len, flags):
        self.args = (cv, block, counter, block_len, flags)

    def chaining_value(self):
        return compress(*self.args)[:8]

    def root(self, length=32):
        cv, block, _, block_len, flags = self.args
        out = b""
        n = 0
        while len(out) < length:  # the output counter, not the chunk's
            out += struct.pack("<16I", *compress(cv, block, n, block_len, flags | ROOT))
            n += 1
        return out[:length]


def _chunk(data, counter, key, flags):
    blocks = [data[i:i + BLOCK] for i in range(0, len(data), BLOCK)] or [b""]
    cv = key
    for j, block in enumerate(blocks[:-1]):
        cv = compress(cv, block, counter, BLOCK, flags | (CHUNK_START if j == 0 else 0))[:8]
    last = blocks[-1]
    start = CHUNK_START if len(blocks) == 1 else 0
    return Output(cv, last.ljust(BLOCK, b"\0"), counter, len(last), flags | start | CHUNK_END)


def _subtree(data, counter, key, flags):
    if len(data) <= CHUNK:
        return _chunk(data, counter, key, flags)
    # The left subtree: the largest power of two of chunks that leaves at
    # least one byte to the right.
    left = CHUNK
    while 2 * left < len(data):
        left *= 2
    lcv = _subtree(data[:left], counter, key, flags).chaining_value()
    rcv = _subtree(data[left:], counter + left // CHUNK, key, flags).chaining_value()
    return Output(key, struct.pack("<16I", *lcv, *rcv), 0, BLOCK, flags | PARENT)


def blake3(data, length=32, key=None):
    if key is None:
        return _subtree(bytes(data), 0, IV, 0).root(length)
    return _subtree(bytes(data), 0, struct.unpack("<8I", key), KEYED_HASH).root(length)


def blake3_derive_key(context, material):
    context_key = _subtree(context.encode(), 0, IV, DERIVE_KEY_CONTEXT).root(32)
    return _subtree(bytes(material), 0, struct.unpack("<8I", context_key),
                    DERIVE_KEY_MATERIAL).root(32)


# ---------------------------------------------------------------------------
# The entry format (include/qshape/Cache/CacheEntry.h), written from scratch
# ---------------------------------------------------------------------------

TAGGED, FETCHED = 1, 2
KIND_BLOB, KIND_MLIRBC, KIND_SHARED_LIB = 0, 2, 6
TAG_CONTEXT = "qshape-cache 2026-12 remote entry authenticity tag v1"


def parse_entry(data):
    """The header fields of an entry, and its payload (no check)."""
    n = struct.unpack_from("<H", data, 144)[0]
    size = struct.unpack_from("<I", data, 12)[0]
    return {
        "version": struct.unpack_from("<I", data, 8)[0], "key": data[16:48],
        "kind": struct.unpack_from("<I", data, 48)[0], "flags": struct.unpack_from("<I", data, 52)[0],
        "payload_size": struct.unpack_from("<Q", data, 56)[0], "payload_hash": data[64:96],
        "compile_ms": struct.unpack_from("<Q", data, 96)[0],
        "created": struct.unpack_from("<Q", data, 104)[0], "tag": data[112:144],
        "producer": data[146:146 + n], "checksum": data[146 + n:162 + n],
        "header_size": size, "payload": data[size:]}


def header_bytes(f):
    """The encoded header of the fields `f` (the checksum computed)."""
    producer = f["producer"]
    fixed = (b"QSHCACHE" + struct.pack("<II", 3, 162 + len(producer)) + f["key"]
             + struct.pack("<IIQ", f["kind"], f["flags"], f["payload_size"]) + f["payload_hash"]
             + struct.pack("<QQ", f["compile_ms"], f["created"]) + f["tag"]
             + struct.pack("<H", len(producer)) + producer)
    return fixed + blake3(fixed, 16)


def team_key(secret):
    return blake3_derive_key(TAG_CONTEXT, secret.encode())


def tag_of(f, secret):
    """The keyed-BLAKE3 tag: over the header with the tag zeroed, the tagged
    flag set and the fetched flag clear, without the header checksum."""
    unsigned = dict(f, tag=bytes(32), flags=(f["flags"] | TAGGED) & ~FETCHED)
    return blake3(header_bytes(unsigned)[:-16], key=team_key(secret))


def make_entry(key, kind, payload, producer, flags=0, tag=bytes(32), secret=None, created=None):
    f = {"key": key, "kind": kind, "flags": flags, "payload_size": len(payload),
         "payload_hash": blake3(payload), "compile_ms": 120,
         "created": created if created is not None else int(time.time()), "tag": tag,
         "producer": producer}
    if secret:
        f["flags"] |= TAGGED
        f["tag"] = tag_of(f, secret)
    return header_bytes(f) + payload


def rewrite(data, **changes):
    """`data` with header fields changed (and the checksum redone)."""
    f = parse_entry(data)
    payload = changes.pop("payload", f["payload"])
    f.update(changes)
    return header_bytes(f) + payload


def intact(data):
    """Header checksum, size and payload hash hold (what any reader checks)."""
    try:
        f = parse_entry(data)
        return (data[:8] == b"QSHCACHE" and header_bytes(f)[:f["header_size"]] == data[:f["header_size"]]
                and f["payload_size"] == len(f["payload"]) and blake3(f["payload"]) == f["payload_hash"])
    except (struct.error, IndexError):
        return False


def verifies(data, secret):
    f = parse_entry(data)
    return intact(data) and bool(f["flags"] & TAGGED) and tag_of(f, secret) == f["tag"]


# ---------------------------------------------------------------------------
# The scene: a team's server, the victim's program and the attacker's code
# ---------------------------------------------------------------------------

TEAM = fi.TEAM_KEY            # the victim's team
OTHER = fi.OTHER_KEY          # another team's key; in (e) the attacker's own
ROTATED = "our team's new secret, 2027"
REMOTE_VARS = ("QSHAPE_CACHE_REMOTE", "QSHAPE_CACHE_REMOTE_KEY", "QSHAPE_CACHE_REMOTE_KEY_FILE",
               "QSHAPE_CACHE_REMOTE_PASSWORD_FILE", "QSHAPE_CACHE_REMOTE_INSECURE",
               "QSHAPE_CACHE_REMOTE_DOWN")


def env_with(key=None, insecure=False, remote=None):
    env = {k: v for k, v in os.environ.items() if k not in REMOTE_VARS}
    if key:
        env["QSHAPE_CACHE_REMOTE_KEY"] = key
    if insecure:
        env["QSHAPE_CACHE_REMOTE_INSECURE"] = "1"
    if remote:
        env["QSHAPE_CACHE_REMOTE"] = remote
    return env


class Scene:
    pass


W = Scene()


def name(key_hex):
    return fi.remote_key_name(key_hex)


def hexkey(key):
    return key.split(":")[-1]


def reset_server():
    """The server as the team left it: the legitimate entries only."""
    W.srv.call("FLUSHALL")
    for k, v in W.legit.items():
        W.srv.call("SET", k, v)


def victim(label, key=TEAM, insecure=False, directory=None, remote=True):
    """One compile of the victim's input on a machine (a cache directory)."""
    d = directory or fi.fresh(os.path.join(W.work, label))
    extra = [f"--cache-remote={W.srv.url()}"] if remote else ["--cache-remote=off"]
    r = af.compile_(W.inp, d, os.path.join(W.work, label + ".so"), *extra,
                    env=env_with(key, insecure))
    r.dir = d
    r.results = af.results(r.out) if r.rc == 0 else None
    return r


def attacker_seen(r):
    return r.rc == 0 and af.same_results(r.results, W.attacker_ref)


def oracle_seen(r):
    return r.rc == 0 and af.same_results(r.results, W.ref)


def defended(r, what, outcome="miss", counter=None, warning=None):
    """The victim's compile: exit 0, the oracle's results, the lookup a miss
    (or a refusal and then a legitimate hit), counted."""
    check(r.rc == 0, f"{what}: exit 0 ({r.err.strip()[-300:]})")
    check(oracle_seen(r), f"{what}: the library gives the oracle's results, not the attacker's")
    check(r.outcome == outcome, f"{what}: a {outcome} ({r.outcome})")
    if counter:
        got = fi.stats(r.dir).get(counter, 0)
        check(got >= 1, f"{what}: counted as {counter} ({got})")
    if warning:
        check(any(warning in w for w in r.warnings), f"{what}: a warning says '{warning}' ({r.warnings})")


def repaired(what, key_hex):
    """After the victim's miss its store replaced the planted value with
    its own entry, tagged with the team key."""
    value = W.srv.call("GET", name(key_hex))
    check(value is not None and verifies(value, TEAM),
          f"{what}: the victim's store replaced the planted value with a team-tagged entry")


def attack(label, planted, outcome="miss", counter="remote_refused", warning=None,
           control=None, renames=()):
    """Plants `planted` ({redis name: bytes}) and RENAMEs `renames`, runs a
    victim with the team key, then (control) a machine that accepts what
    was planted. `control` is (description, env kwargs, expect attacker)."""
    reset_server()
    for src, dst in renames:
        W.srv.call("RENAME", src, dst)
    for k, v in planted.items():
        W.srv.call("SET", k, v)
    r = victim(label)
    defended(r, label, outcome, counter, warning)
    if outcome == "miss":
        repaired(label, W.kv)
    if control:
        what, kwargs, expect_attacker = control
        reset_server()
        for src, dst in renames:
            W.srv.call("RENAME", src, dst)
        for k, v in planted.items():
            W.srv.call("SET", k, v)
        c = victim(label + "-control", **kwargs)
        if expect_attacker:
            check(attacker_seen(c), f"{label} control ({what}): the attacker's results ARE seen "
                  f"(rc {c.rc}, {c.outcome}): the check above can fail")
        else:
            check(oracle_seen(c), f"{label} control ({what}): the oracle's results ({c.outcome})")
    return r


# ---------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------

def scenario_blake3():
    S.case = "blake3"
    check(blake3(b"").hex() == "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
          "BLAKE3 of the empty input is the specification's test vector")
    # qshape's BLAKE3 (LLVM's) of payloads of every shape of tree.
    d = fi.fresh(os.path.join(W.work, "blake3"))
    lengths = [0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 2049, 3072, 3073, 5000, 8192, 9217, 31745]
    wrong = []
    for i, n in enumerate(lengths):
        data = bytes((j * 7 + i) % 251 for j in range(n))
        path = os.path.join(W.work, "blake3-payload")
        open(path, "wb").write(data)
        key = "%064x" % (0xB3000 + i)
        p = fi.tool(d, "put", key, path)
        s = json.loads(fi.tool(d, "show", key, "--json").stdout or "{}")
        if p.returncode != 0 or s.get("payload_blake3") != blake3(data).hex():
            wrong.append(n)
    check(not wrong, f"BLAKE3 agrees with qshape on payloads of {len(lengths)} lengths, 0 B to 31 KiB "
          f"(wrong: {wrong})")
    v = W.legit[name(W.kv)]
    f = parse_entry(v)
    check(blake3(f["payload"]) == f["payload_hash"], "the payload hash of the team's library entry")
    check(header_bytes(f) == v[:f["header_size"]], "the header checksum of the team's library entry")
    check(f["flags"] == TAGGED and tag_of(f, TEAM) == f["tag"],
          "the team tag (keyed BLAKE3, derived key) of the team's library entry")
    check(tag_of(f, OTHER) != f["tag"], "another key gives another tag")
    # A forged entry of our own, placed in a directory, is an ok entry.
    forged = make_entry(bytes.fromhex(W.kv), KIND_SHARED_LIB, W.evil, W.producer)
    d = fi.fresh(os.path.join(W.work, "blake3-local"))
    os.makedirs(os.path.dirname(fi.entry_path(d, W.kv)), mode=0o700)
    fd = os.open(fi.entry_path(d, W.kv), os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, forged)
    os.close(fd)
    p = fi.tool(d, "show", "blake3:" + W.kv)
    check(p.returncode == 0 and "Status:          ok" in p.stdout
          and "Origin:          made on this machine" in p.stdout,
          f"a forged entry in a directory is shown as ok, made on this machine ({p.stdout.strip()[-400:]})")
    # Not protected, and the proof that the forgery is complete: whoever can
    # write the directory (its owner) chooses what it serves.
    r = victim("blake3-local-run", key=TEAM, directory=d, remote=False)
    check(r.outcome == "hit" and attacker_seen(r),
          f"the owner's own directory is trusted: the forged library is served ({r.outcome})")


def scenario_a():
    S.case = "a forged"
    forged = make_entry(bytes.fromhex(W.kv), KIND_SHARED_LIB, W.evil, W.producer)
    check(intact(forged) and parse_entry(forged)["producer"] == W.producer,
          "a: the forged entry is intact, with the team's producer string")
    attack("a", {name(W.kv): forged}, warning="refused",
           control=("insecure mode, no key", {"key": None, "insecure": True}, True))
    # The key and QSHAPE_CACHE_REMOTE_INSECURE=1 both set: the key wins.
    reset_server()
    W.srv.call("SET", name(W.kv), forged)
    r = victim("a-key-and-insecure", insecure=True)
    defended(r, "a with the key and the insecure mode", "miss", "remote_refused", "refused")


def scenario_b():
    S.case = "b random tag"
    forged = make_entry(bytes.fromhex(W.kv), KIND_SHARED_LIB, W.evil, W.producer,
                        flags=TAGGED, tag=os.urandom(32))
    attack("b", {name(W.kv): forged}, warning="refused",
           control=("insecure mode, no key", {"key": None, "insecure": True}, True))


def scenario_c():
    S.case = "c tag over another payload"
    legit = W.legit[name(W.kv)]
    swapped = rewrite(legit, payload=W.evil, payload_size=len(W.evil), payload_hash=blake3(W.evil))
    f = parse_entry(swapped)
    check(intact(swapped) and f["tag"] == parse_entry(legit)["tag"] and f["flags"] == TAGGED,
          "c: intact, the legitimate tag and flags kept")
    check(not verifies(swapped, TEAM), "c: the tag does not verify over the new payload hash")
    attack("c", {name(W.kv): swapped}, warning="refused",
           control=("insecure mode, no key", {"key": None, "insecure": True}, True))


def scenario_d():
    S.case = "d replay under another key"
    # The whole entry of another program under the victim's name: its
    # header names its own key.
    attack("d-rename", {}, counter="remote_corrupt", renames=[(name(W.ko), name(W.kv))],
           control=("insecure mode: the header's key is checked by every reader",
                    {"key": None, "insecure": True}, False))
    # The header's key rewritten to the victim's, the tag kept: the tag
    # covers the key.
    moved = rewrite(W.legit[name(W.ko)], key=bytes.fromhex(W.kv))
    check(intact(moved) and not verifies(moved, TEAM), "d: rewritten key, intact, tag does not verify")
    attack("d-rekeyed", {name(W.kv): moved},
           control=("insecure mode: the library's own info names the other key",
                    {"key": None, "insecure": True}, False))
    # Another program's source index under the victim's source key.
    attack("d-index", {}, outcome="hit", counter="remote_corrupt",
           renames=[(name(W.so), name(W.sv))])


def scenario_e():
    S.case = "e another team's key"
    theirs = make_entry(bytes.fromhex(W.kv), KIND_SHARED_LIB, W.evil, W.producer, secret=OTHER)
    check(verifies(theirs, OTHER) and not verifies(theirs, TEAM),
          "e: tagged with the attacker's own key, not the team's")
    attack("e-own-key", {name(W.kv): theirs}, warning="refused",
           control=("a holder of that key", {"key": OTHER}, True))
    # An honest entry of another team, made by its own compile.
    reset_server()
    W.srv.call("DEL", name(W.kv))
    o = victim("e-other-team", key=OTHER)
    value = W.srv.call("GET", name(W.kv))
    check(o.outcome == "miss" and value is not None and verifies(value, OTHER),
          "e: another team's machine stored its own entry of the victim's key")
    r = victim("e-honest")
    defended(r, "e-honest", "miss", "remote_refused", "refused")
    repaired("e-honest", W.kv)


def scenario_f():
    S.case = "f truncated"
    legit = W.legit[name(W.kv)]
    size = parse_entry(legit)["header_size"]
    for what, cut in [("half", legit[:len(legit) // 2]), ("one byte short", legit[:-1]),
                      ("header only", legit[:size]), ("half a header", legit[:size // 2])]:
        attack(f"f-{what.replace(' ', '-')}", {name(W.kv): cut}, counter="remote_corrupt",
               control=(f"{what}, insecure mode", {"key": None, "insecure": True}, False))


def poison(label):
    """A machine that fetched the attacker's library in the insecure mode
    (no key, QSHAPE_CACHE_REMOTE_INSECURE=1): its risk, checked."""
    reset_server()
    W.srv.call("SET", name(W.kv), W.forged_untagged)
    r = victim(label, key=None, insecure=True)
    check(r.outcome == "hit" and attacker_seen(r),
          f"{label}: the insecure mode serves the attacker's library from the remote ({r.outcome}): "
          "that mode's risk, and the proof that the checks below can fail")
    again = victim(label + "-again", key=None, insecure=True, directory=r.dir, remote=False)
    check(again.outcome == "hit" and attacker_seen(again),
          f"{label}: and its local copy the next time, without the remote ({again.outcome})")
    s = json.loads(fi.tool(r.dir, "show", "blake3:" + W.kv, "--json",
                           env=env_with(insecure=True)).stdout or "{}")
    check(s.get("status") == "ok" and s.get("origin") == "remote" and s.get("tagged") is False,
          f"{label}: the local copy is marked fetched (origin remote), untagged ({s})")
    return r.dir


def copy_dir(src, label):
    dst = os.path.join(W.work, label)
    fi.force_rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def scenario_g():
    S.case = "g poisoned local copy"
    d = poison("g-poison")
    copies = {k: copy_dir(d, "g-" + k) for k in ("restored", "verify", "dropped", "cleared")}
    # The team sets the key; the forged entry is still on the server.
    r = victim("g-key", directory=d)
    defended(r, "g-key (server still forged)", "miss", "remote_refused")
    s = fi.stats(d)
    check(s.get("remote_refused", 0) >= 2,
          f"g-key: the local copy and the remote entry both refused ({s.get('remote_refused')})")
    # The server holds the team's entry again: the local copy is passed over
    # for it.
    reset_server()
    r = victim("g-restored", directory=copies["restored"])
    defended(r, "g-restored (server legitimate)", "hit", "remote_refused")
    shown = json.loads(fi.tool(copies["restored"], "show", "blake3:" + W.kv, "--json",
                               env=env_with(TEAM)).stdout or "{}")
    check(shown.get("status") == "ok" and shown.get("origin") == "remote" and shown.get("tagged") is True,
          f"g-restored: the local copy is now the team's (fetched, tagged) ({shown})")
    # verify reports the copy, --purge removes it.
    v = copies["verify"]
    p = fi.tool(v, "show", "blake3:" + W.kv, env=env_with(TEAM))
    check(p.returncode == 1 and "Status:          refused: fetched from a remote cache" in p.stdout
          and "Origin:          fetched from a remote cache" in p.stdout,
          f"g: show says refused, fetched from a remote cache ({p.stdout.strip()[-500:]})")
    p = fi.tool(v, "verify", env=env_with(TEAM))
    check(p.returncode == 1 and f"bad entry blake3:{W.kv}: refused: fetched from a remote cache" in p.stdout
          and "1 bad" in p.stdout,
          f"g: verify reports the copy refused and exits 1 ({p.returncode}: {p.stdout.strip()})")
    p = fi.tool(v, "verify", "--purge", env=env_with(TEAM))
    check(p.returncode == 0 and "(removed)" in p.stdout and not os.path.exists(fi.entry_path(v, W.kv)),
          f"g: verify --purge removes it ({p.returncode}: {p.stdout.strip()})")
    p = fi.tool(v, "verify", env=env_with(TEAM))
    check(p.returncode == 0 and " 0 bad" in p.stdout, f"g: a second verify exits 0 ({p.stdout.strip()})")
    r = victim("g-purged", directory=v)
    defended(r, "g-purged (the server holds the team's entry)", "hit")
    # The insecure mode dropped without a key: the remote is off, and what
    # was fetched in that mode (the library, and the team's own index
    # entry) is not served.
    p = fi.tool(copies["dropped"], "verify", env=env_with())
    check(p.returncode == 1 and p.stdout.count("which is not trusted now") == 2 and "2 bad" in p.stdout,
          f"g-dropped: verify without a key reports both fetched entries ({p.stdout.strip()})")
    r = victim("g-dropped", key=None, directory=copies["dropped"])
    defended(r, "g-dropped (no key, no insecure mode)", "miss", "remote_refused")
    # What the fetched flag is worth: the same copy with the flag cleared
    # (what a writer of the directory could do) IS served with the key.
    c = copies["cleared"]
    path = fi.entry_path(c, W.kv)
    data = open(path, "rb").read()
    open(path, "wb").write(rewrite(data, flags=parse_entry(data)["flags"] & ~FETCHED))
    r = victim("g-cleared", directory=c)
    check(r.outcome == "hit" and attacker_seen(r),
          f"g control (fetched flag cleared): the attacker's results ARE seen ({r.outcome}): "
          "the fetched flag is what refuses the copy")


def scenario_rotation():
    S.case = "k key rotation"
    reset_server()
    d = fi.fresh(os.path.join(W.work, "k"))
    r = victim("k-fetch", directory=d)
    check(r.outcome == "hit" and oracle_seen(r), "k: a machine fetches the team's entry")
    r = victim("k-local", directory=d, remote=False)
    check(r.outcome == "hit", "k: then hits its local copy")
    # The team rotates its key; the server is emptied.
    W.srv.call("FLUSHALL")
    r = victim("k-rotated", key=ROTATED, directory=d)
    defended(r, "k-rotated", "miss", "remote_refused")
    value = W.srv.call("GET", name(W.kv))
    check(value is not None and verifies(value, ROTATED), "k: the new entry is tagged with the new key")


def scenario_h():
    S.case = "h keyless remote"
    reset_server()
    W.srv.call("SET", name(W.kv), W.forged_untagged)
    W.srv.call("SET", name(W.sv), W.forged_index)
    W.srv.call("CONFIG", "RESETSTAT")
    r = victim("h", key=None)
    info = W.srv.call("INFO", "stats").decode()
    connections = int(info.split("total_connections_received:")[1].split()[0])
    defended(r, "h", "miss")
    check(connections == 1, f"h: the server was never connected to (connections since the reset, "
          f"the test's INFO included: {connections})")
    check(len(r.warnings) == 1 and "has no team key, so it is not used" in r.warnings[0]
          and "Set QSHAPE_CACHE_REMOTE_KEY" in r.warnings[0],
          f"h: one warning, which says how to set a key ({r.warnings})")
    check(W.srv.call("GET", name(W.kv)) == W.forged_untagged, "h: nothing was written to the server")
    check(fi.stats(r.dir).get("remote_refused", 0) == 0, "h: nothing to refuse: nothing was read")


def scenario_i():
    S.case = "i forged source index"
    check(intact(W.forged_index), "i: the forged index entry is intact")
    attack("i", {name(W.sv): W.forged_index}, outcome="hit", warning="refused",
           control=("insecure mode: the index sends the input to the other program's library",
                    {"key": None, "insecure": True}, True))


def mlir_run(label, key=TEAM, insecure=False, directory=None, remote=True):
    d = directory or fi.fresh(os.path.join(W.work, label))
    env = env_with(key, insecure, W.srv.url() if remote else None)
    r = fi.compile_(W.small, d, env=env)
    r.dir = d
    return r


def scenario_mlir_a():
    S.case = "m-a MLIR forged"
    reset_server()
    W.srv.call("SET", name(W.km), W.mlir_forged)
    r = mlir_run("m-a")
    check(r.rc == 0 and r.out == W.small_ref, "m-a: qshape-opt prints the right module, not the attacker's")
    check(r.kind == "miss" and fi.stats(r.dir).get("remote_refused", 0) >= 1,
          f"m-a: a miss, counted as remote_refused ({r.kind})")
    check(any("refused" in w for w in r.warnings), f"m-a: a warning says refused ({r.warnings})")
    value = W.srv.call("GET", name(W.km))
    check(value is not None and verifies(value, TEAM), "m-a: the victim's store replaced it")
    reset_server()
    W.srv.call("SET", name(W.km), W.mlir_forged)
    c = mlir_run("m-a-control", key=None, insecure=True)
    check(c.rc == 0 and c.kind == "hit" and c.out == W.other_mlir_ref,
          "m-a control (insecure mode): the attacker's module IS installed")


def scenario_mlir_g():
    S.case = "m-g MLIR poisoned local copy"
    reset_server()
    W.srv.call("SET", name(W.km), W.mlir_forged)
    p = mlir_run("m-g", key=None, insecure=True)
    check(p.rc == 0 and p.kind == "hit" and p.remote and p.out == W.other_mlir_ref,
          "m-g: the insecure mode installs the attacker's module (that mode's risk)")
    d = p.dir
    v = copy_dir(d, "m-g-verify")
    r = mlir_run("m-g-key", directory=d)
    check(r.rc == 0 and r.out == W.small_ref, "m-g: with the key, the local copy is not installed")
    check(r.kind == "miss" and fi.stats(d).get("remote_refused", 0) >= 2,
          f"m-g: a miss; the copy and the remote entry refused ({r.kind}, {fi.stats(d).get('remote_refused')})")
    p = fi.tool(v, "verify", env=env_with(TEAM))
    check(p.returncode == 1 and f"bad entry blake3:{W.km}: refused: fetched from a remote cache" in p.stdout,
          f"m-g: verify reports it refused, exit 1 ({p.stdout.strip()})")
    p = fi.tool(v, "verify", "--purge", env=env_with(TEAM))
    check(p.returncode == 0 and not os.path.exists(fi.entry_path(v, W.km)), "m-g: --purge removes it")
    check(fi.tool(v, "verify", env=env_with(TEAM)).returncode == 0, "m-g: a second verify exits 0")


# ---------------------------------------------------------------------------

def setup(args):
    for tool in ("compile", "run", "sim", "cache", "opt"):
        af.TOOLS[tool] = fi.TOOLS[tool] = os.path.join(args.tools, f"qshape-{tool}")
    fi.TOOLS["redis"] = shutil.which("redis-server") or shutil.which("redis-server",
                                                                     path="/usr/sbin:/usr/bin")
    if not fi.TOOLS["redis"]:
        print("attacks: redis-server not on PATH (Debian: redis-server)", file=sys.stderr)
        return False
    W.work = os.path.abspath(args.work)
    fi.force_rmtree(W.work)
    os.makedirs(W.work)
    W.inp = os.path.join(args.src, "test", "Tools", "qshape-compile", "Inputs", "bell.mlir")
    W.ref = subprocess.run([af.TOOLS["sim"], W.inp, "--args", af.ARGS], capture_output=True,
                           text=True, check=True).stdout
    W.attacker_src = os.path.join(W.work, "attacker.mlir")
    open(W.attacker_src, "w").write(open(W.inp).read().replace("math.cos", "math.sin"))
    W.srv = fi.RedisServer(W.work, "team")
    # The team's CI machine compiles both programs, with the key.
    ci = fi.fresh(os.path.join(W.work, "ci"))
    team = env_with(TEAM)
    a = af.compile_(W.inp, ci, os.path.join(W.work, "ci-victim.so"), f"--cache-remote={W.srv.url()}",
                    env=team)
    W.kv = hexkey(a.key or "")
    W.sv = af.by_kind(ci).get("blob", [None])[0]
    o = af.compile_(W.attacker_src, ci, os.path.join(W.work, "ci-other.so"),
                    f"--cache-remote={W.srv.url()}", env=team)
    W.ko = hexkey(o.key or "")
    W.so = [k for k in af.by_kind(ci).get("blob", []) if k != W.sv][0]
    W.legit = {name(k): W.srv.call("GET", name(k)) for k in (W.kv, W.sv, W.ko, W.so)}
    if not check(a.rc == 0 and o.rc == 0 and all(W.legit.values()),
                 "setup: the team's machine stored both programs on the server"):
        return False
    W.producer = parse_entry(W.legit[name(W.kv)])["producer"]
    # The attacker's code: the other program's library, its info patched to
    # name the victim's key (so that it passes every check but the tag).
    other_lib = parse_entry(W.legit[name(W.ko)])["payload"]
    W.evil = other_lib.replace(W.ko.encode(), W.kv.encode())
    evil_path = os.path.join(W.work, "evil.so")
    open(evil_path, "wb").write(W.evil)
    W.attacker_ref = af.results(evil_path)
    check(W.evil != other_lib and W.attacker_ref and not af.same_results(W.attacker_ref, W.ref),
          "setup: the attacker's library runs and its results differ from the oracle's")
    W.forged_untagged = make_entry(bytes.fromhex(W.kv), KIND_SHARED_LIB, W.evil, W.producer)
    index = parse_entry(W.legit[name(W.sv)])
    W.forged_index = make_entry(bytes.fromhex(W.sv), KIND_BLOB,
                                b"qshape-compile-key blake3:" + W.ko.encode() + b"\n",
                                index["producer"])
    # The MLIR cache pass: the team's entry of qpe-h2, and the attacker's
    # module (w1) as bytecode.
    W.small = os.path.join(args.src, "examples", "qpe-h2-native.mlir")
    other = os.path.join(args.src, "examples", "w1-unrolled.mlir")
    W.small_ref, W.other_mlir_ref = fi.reference(W.small), fi.reference(other)
    m = fi.compile_(W.small, fi.fresh(os.path.join(W.work, "ci-mlir")), env=env_with(TEAM, remote=W.srv.url()))
    W.km = m.key
    value = W.srv.call("GET", name(W.km)) if W.km else None
    if not check(m.rc == 0 and value is not None and verifies(value, TEAM),
                 "setup: the team's qshape-opt stored a tagged module"):
        return False
    W.legit[name(W.km)] = value
    bytecode = os.path.join(W.work, "attacker.mlirbc")
    subprocess.run([fi.TOOLS["opt"], other, f"--qshape-cache=mode=off pipeline={fi.PIPE}",
                    "--emit-bytecode", "-o", bytecode], check=True)
    W.mlir_forged = make_entry(bytes.fromhex(W.km), KIND_MLIRBC, open(bytecode, "rb").read(),
                               parse_entry(value)["producer"])
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    for var in REMOTE_VARS:  # every run below says what it uses
        os.environ.pop(var, None)
    start = time.monotonic()
    scenarios = [scenario_blake3, scenario_a, scenario_b, scenario_c, scenario_d, scenario_e,
                 scenario_f, scenario_g, scenario_rotation, scenario_h, scenario_i,
                 scenario_mlir_a, scenario_mlir_g]
    try:
        S.case = "setup"
        try:
            ready = setup(args)
        except Exception as e:
            ready = check(False, f"exception {type(e).__name__}: {e}")
        if not ready:
            scenarios = []
            check(False, "setup failed: no scenario ran")
        for run in scenarios:
            try:
                run()
            except Exception as e:  # a crash of the suite is a failure
                check(False, f"exception {type(e).__name__}: {e}")
    finally:
        fi.stop_servers()
    print(f"attacks: {len(scenarios)} scenarios, {S.passed} checks passed, {len(S.failures)} failed "
          f"in {time.monotonic() - start:.1f} s")
    for f in S.failures:
        print("  FAILED " + f)
    return 1 if S.failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        fi.stop_servers()
