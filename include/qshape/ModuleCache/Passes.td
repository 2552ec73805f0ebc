//===- Passes.td - qshape's compile-cache passes ----------*- tablegen -*-===//
//
// The passes of the MLIR compile cache (lib/ModuleCache): a whole pipeline
// skipped on a hit (qshape-cache), and its two halves for drivers that run
// their stages themselves (qshape-cache-lookup, qshape-cache-store). Their
// own library, so that the transforms and the conversions do not link the
// cache levels (hiredis).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_MODULECACHE_PASSES
#define QSHAPE_MODULECACHE_PASSES

include "mlir/Pass/PassBase.td"

def QShapeCache : Pass<"qshape-cache", "mlir::ModuleOp"> {
  let summary = "Run a nested pipeline through the persistent compile cache.";
  let description = [{
    Looks the module up in the persistent cache *before* running the nested
    `pipeline`. The key is a BLAKE3 digest of: the key schema version, the
    exact fingerprint of the input module (so SSA names, locations, attribute
    order and the order of independent gates do not matter), the nested
    pipeline as MLIR prints it back after parsing (spacing and default
    options do not matter), qshape's version and the build id of the binary
    that holds this pass, the MLIR/LLVM version and the host library, the
    target triple, and the user's `salt`.

    On a hit, the module's body and attributes are replaced by the cached
    result (MLIR bytecode) and the nested pipeline does not run at all. On a
    miss, the nested pipeline runs (a dynamic pipeline) and its result is
    stored with its compile time. A bad entry (checksum, truncation, foreign
    key) is a miss and is overwritten by the store that follows.

    A miss stores its result only after it verified; a hit's module is then
    not verified again (neither by this pass nor by the pass manager, whose
    verifier costs about as much as loading a lowered module), unless
    `verify-hit` asks for it: then a hit that does not verify is a miss.

    Cache problems never fail the compilation: a read-only or full disk, a
    refused directory, a failed store or a remote server that is down,
    paused or refuses us costs at most one warning per process (per source:
    local, remote) and a counter (`qshape-cache stats`).

    With a remote cache (`remote`, else `$QSHAPE_CACHE_REMOTE`, e.g.
    `redis://cache.example:6379/0`), the local directory is asked first and
    the remote second; a remote hit is copied into the directory (the remark
    says `hit <key> (remote)`), and a miss stores to both. With
    `$QSHAPE_CACHE_REMOTE_KEY` set, remote entries must carry that team
    key's tag.

    ```
    $ qshape-opt --qshape-cache='pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' in.mlir
    in.mlir:2:1: remark: qshape-cache: miss blake3:3f0c...
    $ qshape-opt --qshape-cache='pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' in.mlir
    in.mlir:2:1: remark: qshape-cache: hit blake3:3f0c...
    ```

    Modes: `readwrite` (default), `read` (never store), `write` (never look
    up: recompile and refresh the entry), `off` (just run the pipeline).
    Directory: `dir`, else `$QSHAPE_CACHE_DIR`, else
    `$XDG_CACHE_HOME/qshape`, else `~/.cache/qshape`. See docs/cache.md.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "Nested pass pipeline on the module, e.g. "
           "'func.func(canonicalize,cse),symbol-dce'">,
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Cache directory (default: $QSHAPE_CACHE_DIR, "
           "$XDG_CACHE_HOME/qshape, ~/.cache/qshape)">,
    Option<"remote", "remote", "std::string", /*default=*/"\"\"",
           "Remote cache behind the directory: redis://[USER[:PASSWORD]@]"
           "HOST[:PORT][/DB][?prefix=,read-only,ttl=,timeout=,...] "
           "(default: $QSHAPE_CACHE_REMOTE; 'off': none; see docs/cache.md)">,
    Option<"mode", "mode", "std::string", /*default=*/"\"readwrite\"",
           "readwrite, read (no stores), write (no lookups) or off">,
    Option<"maxSize", "max-size", "std::string", /*default=*/"\"\"",
           "Size cap, e.g. 500M or 2G (default: $QSHAPE_CACHE_MAX_SIZE, "
           "else 2G)">,
    Option<"salt", "salt", "std::string", /*default=*/"\"\"",
           "Extra key input; change it to invalidate every entry">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit 'qshape-cache: hit <key>' / 'miss <key>' remarks">,
    Option<"timing", "timing", "bool", /*default=*/"false",
           "Emit a remark with the time of the key, the lookup (and the "
           "load of a hit), the verification, the pipeline and the store">,
    Option<"verifyHit", "verify-hit", "bool", /*default=*/"false",
           "Run the verifier on a hit's module before installing it (one "
           "that does not verify is a miss). Off: a hit is not verified "
           "again, since a miss verified it before storing it">,
  ];
  let statistics = [
    Statistic<"numHits", "hits", "Lookups that found a valid entry">,
    Statistic<"numMisses", "misses", "Lookups without a valid entry">,
    Statistic<"numCorrupt", "corrupt", "Misses caused by a bad entry">,
    Statistic<"numErrors", "errors",
              "Cache I/O problems (the compilation went on)">,
    Statistic<"numStores", "stores", "Results written to the cache">,
    Statistic<"numUnverifiedHits", "unverified-hits",
              "Hits installed without running the verifier on them">,
  ];
}

def QShapeCacheLookup : Pass<"qshape-cache-lookup", "mlir::ModuleOp"> {
  let summary = "First half of a staged cache: key the input, install a hit.";
  let description = [{
    For drivers that run their lowering as separate pipeline stages
    (Catalyst runs five), where no single pass can wrap the whole lowering.
    Place `qshape-cache-lookup` first in the first stage and
    `qshape-cache-store` last in the last stage.

    The lookup computes the key as `qshape-cache` does (with `pipeline`
    naming the stages the entry stands for, and `salt`) and records it in
    the module attribute `qshape.cache_key`. On a hit it loads the cached
    *final* module, empties the module and marks it `qshape.cache_hit`: the
    passes of the stages in between then find nothing to do (op-anchored
    passes such as `func.func(cse)` do not run at all; module passes run
    once on an empty module), and `qshape-cache-store` installs the cached
    module. With `defer-install=false` the hit is installed at once instead
    and the passes in between run on the already-lowered module (slow, and
    they must leave it unchanged). On a miss, `qshape-cache-store` saves the
    final module under the recorded key. Both attributes are ignored by
    fingerprints and removed before storing. The pair must run in one
    process and one MLIR context (the cached module waits in memory).

    With `native`, a hit skips the host's LLVM too (docs/catalyst.md). On a
    miss, `qshape-cache-store` compiles the lowered module into a shared
    library itself (qshape's LLVM at `opt-level`, an external ld.lld,
    linked against `runtime-lib`) and replaces the module by a small
    forwarding module that carries the library and calls into it
    (qshape/ModuleCache/Forwarding.h); that module is what it stores, so a
    hit hands the host's translation, optimiser and linker a few dozen ops.
    The library's target, linker and runtime are in the key. A module that
    cannot be forwarded (it is not all LLVM dialect by then, or a function
    is variadic) is stored as it is, with a remark.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "The pass pipeline (all stages) the entry stands for; normalized "
           "by parsing it">,
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Cache directory (default: $QSHAPE_CACHE_DIR, "
           "$XDG_CACHE_HOME/qshape, ~/.cache/qshape)">,
    Option<"remote", "remote", "std::string", /*default=*/"\"\"",
           "Remote cache behind the directory: redis://[USER[:PASSWORD]@]"
           "HOST[:PORT][/DB][?prefix=,read-only,ttl=,timeout=,...] "
           "(default: $QSHAPE_CACHE_REMOTE; 'off': none; see docs/cache.md)">,
    Option<"mode", "mode", "std::string", /*default=*/"\"readwrite\"",
           "readwrite, read, write (no lookups, only record the key) or off">,
    Option<"salt", "salt", "std::string", /*default=*/"\"\"",
           "Extra key input; change it to invalidate every entry">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit 'qshape-cache: hit <key>' / 'miss <key>' remarks">,
    Option<"deferInstall", "defer-install", "bool", /*default=*/"true",
           "On a hit, empty the module until qshape-cache-store installs the "
           "cached result (false: install at once; the stages in between then "
           "run on the final module)">,
    Option<"verifyHit", "verify-hit", "bool", /*default=*/"false",
           "Run the verifier on a hit's module when it is loaded (one that "
           "does not verify is a miss). Off: a hit is not verified again, "
           "since the store verified it before storing it">,
    Option<"native", "native", "bool", /*default=*/"false",
           "Cache a shared library and give the host a forwarding module "
           "that runs it: a hit skips the host's LLVM and link as well">,
    Option<"runtimeLib", "runtime-lib", "std::string", /*default=*/"\"\"",
           "With native (required): the runtime the library needs (Catalyst's "
           "librt_capi.so, or qshape's libqshape-runtime.so), found by an rpath">,
    Option<"linker", "linker", "std::string", /*default=*/"\"\"",
           "With native: the ld.lld to link with (default: $QSHAPE_LINKER, "
           "else the one qshape was configured with)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "With native: LLVM's optimisation level for the library (0-3)">,
  ];
  let statistics = [
    Statistic<"numHits", "hits", "Lookups that found a valid entry">,
    Statistic<"numMisses", "misses", "Lookups without a valid entry">,
    Statistic<"numCorrupt", "corrupt", "Misses caused by a bad entry">,
    Statistic<"numErrors", "errors",
              "Cache I/O problems (the compilation went on)">,
  ];
}

def QShapeCacheStore : Pass<"qshape-cache-store", "mlir::ModuleOp"> {
  let summary = "Second half of a staged cache: store the final module.";
  let description = [{
    Runs last in the last stage, after `qshape-cache-lookup`. Removes the
    `qshape.cache_key` and `qshape.cache_hit` attributes; on a hit, installs
    the cached module the lookup loaded (replacing whatever the module holds
    then, and the pass manager does not verify it again: see the lookup's
    `verify-hit`); otherwise verifies it and stores it (MLIR bytecode) under
    the recorded key, with the time since the lookup as its compile time.
    Without a recorded key it warns and does nothing. After a native
    lookup, a miss first compiles the module into a library and replaces it
    by the forwarding module, which it stores. It stores into the cache (directory and remote)
    and with the mode the lookup used in the same process; `dir`, `remote`
    and `mode` given here override them.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Cache directory (default: the lookup's in this process, else "
           "$QSHAPE_CACHE_DIR, $XDG_CACHE_HOME/qshape, ~/.cache/qshape)">,
    Option<"remote", "remote", "std::string", /*default=*/"\"\"",
           "Remote cache (default: the lookup's in this process, else "
           "$QSHAPE_CACHE_REMOTE; 'off': none)">,
    Option<"mode", "mode", "std::string", /*default=*/"\"\"",
           "readwrite, read (no stores), write or off (default: the "
           "lookup's in this process, else readwrite)">,
    Option<"maxSize", "max-size", "std::string", /*default=*/"\"\"",
           "Size cap, e.g. 500M or 2G (default: $QSHAPE_CACHE_MAX_SIZE, "
           "else 2G)">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a 'qshape-cache: stored <key>' remark">,
  ];
  let statistics = [
    Statistic<"numStores", "stores", "Results written to the cache">,
    Statistic<"numErrors", "errors",
              "Cache I/O problems (the compilation went on)">,
    Statistic<"numNative", "native-libraries",
              "Libraries compiled and forwarded to (native mode)">,
    Statistic<"numNotNative", "not-native",
              "Native misses stored as modules (not forwardable, or the "
              "library did not compile)">,
  ];
}

#endif // QSHAPE_MODULECACHE_PASSES
