# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "qshape"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.qshape_obj_root, "test")

llvm_config.use_default_substitutions()
# Tools under test come from the build; FileCheck, not, count and Debian's
# upstream mlir-opt from LLVM's tools directory.
llvm_config.with_environment("PATH", config.qshape_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The fuzz targets (fuzz/), which replay the regression inputs of test/Fuzz.
llvm_config.with_environment("PATH", os.path.join(config.qshape_obj_root, "fuzz", "bin"), append_path=True)

config.substitutions.append(("%qshape_src", config.qshape_src_root))
# Tests that make device nodes (mknod) need root, as CI and sessions are.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
config.substitutions.append(("%qshape_libs", config.qshape_lib_dir))
config.substitutions.append(("%qshape_tools", config.qshape_tools_dir))
config.substitutions.append(("%pass_plugin", os.path.join(config.qshape_lib_dir, "QShapePassPlugin.so")))
config.substitutions.append(("%dialect_plugin", os.path.join(config.qshape_lib_dir, "QShapeQuantumDialectPlugin.so")))
upstream_mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
# The C compiler of the LLVM qshape builds with (test/Runtime compiles C hosts).
clang = os.path.join(config.llvm_tools_dir, "clang")

# The fuzz targets link libFuzzer (build-sanitize) or fuzz/ReplayMain.cpp.
if config.qshape_libfuzzer.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("libfuzzer")

# Sanitizer builds (make check-sanitize): a report aborts the process, so a
# test that expects a tool to fail (`not tool`) still fails on one; hosts that
# load qshape's instrumented libraries get the sanitizer runtime: C hosts are
# compiled with the same -fsanitize flags, Debian's mlir-opt preloads it
# (without leak checks: mlir-opt itself is not instrumented).
if "Address" in config.qshape_sanitizer:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = "abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:abort_on_error=1"
    import subprocess
    runtime = subprocess.run([clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                             capture_output=True, text=True).stdout.strip()
    upstream_mlir_opt = (f"env LD_PRELOAD={runtime} ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 "
                         + upstream_mlir_opt)
    clang += " -fsanitize=address,undefined"
config.substitutions.append(("%upstream_mlir_opt", upstream_mlir_opt))
config.substitutions.append(("%clang", clang))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%workloads", config.python_executable + " " + os.path.join(config.qshape_src_root, "utils", "gen", "workloads.py")))
config.substitutions.append(("%randcircuit", config.python_executable + " " + os.path.join(config.qshape_src_root, "utils", "gen", "randcircuit.py")))

# The allocator the tools were linked with (CMake option QSHAPE_USE_MIMALLOC).
if config.qshape_tool_allocator == "mimalloc":
    config.available_features.add("tool-mimalloc")

# qshape-compile and its compiler linked against MLIR/LLVM's archives
# (QSHAPE_STATIC_COMPILER; sanitizer builds link the shared libraries).
if config.qshape_compiler_linkage == "static":
    config.available_features.add("static-compiler")

# The Redis cache level (CMake option QSHAPE_ENABLE_REDIS, on by default).
if config.qshape_have_redis:
    config.available_features.add("redis")

# Tests must not see a user's cache directory.
config.environment["QSHAPE_CACHE_DIR"] = os.path.join(config.test_exec_root, "default-cache")
for var in ("XDG_CACHE_HOME", "QSHAPE_CACHE_REMOTE", "QSHAPE_CACHE_REMOTE_KEY",
            "QSHAPE_CACHE_REMOTE_KEY_FILE", "QSHAPE_CACHE_REMOTE_PASSWORD_FILE",
            "QSHAPE_CACHE_REMOTE_INSECURE"):
    config.environment.pop(var, None)
