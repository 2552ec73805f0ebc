//===- ReplayMain.cpp - run fuzz targets without libFuzzer ----------------===//
//
// Builds without QSHAPE_ENABLE_FUZZERS link the targets with this main: it
// runs LLVMFuzzerTestOneInput once on each file named (directories: each
// file in them), like a libFuzzer binary given files, so `make check`
// replays the regression inputs of test/Fuzz on the ordinary build.
//
//   -mutate=N -mutate-out=DIR   apply the target's custom mutator N times to
//                               each input, run each mutant, and write the
//                               changed ones to DIR (tests of the mutator)
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern "C" {
/// Without libFuzzer there are no byte mutations: a custom mutator's
/// fallback leaves the input as it is.
size_t LLVMFuzzerMutate(uint8_t *, size_t size, size_t) { return size; }
__attribute__((weak)) size_t LLVMFuzzerCustomMutator(uint8_t *, size_t, size_t, unsigned);
}

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  unsigned mutations = 0;
  std::string mutateOut = qshape::fuzz::takeFlag(&argc, &argv, "mutate-out");
  std::string mutate = qshape::fuzz::takeFlag(&argc, &argv, "mutate");
  if (!mutate.empty() &&
      (llvm::StringRef(mutate).getAsInteger(10, mutations) || !LLVMFuzzerCustomMutator)) {
    llvm::errs() << argv[0] << ": -mutate=N needs a number and a target with a custom mutator\n";
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.starts_with("-")) // libFuzzer flags (e.g. -runs=1) mean nothing here
      continue;
    if (!llvm::sys::fs::is_directory(arg)) {
      files.push_back(arg.str());
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(arg, ec), end; it != end && !ec; it.increment(ec))
      if (!llvm::sys::fs::is_directory(it->path()))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  unsigned changed = 0;
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer) {
      llvm::errs() << argv[0] << ": cannot read " << file << ": " << buffer.getError().message()
                   << "\n";
      return 2;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    llvm::errs() << "Running: " << file << "\n";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    for (unsigned seed = 1; seed <= mutations; ++seed) {
      std::string data = bytes.str();
      data.resize(std::max<size_t>(4 * bytes.size(), 4096));
      size_t n = LLVMFuzzerCustomMutator(reinterpret_cast<uint8_t *>(data.data()), bytes.size(),
                                         data.size(), seed);
      data.resize(n);
      if (data == bytes)
        continue;
      ++changed;
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()), data.size());
      if (!mutateOut.empty()) {
        std::string out = (llvm::Twine(mutateOut) + "/" + llvm::sys::path::stem(file) + "-" +
                           llvm::Twine(seed) + ".mlir")
                              .str();
        std::error_code ec;
        llvm::raw_fd_ostream os(out, ec);
        if (ec) {
          llvm::errs() << argv[0] << ": cannot write " << out << ": " << ec.message() << "\n";
          return 2;
        }
        os << data;
      }
    }
  }
  llvm::errs() << "Executed " << files.size() << " inputs";
  if (mutations)
    llvm::errs() << " and " << changed << " changed mutants of them";
  llvm::errs() << "\n";
  return 0;
}
