//===- AccessMode.h - How a cache may be used -------------------*- C++ -*-===//
//
// One answer for every consumer: the MLIR cache passes' `mode=` option and
// qshape-compile's --cache both read and write these names.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_ACCESSMODE_H
#define QSHAPE_CACHE_ACCESSMODE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace qshape::cache {

enum class AccessMode { Off, Read, Write, ReadWrite };

/// "off", "read", "write", "readwrite"; nullopt for anything else.
std::optional<AccessMode> parseAccessMode(llvm::StringRef text);
llvm::StringRef getAccessModeName(AccessMode mode);
/// Whether lookups, and stores, are made.
inline bool reads(AccessMode m) { return m == AccessMode::Read || m == AccessMode::ReadWrite; }
inline bool writes(AccessMode m) { return m == AccessMode::Write || m == AccessMode::ReadWrite; }

} // namespace qshape::cache

#endif // QSHAPE_CACHE_ACCESSMODE_H
