//===- Diagnostics.cpp - One warning per process for cache problems -------===//

#include "qshape/Cache/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace qshape::cache;

namespace {
struct ProblemState {
  std::mutex Mutex;
  WarningHandler Handler;
  bool Emitted[2] = {false, false}; // by ProblemSource
  uint64_t Count = 0;
};

ProblemState &state() {
  // Leaked on purpose: reports can come from static destructors.
  static ProblemState *State = new ProblemState();
  return *State;
}

} // namespace

void qshape::cache::printDefaultWarning(llvm::StringRef Message) {
  llvm::errs() << "qshape-cache: warning: " << Message
               << " (compilation goes on without the cache where it fails; "
                  "later cache problems of this process are only counted: "
                  "see `qshape-cache stats`)\n";
}

WarningHandler qshape::cache::setWarningHandler(WarningHandler Handler) {
  ProblemState &S = state();
  std::lock_guard<std::mutex> Guard(S.Mutex);
  std::swap(S.Handler, Handler);
  return Handler;
}

bool qshape::cache::reportProblem(const llvm::Twine &Message, ProblemSource Source) {
  ProblemState &S = state();
  WarningHandler Handler;
  {
    std::lock_guard<std::mutex> Guard(S.Mutex);
    ++S.Count;
    bool &Emitted = S.Emitted[Source == ProblemSource::Remote];
    if (Emitted)
      return false;
    Emitted = true;
    Handler = S.Handler;
  }
  std::string Text = Message.str();
  if (Handler)
    Handler(Text);
  else
    printDefaultWarning(Text);
  return true;
}

uint64_t qshape::cache::problemCount() {
  ProblemState &S = state();
  std::lock_guard<std::mutex> Guard(S.Mutex);
  return S.Count;
}

void qshape::cache::resetProblemsForTesting() {
  ProblemState &S = state();
  std::lock_guard<std::mutex> Guard(S.Mutex);
  S.Emitted[0] = S.Emitted[1] = false;
  S.Count = 0;
}
