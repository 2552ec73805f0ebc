//===- Kernels.h - In-place state-vector kernels (private) ------*- C++ -*-===//
//
// The loops that update amplitudes. A gate on k target wires with c controls
// is applied by enumerating the 2^(n-k-c) "base" indices that have every
// target bit 0 and every control bit at its control value (IndexSpace), and
// updating the 2^k amplitudes base + offsets[j] of each block. Controls are
// therefore free: they only shrink the enumeration.
//
// Bit positions, not wires: wire w of an n-qubit register is bit n-1-w.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_SIMULATOR_KERNELS_H
#define QSHAPE_LIB_SIMULATOR_KERNELS_H

#include <array>
#include <cassert>
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>

namespace qshape::sim::detail {

using Complex = std::complex<double>;

/// Complex product without the NaN/Inf recovery of the C99 Annex G rules
/// that std::complex's operator* implements (a library call under GCC).
inline Complex mul(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

inline bool isZero(Complex c) { return c.real() == 0.0 && c.imag() == 0.0; }
inline bool isOne(Complex c) { return c.real() == 1.0 && c.imag() == 0.0; }

inline unsigned parity(std::uint64_t x) { return static_cast<unsigned>(__builtin_parityll(x)); }
inline unsigned popcount(std::uint64_t x) { return static_cast<unsigned>(__builtin_popcountll(x)); }

/// i^k for integer k.
inline Complex powerOfI(unsigned k) {
  switch (k & 3U) {
  case 0:
    return {1.0, 0.0};
  case 1:
    return {0.0, 1.0};
  case 2:
    return {-1.0, 0.0};
  default:
    return {0.0, -1.0};
  }
}

/// Enumerates the indices of an n-bit space whose `fixed` bit positions hold
/// fixed values: the k-th index is k with a zero inserted at every fixed
/// position (ascending), OR the fixed values.
class IndexSpace {
public:
  static constexpr unsigned kMaxFixed = 64;

  IndexSpace(unsigned numBits, const unsigned *positions, unsigned numFixed,
             std::uint64_t fixedValues)
      : numFixed(numFixed), values(fixedValues), count(std::uint64_t{1} << (numBits - numFixed)) {
    assert(numFixed <= numBits && numFixed <= kMaxFixed);
    // Insertion sort of the (few) positions, ascending.
    std::array<unsigned, kMaxFixed> sorted{};
    for (unsigned i = 0; i < numFixed; ++i) {
      unsigned j = i;
      for (; j > 0 && sorted[j - 1] > positions[i]; --j)
        sorted[j] = sorted[j - 1];
      sorted[j] = positions[i];
    }
    for (unsigned i = 0; i < numFixed; ++i)
      lowMasks[i] = (std::uint64_t{1} << sorted[i]) - 1;
  }

  std::uint64_t size() const { return count; }

  std::uint64_t operator[](std::uint64_t k) const {
    for (unsigned j = 0; j < numFixed; ++j) {
      const std::uint64_t low = lowMasks[j];
      k = ((k & ~low) << 1) | (k & low);
    }
    return k | values;
  }

private:
  std::array<std::uint64_t, kMaxFixed> lowMasks{};
  unsigned numFixed;
  std::uint64_t values;
  std::uint64_t count;
};

/// Collects the fixed bits of a gate application: target bits (fixed to 0,
/// the kernels add offsets) and control bits (fixed to their control value).
struct FixedBits {
  std::array<unsigned, IndexSpace::kMaxFixed> positions{};
  unsigned count = 0;
  std::uint64_t values = 0;

  void add(unsigned position, bool value) {
    assert(count < IndexSpace::kMaxFixed);
    positions[count++] = position;
    if (value)
      values |= std::uint64_t{1} << position;
  }
  IndexSpace space(unsigned numBits) const { return {numBits, positions.data(), count, values}; }
};

/// The bit of wire `wire` in an n-qubit register (wire 0 is the MSB).
inline unsigned wireToBit(unsigned numQubits, int wire) {
  return numQubits - 1 - static_cast<unsigned>(wire);
}

/// The index offset of sub-index `sub` over target bit positions `bits`
/// (bits[0] the most significant bit of `sub`).
inline std::uint64_t subIndexOffset(std::uint64_t sub, const unsigned *bits, unsigned numBits) {
  std::uint64_t offset = 0;
  for (unsigned t = 0; t < numBits; ++t)
    if ((sub >> (numBits - 1 - t)) & 1U)
      offset |= std::uint64_t{1} << bits[t];
  return offset;
}

/// Row-major 2x2 matrix `m` on the target bit `targetBit`.
inline void applyMatrix1(Complex *amps, const IndexSpace &space, std::uint64_t targetBit,
                         const Complex *m) {
  const std::uint64_t n = space.size();
  if (isZero(m[0]) && isOne(m[1]) && isOne(m[2]) && isZero(m[3])) {
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t i0 = space[k];
      std::swap(amps[i0], amps[i0 | targetBit]);
    }
    return;
  }
  if (isZero(m[1]) && isZero(m[2])) {
    const Complex d0 = m[0], d1 = m[3];
    const bool touch0 = !isOne(d0);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t i0 = space[k];
      if (touch0)
        amps[i0] = mul(d0, amps[i0]);
      amps[i0 | targetBit] = mul(d1, amps[i0 | targetBit]);
    }
    return;
  }
  const Complex m00 = m[0], m01 = m[1], m10 = m[2], m11 = m[3];
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t i0 = space[k];
    const std::uint64_t i1 = i0 | targetBit;
    const Complex v0 = amps[i0], v1 = amps[i1];
    amps[i0] = mul(m00, v0) + mul(m01, v1);
    amps[i1] = mul(m10, v0) + mul(m11, v1);
  }
}

/// Row-major dim x dim matrix `m` (or its conjugate transpose if Adjoint) on
/// the blocks base + offsets[0..dim). `scratch` holds dim amplitudes.
template <bool Adjoint>
void applyMatrixK(Complex *amps, const IndexSpace &space, const std::uint64_t *offsets,
                  std::uint64_t dim, const Complex *m, Complex *scratch) {
  const std::uint64_t n = space.size();
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t base = space[k];
    for (std::uint64_t c = 0; c < dim; ++c)
      scratch[c] = amps[base | offsets[c]];
    for (std::uint64_t r = 0; r < dim; ++r) {
      Complex acc{0.0, 0.0};
      for (std::uint64_t c = 0; c < dim; ++c) {
        const Complex mrc = Adjoint ? std::conj(m[c * dim + r]) : m[r * dim + c];
        acc += mul(mrc, scratch[c]);
      }
      amps[base | offsets[r]] = acc;
    }
  }
}

/// diag(d[0..dim)) on the blocks base + offsets[j]; entries equal to 1 are
/// skipped.
inline void applyDiagonal(Complex *amps, const IndexSpace &space, const std::uint64_t *offsets,
                          unsigned dim, const Complex *d) {
  std::array<unsigned, 16> active{};
  unsigned numActive = 0;
  assert(dim <= 16);
  for (unsigned j = 0; j < dim; ++j)
    if (!isOne(d[j]))
      active[numActive++] = j;
  if (numActive == 0)
    return;
  const std::uint64_t n = space.size();
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t base = space[k];
    for (unsigned a = 0; a < numActive; ++a) {
      const unsigned j = active[a];
      amps[base | offsets[j]] = mul(d[j], amps[base | offsets[j]]);
    }
  }
}

/// Row-major 2x2 matrix `m` on the pair of amplitudes (base + offsetA,
/// base + offsetB) of every block, identity elsewhere.
inline void applyTwoLevel(Complex *amps, const IndexSpace &space, std::uint64_t offsetA,
                          std::uint64_t offsetB, const Complex *m) {
  const std::uint64_t n = space.size();
  if (isZero(m[0]) && isOne(m[1]) && isOne(m[2]) && isZero(m[3])) {
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t base = space[k];
      std::swap(amps[base | offsetA], amps[base | offsetB]);
    }
    return;
  }
  const Complex m00 = m[0], m01 = m[1], m10 = m[2], m11 = m[3];
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t base = space[k];
    const std::uint64_t ia = base | offsetA, ib = base | offsetB;
    const Complex va = amps[ia], vb = amps[ib];
    amps[ia] = mul(m00, va) + mul(m01, vb);
    amps[ib] = mul(m10, va) + mul(m11, vb);
  }
}

/// Multiplies each enumerated amplitude by `even` or `odd` according to the
/// parity of its bits in `mask` (MultiRZ, IsingZZ-like phases).
inline void applyParityPhase(Complex *amps, const IndexSpace &space, std::uint64_t mask,
                             Complex even, Complex odd) {
  const std::uint64_t n = space.size();
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t i = space[k];
    amps[i] = mul(parity(i & mask) ? odd : even, amps[i]);
  }
}

/// Multiplies each enumerated amplitude by `inside` when the sub-index formed
/// by its bits at `positions` (positions[0] most significant) is below
/// `threshold`, by `outside` otherwise (PCPhase).
inline void applyThresholdPhase(Complex *amps, const IndexSpace &space, const unsigned *positions,
                                unsigned numPositions, std::uint64_t threshold, Complex inside,
                                Complex outside) {
  const std::uint64_t n = space.size();
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t i = space[k];
    std::uint64_t sub = 0;
    for (unsigned t = 0; t < numPositions; ++t)
      sub = (sub << 1) | ((i >> positions[t]) & 1U);
    amps[i] = mul(sub < threshold ? inside : outside, amps[i]);
  }
}

/// exp(-i theta/2 P) for the Pauli string P with X/Y bits `flipMask` (X or Y
/// letters), `yMask` and `zMask` (Y or Z letters), on the enumerated indices.
/// P|x> = i^{#Y} (-1)^{|x & (yMask|zMask)|} |x ^ flipMask>.
/// When flipMask != 0, `space` must also fix its `pivotBit` (a bit of
/// flipMask) to 0 so each pair (x, x ^ flipMask) is visited once.
inline void applyPauliRotation(Complex *amps, const IndexSpace &space, std::uint64_t flipMask,
                               std::uint64_t yMask, std::uint64_t zMask, double theta) {
  const double c = std::cos(theta / 2), s = std::sin(theta / 2);
  const std::uint64_t signMask = yMask | zMask;
  const std::uint64_t n = space.size();
  if (flipMask == 0) {
    // Diagonal: c - i s (-1)^{parity}.
    const Complex even{c, -s}, odd{c, s};
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t i = space[k];
      amps[i] = mul(parity(i & signMask) ? odd : even, amps[i]);
    }
    return;
  }
  // -i s * i^{#Y}, then a sign per basis state.
  const Complex coupling = mul(Complex{0.0, -s}, powerOfI(popcount(yMask)));
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t x = space[k];
    const std::uint64_t y = x ^ flipMask;
    const Complex ax = amps[x], ay = amps[y];
    const Complex phx = parity(x & signMask) ? -coupling : coupling;
    const Complex phy = parity(y & signMask) ? -coupling : coupling;
    amps[x] = c * ax + mul(phy, ay);
    amps[y] = c * ay + mul(phx, ax);
  }
}

} // namespace qshape::sim::detail

#endif // QSHAPE_LIB_SIMULATOR_KERNELS_H
