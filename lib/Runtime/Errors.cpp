//===- Errors.cpp - How libqshape-runtime.so reports errors ---------------===//

#include "Errors.h"

#include "qshape/Runtime/RuntimeCAPI.h"

#include <cstdio>
#include <cstdlib>

namespace {
QShapeRuntimeErrorHandler errorHandler = nullptr;
void *errorHandlerData = nullptr;

[[noreturn]] void reportAndExit(const char *message) {
  // What the program printed so far comes before the error.
  std::fflush(stdout);
  std::fprintf(stderr, "qshape-runtime: error: %s\n", message);
  std::fflush(stderr);
  std::exit(1);
}
} // namespace

void qshape::runtime::fail(const char *function, const std::string &what) {
  const std::string message = std::string(function) + ": " + what;
  if (errorHandler)
    errorHandler(message.c_str(), errorHandlerData);
  // A handler must not return; if it does, nothing can continue safely.
  reportAndExit(message.c_str());
}

extern "C" void qshape_runtime_set_error_handler(QShapeRuntimeErrorHandler handler,
                                                 void *userData) {
  errorHandler = handler;
  errorHandlerData = handler ? userData : nullptr;
}
