//===- sim_bench.cpp - State-vector simulator throughput ------------------===//
//
// qshape-sim-bench [qubits=20] [layers=10]
//
// Runs `layers` layers of RX and RY on every wire followed by a CNOT ladder
// (w, w+1), through the same name-based applyGate entry point the MLIR
// interpreter uses, and prints one line: gates applied, wall time and
// amplitude updates per second (each gate counted as touching all 2^n
// amplitudes).
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/StateVector.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace qshape::sim;

int main(int argc, char **argv) {
  const unsigned numQubits = argc > 1 ? std::atoi(argv[1]) : 20;
  const int layers = argc > 2 ? std::atoi(argv[2]) : 10;
  Expected<StateVector> created = StateVector::create(numQubits);
  if (created.failed() || numQubits < 2 || layers < 1) {
    std::fprintf(stderr, "usage: qshape-sim-bench [qubits 2..%u] [layers>0]\n",
                 StateVector::kMaxQubits);
    return 1;
  }
  StateVector &sv = *created;
  const int n = static_cast<int>(numQubits);

  std::uint64_t gates = 0;
  auto check = [&](Status status) {
    if (status.failed()) {
      std::fprintf(stderr, "qshape-sim-bench: %s\n", status.message().c_str());
      std::exit(1);
    }
    ++gates;
  };

  const auto start = std::chrono::steady_clock::now();
  for (int layer = 0; layer < layers; ++layer) {
    for (int w = 0; w < n; ++w)
      check(sv.applyGate("RX", {0.1 * (layer + 1) + 0.01 * w}, {w}));
    for (int w = 0; w < n; ++w)
      check(sv.applyGate("RY", {0.2 * (layer + 1) - 0.03 * w}, {w}));
    for (int w = 0; w + 1 < n; ++w)
      check(sv.applyGate("CNOT", {}, {w, w + 1}));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const double updates = double(gates) * double(sv.getDimension());
  std::printf("qshape-sim-bench: %u qubits, %d layers, %llu gates in %.3f s: "
              "%.1f M amplitude-updates/s (norm %.12f)\n",
              numQubits, layers, static_cast<unsigned long long>(gates), seconds,
              updates / seconds / 1e6, sv.getNormSquared());
  return 0;
}
