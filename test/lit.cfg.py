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

config.substitutions.append(("%qshape_src", config.qshape_src_root))
config.substitutions.append(("%qshape_libs", config.qshape_lib_dir))
config.substitutions.append(("%qshape_tools", config.qshape_tools_dir))
config.substitutions.append(("%pass_plugin", os.path.join(config.qshape_lib_dir, "QShapePassPlugin.so")))
config.substitutions.append(("%dialect_plugin", os.path.join(config.qshape_lib_dir, "QShapeQuantumDialectPlugin.so")))
config.substitutions.append(("%upstream_mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
# The C compiler of the LLVM qshape builds with (test/Runtime compiles C hosts).
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%workloads", config.python_executable + " " + os.path.join(config.qshape_src_root, "bench", "workloads.py")))
config.substitutions.append(("%randcircuit", config.python_executable + " " + os.path.join(config.qshape_src_root, "bench", "randcircuit.py")))

# The allocator the tools were linked with (CMake option QSHAPE_USE_MIMALLOC).
if config.qshape_tool_allocator == "mimalloc":
    config.available_features.add("tool-mimalloc")

# The Redis cache level (CMake option QSHAPE_ENABLE_REDIS, on by default).
if config.qshape_have_redis:
    config.available_features.add("redis")

# Tests must not see a user's cache directory.
config.environment["QSHAPE_CACHE_DIR"] = os.path.join(config.test_exec_root, "default-cache")
for var in ("XDG_CACHE_HOME", "QSHAPE_CACHE_REMOTE", "QSHAPE_CACHE_REMOTE_KEY",
            "QSHAPE_CACHE_REMOTE_KEY_FILE", "QSHAPE_CACHE_REMOTE_PASSWORD_FILE"):
    config.environment.pop(var, None)
