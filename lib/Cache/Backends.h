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
llvm::Error configError(const llvm::Twine &message);
/// How a remote cache URL is written, for error messages.
extern const char *const kRemoteSyntax;

/// The units of parseDurationMs() and formatDuration(), in milliseconds.
constexpr uint64_t kMsPerSecond = 1000;
constexpr uint64_t kMsPerMinute = 60 * kMsPerSecond;
constexpr uint64_t kMsPerHour = 60 * kMsPerMinute;
constexpr uint64_t kMsPerDay = 24 * kMsPerHour;

#if QSHAPE_HAVE_HIREDIS
/// RedisCache.cpp. Never fails: a server that cannot be reached fails
/// softly, operation by operation.
std::unique_ptr<CacheBackend> createRedisCache(RemoteOptions options, CounterSink sink);
#endif

} // namespace qshape::cache

#endif // QSHAPE_LIB_CACHE_BACKENDS_H
