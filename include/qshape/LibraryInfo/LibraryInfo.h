//===- LibraryInfo.h - what a qshape-compiled library says about itself -*- C++ -*-===//
//
// qshape-compile embeds one JSON document in every shared library it links,
// in an ELF section of its own (kLibraryInfoSection). It says that the file
// is a qshape library, which runtime ABI it calls, how it was compiled, and
// for each entry point its symbol and its argument and result types at the
// tensor level (MLIR type text), which the library's own symbols cannot
// tell: a loader needs them to build the memref descriptors it passes.
//
// The loader (NativeLibrary.h) reads the section from the file before it
// loads the file, so a file that is not a qshape library is refused before
// any of its code (constructors included) runs. docs/native.md documents
// the format; this header is its single definition.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIBRARYINFO_LIBRARYINFO_H
#define QSHAPE_LIBRARYINFO_LIBRARYINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qshape {
/// The symbol of the parameter table of a --share-topology build
/// (memref.global, then an LLVM global; qshape-lift-parameters makes it).
constexpr llvm::StringLiteral kParameterTableSymbol = "__qshape_params";
/// The ELF section that holds that table in a native library: N
/// little-endian doubles, slot order, which a driver writes in place.
constexpr llvm::StringLiteral kParameterTableSection = ".qshape.params";
} // namespace qshape

namespace qshape::native {

/// The ELF section that holds the document (allocated, read-only).
inline constexpr llvm::StringLiteral kLibraryInfoSection = ".qshape.info";
/// Its "format" field.
inline constexpr llvm::StringLiteral kLibraryInfoFormat = "qshape-library";
/// Its "version" field: bumped whenever a field changes meaning, so a loader
/// never misreads a library written by another qshape.
constexpr unsigned kLibraryInfoVersion = 1;

/// One function a host can call.
struct EntryInfo {
  /// The function behind the entry point (`jit_circuit`).
  std::string name;
  /// The function of the input module it runs (`circuit` when the pipeline
  /// made `jit_circuit` for the QNode `circuit`; else `name` itself). Its
  /// signature is the entry's. `--entry` accepts either name.
  std::string source;
  /// `void symbol(void *results, void *args)`: Catalyst's Python-interface
  /// wrapper (`_catalyst_pyface_<name>`), see docs/native.md.
  std::string symbol;
  /// The MLIR C-interface wrapper it calls (`_mlir_ciface_<name>`).
  std::string cInterface;
  /// Argument and result types as MLIR prints them, before bufferization
  /// (`tensor<3xf64>`, `f64`, ...).
  std::vector<std::string> arguments;
  std::vector<std::string> results;
};

struct LibraryInfo {
  /// "qshape <version>".
  std::string producer;
  /// QSHAPE_RUNTIME_ABI_VERSION of the runtime the library's calls follow.
  uint32_t runtimeAbiVersion = 0;
  /// The compile key and the exact fingerprint of the input module
  /// ("blake3:<hex>"), as `qshape-compile -v` prints them.
  std::string key;
  std::string fingerprint;
  /// How it was compiled.
  std::string targetTriple;
  std::string cpu;
  unsigned optLevel = 0;
  bool roll = true;
  /// What `qshape-run` runs without `--entry` (empty: there is a choice).
  std::string defaultEntry;
  std::vector<EntryInfo> entries;

  /// The document, one line of JSON with a fixed field order (so equal
  /// infos give equal bytes).
  std::string toJSON() const;
  /// Parses and checks a document (format, version, every field's type).
  static llvm::Expected<LibraryInfo> fromJSON(llvm::StringRef text);

  /// The entry whose name or source is `name` (with or without '@'); an
  /// empty name selects defaultEntry. The error lists the entries.
  llvm::Expected<const EntryInfo *> findEntry(llvm::StringRef name) const;
};

/// Where a section's contents lie in an ELF file (`size` bytes from
/// `offset`); `inFile` is false for a section with no bytes in the file
/// (SHT_NOBITS).
struct ElfSection {
  uint64_t offset = 0, size = 0;
  bool inFile = true;
};

/// The section `name` of the ELF shared library whose bytes are `bytes`:
/// nullopt if it has none, an error (saying why) if the bytes are not an
/// ELF shared library or the section lies outside them. ELFFile alone, not
/// ObjectFile::createObjectFile, which links every object format's reader
/// (and LLVM IR's) that the cache's front end must not carry.
llvm::Expected<std::optional<ElfSection>> findLibrarySection(llvm::StringRef bytes,
                                                             llvm::StringRef name);

/// Reads the document of the shared library at `path` without loading it.
/// A file that is not ELF, or has no kLibraryInfoSection, is an error that
/// says it is not a qshape-compiled library.
llvm::Expected<LibraryInfo> readLibraryInfo(llvm::StringRef path);
/// The same, of a library's bytes in memory (a cache entry's payload);
/// `name` names them in errors.
llvm::Expected<LibraryInfo> readLibraryInfoFromBytes(llvm::StringRef bytes, llvm::StringRef name);

} // namespace qshape::native

#endif // QSHAPE_LIBRARYINFO_LIBRARYINFO_H
