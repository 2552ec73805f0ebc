//===- Errors.h - How libqshape-runtime.so reports errors -------*- C++ -*-===//
//
// Every run-time error goes through fail(): the host's handler (see
// qshape_runtime_set_error_handler in RuntimeCAPI.h), else the default one,
// which prints "qshape-runtime: error: <function>: <what>" and exits 1.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_RUNTIME_ERRORS_H
#define QSHAPE_LIB_RUNTIME_ERRORS_H

#include <new>
#include <string>

namespace qshape::runtime {

/// Reports "<function>: <what>" and never returns.
[[noreturn]] void fail(const char *function, const std::string &what);

/// Runs `body`; running out of memory in it is an error of `function`, never
/// an exception escaping into compiled code. Errors of the handler pass.
template <typename F> auto guarded(const char *function, F &&body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    fail(function, "out of memory");
  }
}

} // namespace qshape::runtime

#endif // QSHAPE_LIB_RUNTIME_ERRORS_H
