// qshape workload w2: n_trotter=10 n_est=4 order=2 variant=decomposed hamiltonian=h2 prep=none adjoint_style=negate coeffs=baked geometry=1
module @module_circuit {
  func.func public @circuit() -> tensor<16xf64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
