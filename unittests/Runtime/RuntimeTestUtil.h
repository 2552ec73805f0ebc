//===- RuntimeTestUtil.h - Helpers of the runtime ABI tests -----*- C++ -*-===//

#ifndef QSHAPE_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
#define QSHAPE_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H

#include "qshape/Runtime/RuntimeCAPI.h"
#include "qshape/Simulator/Device.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace qshape::runtime::test {

using Complex = std::complex<double>;
constexpr double Tol = 1e-12;

/// Every test runs in a fresh session with the default options and handler.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    qshape_runtime_set_error_handler(nullptr, nullptr);
    qshape_runtime_configure(nullptr);
    __catalyst__rt__initialize(nullptr);
  }
  void TearDown() override {
    __catalyst__rt__finalize();
    qshape_runtime_configure(nullptr);
  }

  /// Options with a seed and shots set (the others default).
  static QShapeRuntimeOptions options(std::uint64_t seed, std::int64_t shots = -1) {
    QShapeRuntimeOptions o;
    qshape_runtime_default_options(&o);
    o.has_seed = true;
    o.seed = seed;
    if (shots >= 0) {
      o.has_shots = true;
      o.shots = static_cast<std::uint64_t>(shots);
    }
    return o;
  }
  /// Restarts the session with `o`.
  static void restart(const QShapeRuntimeOptions &o) {
    __catalyst__rt__finalize();
    qshape_runtime_configure(&o);
    __catalyst__rt__initialize(nullptr);
  }
};

/// The QUBIT* in slot `i` of a register, loaded as compiled code loads it.
inline QUBIT *slot(QirArray *reg, std::int64_t i) {
  return *reinterpret_cast<QUBIT **>(__catalyst__rt__array_get_element_ptr_1d(reg, i));
}

inline QUBIT *qubitOf(int wire) {
  return reinterpret_cast<QUBIT *>(static_cast<QubitIdType>(wire));
}

/// The whole state through __catalyst__qis__State.
inline std::vector<Complex> runtimeState() {
  const std::size_t dim = std::size_t{1} << __catalyst__rt__num_qubits();
  std::vector<CplxT_double> buf(dim);
  MemRefT_CplxT_double_1d out{buf.data(), buf.data(), 0, {dim}, {1}};
  __catalyst__qis__State(&out, 0);
  std::vector<Complex> amps;
  for (const CplxT_double &c : buf)
    amps.emplace_back(c.real, c.imag);
  return amps;
}

inline std::vector<double> runtimeProbs() {
  const std::size_t dim = std::size_t{1} << __catalyst__rt__num_qubits();
  std::vector<double> buf(dim);
  MemRefT_double_1d out{buf.data(), buf.data(), 0, {dim}, {1}};
  __catalyst__qis__Probs(&out, 0);
  return buf;
}

/// A normalized pseudo-random state of `n` qubits.
inline std::vector<Complex> randomAmplitudes(unsigned n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<Complex> amps(std::size_t{1} << n);
  double norm = 0;
  for (Complex &a : amps) {
    a = {normal(rng), normal(rng)};
    norm += std::norm(a);
  }
  for (Complex &a : amps)
    a /= std::sqrt(norm);
  return amps;
}

inline MemRefT_CplxT_double_1d complexMemRef(std::vector<CplxT_double> &buf) {
  return {buf.data(), buf.data(), 0, {buf.size()}, {1}};
}

inline std::vector<CplxT_double> toABI(const std::vector<Complex> &amps) {
  std::vector<CplxT_double> out;
  for (const Complex &a : amps)
    out.push_back({a.real(), a.imag()});
  return out;
}

inline double maxDistance(const std::vector<Complex> &a, const std::vector<Complex> &b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

} // namespace qshape::runtime::test

#endif // QSHAPE_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
