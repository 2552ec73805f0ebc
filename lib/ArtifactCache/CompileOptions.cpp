//===- CompileOptions.cpp - what a qshape-compile run is asked for --------===//

#include "qshape/ArtifactCache/CompileOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace qshape::compile {

llvm::StringRef getEmitName(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return "mlir";
  case EmitKind::LLVMIR:
    return "llvm";
  case EmitKind::Object:
    return "obj";
  case EmitKind::SharedLibrary:
    return "so";
  }
  return "so";
}

std::string getOutputPathInDirectory(llvm::StringRef dir, llvm::StringRef input, EmitKind kind) {
  llvm::StringRef extension = kind == EmitKind::MLIR     ? ".mlir"
                              : kind == EmitKind::LLVMIR ? ".ll"
                              : kind == EmitKind::Object ? ".o"
                                                         : ".so";
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, llvm::sys::path::stem(input) + extension);
  return path.str().str();
}

llvm::Expected<std::vector<std::string>> getOutputPaths(llvm::ArrayRef<std::string> inputs,
                                                        llvm::StringRef outputFile,
                                                        llvm::StringRef outputDir, EmitKind kind) {
  auto refuse = [](const llvm::Twine &why) { return llvm::createStringError(why); };
  if (outputDir.empty()) {
    if (inputs.size() > 1)
      return refuse(llvm::Twine(inputs.size()) +
                    " inputs need --output-dir=DIR (each input's output is written there, "
                    "named after it); -o names the output of one input");
    return std::vector<std::string>{outputFile.str()};
  }
  if (!outputFile.empty())
    return refuse("-o and --output-dir exclude each other: -o names one input's output, "
                  "--output-dir a directory for each input's");
  std::vector<std::string> outputs;
  llvm::StringSet<> seen;
  for (const std::string &input : inputs) {
    if (input == "-")
      return refuse("--output-dir names outputs after their inputs; stdin ('-') has no name: "
                    "write it to a file, or use -o");
    outputs.push_back(getOutputPathInDirectory(outputDir, input, kind));
    if (!seen.insert(outputs.back()).second)
      return refuse("two inputs would write " + outputs.back() +
                    " (--output-dir names outputs after their inputs' file names): rename one");
    if (llvm::sys::fs::equivalent(input, outputs.back()))
      return refuse("the output of " + input + " would overwrite it: use another --output-dir");
  }
  return outputs;
}

/// The one place that says which MLIR pipeline a compilation runs.
/// --no-roll compiles the program as written: neither the canonical form
/// nor rolling. With --share-topology the module is in canonical form
/// already (its pre-key steps), so the pipeline does not put it there again.
/// (The passes of a pass manager anchored on builtin.module.)
/// --abi=catalyst adds its option only, so the other pipelines' text (and
/// the keys that hold it) stay as they were.
std::string getPipelineSpec(const CompileOptions &options) {
  auto flag = [](bool on) { return on ? "true" : "false"; };
  std::string abi = options.abi == ABI::Catalyst ? " generic-alloc-functions=true" : "";
  return std::string("qshape-lower-to-llvm{canonicalize=") +
         flag(options.roll && !options.shareTopology) + " roll=" + flag(options.roll) + abi + "}";
}

std::optional<ABI> parseABI(llvm::StringRef name) {
  if (name == "qshape")
    return ABI::QShape;
  if (name == "catalyst")
    return ABI::Catalyst;
  return std::nullopt;
}

llvm::Expected<std::string> resolveRuntimeLib(llvm::StringRef path) {
  llvm::SmallString<256> absolute;
  if (llvm::sys::fs::real_path(path, absolute) || !llvm::sys::fs::is_regular_file(absolute))
    return llvm::createStringError("--runtime-lib=" + path +
                                   " names no file: give the path of a runtime library, e.g. "
                                   "Catalyst's librt_capi.so or qshape's libqshape-runtime.so");
  return absolute.str().str();
}

} // namespace qshape::compile
