//===- Diagnostics.cpp - One warning per process for cache problems -------===//

#include "qshape/Cache/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace qshape::cache;

namespace {
struct ProblemState {
  std::mutex mutex;
  WarningHandler handler;
  bool emitted[2] = {false, false}; // by ProblemSource
  uint64_t count = 0;
};

ProblemState &state() {
  // Leaked on purpose: reports can come from static destructors.
  static auto *state = new ProblemState();
  return *state;
}

} // namespace

void qshape::cache::printDefaultWarning(llvm::StringRef message) {
  llvm::errs() << "qshape-cache: warning: " << message
               << " (compilation goes on without the cache where it fails; "
                  "later cache problems of this process are only counted: "
                  "see `qshape-cache stats`)\n";
}

WarningHandler qshape::cache::setWarningHandler(WarningHandler handler) {
  ProblemState &s = state();
  std::scoped_lock<std::mutex> guard(s.mutex);
  std::swap(s.handler, handler);
  return handler;
}

bool qshape::cache::reportProblem(const llvm::Twine &message, ProblemSource source) {
  ProblemState &s = state();
  WarningHandler handler;
  {
    std::scoped_lock<std::mutex> guard(s.mutex);
    ++s.count;
    bool &emitted = s.emitted[source == ProblemSource::Remote];
    if (emitted)
      return false;
    emitted = true;
    handler = s.handler;
  }
  std::string text = message.str();
  if (handler)
    handler(text);
  else
    printDefaultWarning(text);
  return true;
}

uint64_t qshape::cache::problemCount() {
  ProblemState &s = state();
  std::scoped_lock<std::mutex> guard(s.mutex);
  return s.count;
}

void qshape::cache::resetProblemsForTesting() {
  ProblemState &s = state();
  std::scoped_lock<std::mutex> guard(s.mutex);
  s.emitted[0] = s.emitted[1] = false;
  s.count = 0;
}
