//===- Backends.h - Constructors behind openCacheBackend() ------*- C++ -*-===//
//
// Private to lib/Cache: the levels that only openCacheBackend() builds.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_CACHE_BACKENDS_H
#define QSHAPE_LIB_CACHE_BACKENDS_H

#include "qshape/Cache/CacheBackend.h"

#include <memory>

namespace qshape::cache {

/// A configuration error of a cache URL or of the environment
/// (RemoteOptions.cpp), for openCacheBackend() as well.
llvm::Error configError(const llvm::Twine &Message);
/// How a remote cache URL is written, for error messages.
extern const char *const RemoteSyntax;

#if QSHAPE_HAVE_HIREDIS
/// RedisCache.cpp. Never fails: a server that cannot be reached fails
/// softly, operation by operation.
std::unique_ptr<CacheBackend> createRedisCache(RemoteOptions Options, CounterSink Sink);
#endif

} // namespace qshape::cache

#endif // QSHAPE_LIB_CACHE_BACKENDS_H
