//===- DeviceTest.cpp - The device shared by qshape-sim and the runtime ---===//
//
// Wire allocation and growth, the seeds of successive states, shots and
// their override, the memory limit, and the measurement procedures that are
// the device's own (shot estimates, state permutation, needing shots).
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/Device.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace qshape::sim;

namespace {

constexpr double Tol = 1e-12;

Status apply(Device &device, GateKind kind, std::vector<double> params, std::vector<int> wires) {
  GateApplication gate;
  gate.kind = kind;
  gate.params = params;
  gate.wires = wires;
  return device.applyGate(gate);
}

TEST(SimulatorDevice, AllocationAppendsWiresAndGrowsTheState) {
  Device device;
  EXPECT_EQ(*device.allocate(2), 0u);
  ASSERT_TRUE(apply(device, GateKind::RY, {0.8}, {1}).succeeded());
  EXPECT_EQ(*device.allocateQubit(), 2u);
  EXPECT_EQ(*device.allocate(1), 3u);
  EXPECT_EQ(device.getNumWires(), 4u);
  // The grown state keeps wire 1's rotation; the new wires are |0>.
  std::vector<double> p = *device.probs({});
  ASSERT_EQ(p.size(), 16u);
  EXPECT_NEAR(p[0b0000], std::cos(0.4) * std::cos(0.4), Tol);
  EXPECT_NEAR(p[0b0100], std::sin(0.4) * std::sin(0.4), Tol);
  EXPECT_TRUE(device.allocate(27).failed());
  EXPECT_EQ(device.allocate(-1).message(),
            "allocating -1 qubits (4 already allocated) exceeds the simulator's 30");
}

/// The k-th state of a session draws from mixSeed(seed, k).
TEST(SimulatorDevice, EachStateHasItsOwnSeed) {
  const std::uint64_t seed = 1234;
  Device device(DeviceOptions{seed, std::nullopt, 0});
  ASSERT_TRUE(device.allocate(1).succeeded());
  StateVector first(1, seed), grown(2, mixSeed(seed, 1)), fresh(1, mixSeed(seed, 2));
  auto draw = [](auto measureOnce) {
    std::string bits;
    for (int k = 0; k < 24; ++k)
      bits += measureOnce() ? '1' : '0';
    return bits;
  };
  auto onDevice = [&](int wire) {
    return draw([&] {
      EXPECT_TRUE(apply(device, GateKind::Hadamard, {}, {wire}).succeeded());
      return *device.measure(wire);
    });
  };
  auto onState = [&](StateVector &sv, int wire) {
    return draw([&] {
      EXPECT_TRUE(sv.applyGate(GateKind::Hadamard, {}, {wire}).succeeded());
      return *sv.measure(wire);
    });
  };
  EXPECT_EQ(onDevice(0), onState(first, 0));
  ASSERT_TRUE(device.allocate(1).succeeded()); // grows: creation 1
  ASSERT_TRUE(grown.setState(*device.state({}), {0, 1}).succeeded());
  EXPECT_EQ(onDevice(1), onState(grown, 1));
  device.release(); // the next state is creation 2
  EXPECT_EQ(device.getNumWires(), 0u);
  ASSERT_TRUE(device.allocate(1).succeeded());
  EXPECT_EQ(onDevice(0), onState(fresh, 0));
  EXPECT_NE(mixSeed(seed, 1), mixSeed(seed, 2));
}

TEST(SimulatorDevice, ShotsAndTheirOverride) {
  Device device;
  EXPECT_TRUE(device.initDevice(100).succeeded());
  EXPECT_EQ(device.getShots(), 100u);
  EXPECT_EQ(device.initDevice(-2).message(), "negative shots -2");
  Device overridden(DeviceOptions{1, 0, 0});
  ASSERT_TRUE(overridden.initDevice(100).succeeded());
  EXPECT_EQ(overridden.getShots(), 0u);
  ASSERT_TRUE(overridden.allocate(1).succeeded());
  EXPECT_EQ(overridden.sample(ArrayView<int>()).message(),
            "'quantum.sample' needs shots (quantum.device shots or --shots)");
  EXPECT_EQ(overridden.counts(Observable::named(NamedObservable::PauliZ, 0)).message(),
            "'quantum.counts' needs shots (quantum.device shots or --shots)");
  device.release();
  EXPECT_EQ(device.getShots(), 0u);
}

TEST(SimulatorDevice, ShotEstimates) {
  Device device(DeviceOptions{7, 4000, 0});
  ASSERT_TRUE(device.allocate(1).succeeded());
  ASSERT_TRUE(apply(device, GateKind::RY, {1.0}, {0}).succeeded());
  const Observable z = Observable::named(NamedObservable::PauliZ, 0);
  const double e = *device.expval(z), v = *device.var(z);
  EXPECT_NE(e, std::cos(1.0));         // estimated...
  EXPECT_NEAR(e, std::cos(1.0), 0.05); // ...from 4000 shots
  // Its own 4000 samples (the stream moved on): near sin^2, not equal.
  EXPECT_NE(v, std::sin(1.0) * std::sin(1.0));
  EXPECT_NEAR(v, std::sin(1.0) * std::sin(1.0), 0.05);
  const std::vector<double> p = *device.probs({});
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-12);
  EXPECT_EQ(p[0] * 4000, std::round(p[0] * 4000)); // counts / shots
  EXPECT_EQ(device.var(Observable::hamiltonian({1.0}, {z})).message(),
            "the variance of a Hamiltonian with shots is not supported");
}

TEST(SimulatorDevice, StateInAnyWireOrderOfAllWires) {
  Device device;
  ASSERT_TRUE(device.allocate(3).succeeded());
  ASSERT_TRUE(apply(device, GateKind::PauliX, {}, {2}).succeeded()); // |001>
  EXPECT_EQ(std::abs((*device.state({}))[0b001]), 1.0);
  EXPECT_EQ(std::abs((*device.state({2, 0, 1}))[0b100]), 1.0);
  EXPECT_EQ(device.state({0, 1}).message(),
            "quantum.state of 2 of the 3 device wires is not supported (it needs all wires)");
}

TEST(SimulatorDevice, MemoryLimit) {
  Device device(DeviceOptions{1, std::nullopt, 4096});
  ASSERT_TRUE(device.allocate(8).succeeded()); // 4 KiB: fits
  ASSERT_TRUE(apply(device, GateKind::Hadamard, {}, {0}).succeeded());
  ASSERT_TRUE(device.allocate(1).succeeded());
  EXPECT_EQ(apply(device, GateKind::Hadamard, {}, {8}).message(),
            "the state of 9 qubits needs 8 KiB (and 4 KiB for the state of 8 qubits "
            "while it grows), more than the 4 KiB of memory the device is allowed");
  EXPECT_GT(getPhysicalMemoryBytes(), 0u);
}

} // namespace
