//===- LayeredCache.cpp - A local level in front of a remote one ----------===//
//
// Reads go to L1 first, then to L2; a remote hit is copied into L1 with its
// tag and marked fetched (EntryFlagFetched), so the next process on this
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
  LayeredCache(std::unique_ptr<CacheBackend> Local, std::unique_ptr<CacheBackend> Remote)
      : L1(std::move(Local)), L2(std::move(Remote)) {}

  std::string describe() const override { return L1->describe() + " + " + L2->describe(); }
  bool isEnabled() const override { return L1->isEnabled() || L2->isEnabled(); }
  std::string disabledReason() const override {
    return L1->disabledReason() + "; " + L2->disabledReason();
  }

  LookupResult lookup(const CacheKey &Key) override {
    LookupResult Local = L1->lookup(Key);
    if (Local.hit())
      return Local;
    LookupResult Remote = L2->lookup(Key);
    if (!Remote.hit()) {
      // A bad local entry says more than a remote miss (the caller counts
      // it as corrupt); otherwise the remote's reason is the news.
      bool LocalNews = Local.Status == LookupStatus::Corrupt ||
                       Local.Status == LookupStatus::Refused ||
                       Local.Status == LookupStatus::IOError;
      if (LocalNews || Remote.Status == LookupStatus::Disabled)
        return Local;
      return Remote;
    }
    // A failed fill is counted and reported by L1; the hit stands. The
    // copy is marked fetched: L1 serves it only while L2 would.
    if (L1->isEnabled()) {
      EntryHeader Copy = Remote.Entry->Header;
      Copy.Flags |= EntryFlagFetched;
      (void)L1->storeEntry(Copy, Remote.Entry->Payload->getBuffer());
    }
    return Remote;
  }

  StoreResult storeEntry(const EntryHeader &Header, llvm::StringRef Payload) override {
    StoreResult Local = L1->storeEntry(Header, Payload);
    StoreResult Remote = L2->storeEntry(Header, Payload);
    return Local.stored() || !Remote.stored() ? Local : Remote;
  }

  const EntryTagKey *tagKey() const override { return L2->tagKey(); }

  KeyLockResult lockKey(const CacheKey &Key, std::chrono::milliseconds MaxWait) override {
    return L1->lockKey(Key, MaxWait);
  }
  KeyLockResult adoptKeyLock(const CacheKey &Key, int FD) override {
    return L1->adoptKeyLock(Key, FD);
  }

  void flushStats() override { L1->flushStats(); }

  CacheStats processStats() const override { return L1->processStats(); }
  llvm::ErrorOr<CacheStats> persistentStats() const override { return L1->persistentStats(); }
  std::vector<std::pair<std::string, std::string>> status() override {
    auto Lines = L1->status();
    auto Remote = L2->status();
    Lines.insert(Lines.end(), Remote.begin(), Remote.end());
    return Lines;
  }

  DirectoryMaintenance *maintenance() override { return L1->maintenance(); }
  CacheInventory *inventory() override { return L1->inventory(); }
  CacheBackend *localLevel() override { return L1.get(); }
  CacheBackend *remoteLevel() override { return L2.get(); }

private:
  std::unique_ptr<CacheBackend> L1, L2;
};
} // namespace

std::unique_ptr<CacheBackend>
qshape::cache::makeLayeredCache(std::unique_ptr<CacheBackend> Local,
                                std::unique_ptr<CacheBackend> Remote) {
  return std::make_unique<LayeredCache>(std::move(Local), std::move(Remote));
}
