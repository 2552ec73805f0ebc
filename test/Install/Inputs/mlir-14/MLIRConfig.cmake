# Stands for an MLIR of another LLVM major version (what find_package(MLIR)
# would load from /usr/lib/llvm-14/lib/cmake/mlir): only the variables
# QShapeConfig.cmake reads before it refuses.
set(LLVM_VERSION_MAJOR 14)
set(LLVM_PACKAGE_VERSION 14.0.6)
