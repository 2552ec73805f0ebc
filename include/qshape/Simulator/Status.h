//===- Status.h - Error handling for the state-vector simulator -*- C++ -*-===//
//
// The simulator is plain C++17 with no LLVM dependency, so it carries its own
// small equivalents of mlir::LogicalResult / llvm::Expected: every operation
// that can fail on bad input returns a Status (or Expected<T>) carrying a
// human-readable message. Nothing in the simulator aborts or throws on bad
// input.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_STATUS_H
#define QSHAPE_SIMULATOR_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace qshape::sim {

/// Success, or failure with a message.
class [[nodiscard]] Status {
public:
  static Status success() { return {}; }
  static Status error(std::string message) {
    Status status;
    status.isFailure = true;
    status.msg = std::move(message);
    return status;
  }

  bool succeeded() const { return !isFailure; }
  bool failed() const { return isFailure; }
  /// The error message; empty on success.
  const std::string &message() const { return msg; }

private:
  Status() = default;
  bool isFailure = false;
  std::string msg;
};

/// A value of type T, or a failed Status.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : val(std::move(value)), status(Status::success()) {}
  Expected(Status failure) : status(std::move(failure)) {
    assert(status.failed() && "Expected<T> built from a successful Status");
  }

  bool succeeded() const { return val.has_value(); }
  bool failed() const { return !val.has_value(); }
  explicit operator bool() const { return succeeded(); }

  /// The failure (or success, when a value is held).
  const Status &getStatus() const { return status; }
  /// The error message; empty on success.
  const std::string &message() const { return status.message(); }

  T &operator*() {
    assert(val && "dereferencing a failed Expected");
    return *val;
  }
  const T &operator*() const {
    assert(val && "dereferencing a failed Expected");
    return *val;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

private:
  std::optional<T> val;
  Status status;
};

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_STATUS_H
