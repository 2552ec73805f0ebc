//===- Devices.cpp - Which device a quantum.device names ------------------===//

#include "Devices.h"

#include "Errors.h"

#include <string>
#include <string_view>

using namespace qshape::runtime;

namespace {

std::string_view textOf(const int8_t *s) {
  return s ? std::string_view(reinterpret_cast<const char *>(s)) : std::string_view();
}

/// The device name Catalyst's runtime gives a short library name
/// (ExecutionContext.hpp, RTDevice::_pl2runtime_device_info): there the name
/// that quantum.device carries is replaced.
std::string_view nameOfShortLibrary(std::string_view lib) {
  if (lib == "null.qubit")
    return "NullQubit";
  if (lib == "lightning.qubit")
    return "LightningSimulator";
  if (lib == "braket.aws.qubit" || lib == "braket.local.qubit")
    return "OpenQasmDevice";
  if (lib == "oqd.qubit")
    return "oqd";
  return {};
}

/// Whether the kwargs (a Python dict as text, "{'track_resources': True}")
/// turn on NullQubit's resource tracking, which writes a file qshape's
/// runtime would not write.
bool tracksResources(std::string_view kwargs) {
  std::size_t at = kwargs.find("track_resources");
  if (at == std::string_view::npos)
    return false;
  std::string_view rest = kwargs.substr(at + std::string_view("track_resources").size());
  std::size_t value = rest.find_first_not_of("'\": ");
  return value != std::string_view::npos && rest.substr(value).substr(0, 4) == "True";
}

constexpr const char *kInstead =
    "run the library on Catalyst's runtime (librt_capi.so) instead (docs/runtime.md, \"Devices\")";

} // namespace

DeviceKind qshape::runtime::resolveDevice(const char *fn, const int8_t *lib, const int8_t *name,
                                          const int8_t *kwargs) {
  std::string_view libText = textOf(lib), nameText = textOf(name);
  if (std::string_view alias = nameOfShortLibrary(libText); !alias.empty())
    nameText = alias;
  // A host making the calls by hand names no device: qshape's own.
  if (nameText == "QShapeSimulator" || (nameText.empty() && libText.empty()))
    return DeviceKind::Simulator;
  // Lightning's kwargs (mcmc, kernel) choose how it samples, not what.
  if (nameText == "LightningSimulator")
    return DeviceKind::Simulator;
  if (nameText == "NullQubit") {
    if (tracksResources(textOf(kwargs)))
      fail(fn, "null.qubit (NullQubit) with track_resources: qshape's runtime does not track "
               "resources; " +
                   std::string(kInstead));
    return DeviceKind::Null;
  }
  fail(fn, "the device '" + std::string(nameText) + "' (library '" + std::string(libText) +
               "') cannot run on qshape's runtime, which runs only lightning.qubit "
               "(LightningSimulator), null.qubit (NullQubit) and its own QShapeSimulator; " +
               kInstead);
}
