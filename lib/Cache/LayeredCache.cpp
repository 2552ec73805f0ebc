//===- LayeredCache.cpp - A local level in front of a remote one ----------===//
//
// Reads go to L1 first, then to L2; a remote hit is copied into L1 with its
// tag and marked fetched (kEntryFlagFetched), so the next process on this
// machine hits locally, as long as the remote would serve it too.
// Stores go to both, with the same header, so a remote entry is exactly the
// file the writer keeps. Each level counts and reports its own problems; the
// remote's counters are persisted in L1's stats file (openCache() wires that).
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"

using namespace qshape::cache;

namespace {
class LayeredCache final : public CacheBackend {
public:
  LayeredCache(std::unique_ptr<CacheBackend> local, std::unique_ptr<CacheBackend> remote)
      : l1(std::move(local)), l2(std::move(remote)) {}

  std::string describe() const override { return l1->describe() + " + " + l2->describe(); }
  bool isEnabled() const override { return l1->isEnabled() || l2->isEnabled(); }
  std::string disabledReason() const override {
    return l1->disabledReason() + "; " + l2->disabledReason();
  }

  LookupResult lookup(const CacheKey &key) override {
    LookupResult local = l1->lookup(key);
    if (local.hit())
      return local;
    LookupResult remote = l2->lookup(key);
    if (!remote.hit()) {
      // A bad local entry says more than a remote miss (the caller counts
      // it as corrupt); otherwise the remote's reason is the news.
      bool localNews = local.status == LookupStatus::Corrupt ||
                       local.status == LookupStatus::Refused ||
                       local.status == LookupStatus::IOError;
      if (localNews || remote.status == LookupStatus::Disabled)
        return local;
      return remote;
    }
    // A failed fill is counted and reported by L1; the hit stands. The
    // copy is marked fetched: L1 serves it only while L2 would.
    if (l1->isEnabled() && remote.entry) {
      EntryHeader copy = remote.entry->header;
      copy.flags |= kEntryFlagFetched;
      (void)l1->storeEntry(copy, remote.entry->payload->getBuffer());
    }
    return remote;
  }

  StoreResult storeEntry(const EntryHeader &header, llvm::StringRef payload) override {
    StoreResult local = l1->storeEntry(header, payload);
    StoreResult remote = l2->storeEntry(header, payload);
    return local.stored() || !remote.stored() ? local : remote;
  }

  const EntryTagKey *tagKey() const override { return l2->tagKey(); }

  KeyLockResult lockKey(const CacheKey &key, std::chrono::milliseconds maxWait) override {
    return l1->lockKey(key, maxWait);
  }
  KeyLockResult adoptKeyLock(const CacheKey &key, int fd) override {
    return l1->adoptKeyLock(key, fd);
  }

  void flushStats() override { l1->flushStats(); }

  CacheStats processStats() const override { return l1->processStats(); }
  llvm::ErrorOr<CacheStats> persistentStats() const override { return l1->persistentStats(); }
  std::vector<std::pair<std::string, std::string>> status() override {
    auto lines = l1->status();
    auto remote = l2->status();
    lines.insert(lines.end(), remote.begin(), remote.end());
    return lines;
  }

  DirectoryMaintenance *maintenance() override { return l1->maintenance(); }
  CacheInventory *inventory() override { return l1->inventory(); }
  CacheBackend *localLevel() override { return l1.get(); }
  CacheBackend *remoteLevel() override { return l2.get(); }

private:
  std::unique_ptr<CacheBackend> l1, l2;
};
} // namespace

std::unique_ptr<CacheBackend>
qshape::cache::makeLayeredCache(std::unique_ptr<CacheBackend> local,
                                std::unique_ptr<CacheBackend> remote) {
  return std::make_unique<LayeredCache>(std::move(local), std::move(remote));
}
