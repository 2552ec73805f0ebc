//===- ParameterTable.h - the values of a shared-topology library -*- C++ -*-===//
//
// qshape-compile --share-topology compiles the lifted module
// (qshape-lift-parameters{abstract-values}), whose table `__qshape_params`
// the native build puts in the ELF section `.qshape.params` initialised to
// NaN. The program's own values are then written into that section of the
// output file, so one compiled library (the same bytes for every program of
// the topology, cacheable as one artifact) runs each program's values, and
// the output is one self-contained file any loader can use. A library left
// unpatched fails at its first gate ("non-finite parameter").
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_PARAMETERTABLE_H
#define QSHAPE_ARTIFACTCACHE_PARAMETERTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace qshape::compile {

/// Overwrites the `.qshape.params` section of the ELF file (shared library
/// or object) at `path` with `values` (host byte order), in place, and reads
/// them back. The section must hold exactly values.size() doubles. A file
/// with other hard links (a cache entry linked to OUT) is copied to an inode
/// of its own first, so no other name sees the write.
llvm::Error writeParameterTable(llvm::StringRef path, llvm::ArrayRef<double> values);

/// The same, in a library's bytes in memory (a cache entry's payload,
/// before it is written out); `name` names them in errors.
llvm::Error writeParameterTable(llvm::MutableArrayRef<char> library, llvm::StringRef name,
                                llvm::ArrayRef<double> values);

/// The doubles of the `.qshape.params` section; empty if there is none.
llvm::Expected<std::vector<double>> readParameterTable(llvm::StringRef path);

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_PARAMETERTABLE_H
