//===- CacheKey.cpp - Cache keys and the key builder ----------------------===//

#include "qshape/Cache/CacheKey.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <mutex>
#include <sys/stat.h>

#ifndef QSHAPE_VERSION_STRING
#define QSHAPE_VERSION_STRING "unknown"
#endif

using namespace qshape::cache;

std::string qshape::cache::toHex(llvm::ArrayRef<uint8_t> bytes) {
  return llvm::toHex(bytes, /*LowerCase=*/true);
}

std::optional<CacheKey> CacheKey::parse(llvm::StringRef text) {
  text.consume_front("blake3:");
  if (text.size() != kNumHexDigits)
    return std::nullopt;
  Digest bytes;
  for (size_t i = 0; i < kNumBytes; ++i) {
    unsigned value = 0;
    for (char c : text.substr(2 * i, 2)) {
      unsigned nibble;
      if (c >= '0' && c <= '9')
        nibble = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        nibble = static_cast<unsigned>(c - 'a' + 10);
      else
        return std::nullopt;
      value = value * 16 + nibble;
    }
    bytes[i] = static_cast<uint8_t>(value);
  }
  return CacheKey(bytes);
}

std::string CacheKey::hex() const { return toHex(digest); }

std::string CacheKey::str() const { return "blake3:" + hex(); }

llvm::StringRef qshape::cache::keySyntaxHelp() {
  return "a key is 64 lowercase hex digits [0-9a-f], optionally prefixed "
         "with 'blake3:'";
}

//===----------------------------------------------------------------------===//
// KeyBuilder
//===----------------------------------------------------------------------===//

namespace {
void addLengthPrefixed(llvm::BLAKE3 &hasher, llvm::StringRef bytes) {
  uint8_t length[8];
  llvm::support::endian::write64le(length, bytes.size());
  hasher.update(llvm::ArrayRef<uint8_t>(length));
  hasher.update(bytes);
}
} // namespace

KeyBuilder::KeyBuilder() {
  // Domain separation: no other BLAKE3 use in qshape starts like this.
  addLengthPrefixed(hasher, "qshape-cache-key");
}

KeyBuilder &KeyBuilder::add(llvm::StringRef name, llvm::StringRef value) {
  addLengthPrefixed(hasher, name);
  addLengthPrefixed(hasher, value);
  auto digest = llvm::BLAKE3::hash<8>(llvm::arrayRefFromStringRef(value));
  manifestLines.push_back(
      (name + ": " + llvm::Twine(value.size()) + " bytes, blake3 " + toHex(digest)).str());
  return *this;
}

KeyBuilder &KeyBuilder::add(llvm::StringRef name, uint64_t value) {
  uint8_t bytes[8];
  llvm::support::endian::write64le(bytes, value);
  return add(name, llvm::StringRef(reinterpret_cast<const char *>(bytes), 8));
}

CacheKey KeyBuilder::key() const {
  llvm::BLAKE3 copy = hasher; // final() does not consume, but is non-const
  return CacheKey(copy.final<CacheKey::kNumBytes>());
}

std::string KeyBuilder::manifest() const {
  std::string text;
  for (const std::string &line : manifestLines)
    text += line + "\n";
  return text;
}

KeyBuilder qshape::cache::makeKeyBuilder(const KeyInputs &inputs) {
  KeyBuilder builder;
  builder.add("schema-version", static_cast<uint64_t>(inputs.schemaVersion))
      .add("fingerprint", inputs.fingerprint)
      .add("pipeline", inputs.pipeline)
      .add("qshape-version", inputs.qShapeVersion.empty() ? getProducerVersion()
                                                          : llvm::StringRef(inputs.qShapeVersion))
      .add("build-id", inputs.buildId.empty() ? getBuildId() : llvm::StringRef(inputs.buildId))
      .add("toolchain-version", inputs.toolchainVersion)
      .add("target-triple", inputs.targetTriple)
      .add("salt", inputs.salt);
  return builder;
}

//===----------------------------------------------------------------------===//
// Producer version and build id
//===----------------------------------------------------------------------===//

llvm::StringRef qshape::cache::getProducerVersion() { return "qshape " QSHAPE_VERSION_STRING; }

namespace {
std::optional<std::string> hashFile(const char *path) {
  using namespace fileutil;
  if (!path || !*path)
    return std::nullopt;
  UniqueFD fd = openFile(path, O_RDONLY);
  if (!fd.valid())
    return std::nullopt;
  llvm::BLAKE3 hasher;
  std::vector<char> buffer(1 << 20);
  uint64_t offset = 0;
  while (true) {
    llvm::ErrorOr<size_t> n = readAt(fd.get(), buffer.data(), buffer.size(), offset);
    if (!n)
      return std::nullopt;
    if (*n == 0)
      break;
    hasher.update(llvm::StringRef(buffer.data(), *n));
    offset += *n;
  }
  return "blake3:" + toHex(hasher.final<CacheKey::kNumBytes>());
}

/// The hex of the NT_GNU_BUILD_ID note among the notes in [Note, End), or "".
std::string findGnuBuildId(const char *note, const char *end) {
  while (note + sizeof(ElfW(Nhdr)) <= end) {
    auto *h = reinterpret_cast<const ElfW(Nhdr) *>(note);
    const char *name = note + sizeof(ElfW(Nhdr));
    const char *desc = name + ((h->n_namesz + 3) & ~3u);
    if (desc + h->n_descsz > end)
      break;
    if (h->n_type == NT_GNU_BUILD_ID && h->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0)
      return llvm::toHex(llvm::StringRef(desc, h->n_descsz), /*LowerCase=*/true);
    note = desc + ((h->n_descsz + 3) & ~3u);
  }
  return "";
}

/// "gnu-build-id:<hex>:size:<bytes>": the one spelling of a build id taken
/// from the linker's note (the size covers bytes appended to the file).
std::string formatGnuBuildId(llvm::StringRef hex, uint64_t size) {
  return ("gnu-build-id:" + hex + ":size:" + llvm::Twine(size)).str();
}

/// The build-id note of the ELF file open as \p fd, read from its program
/// headers the way the loader maps them (native class and byte order only).
std::string readGnuBuildIdOfFile(int fd) {
  using namespace fileutil;
  ElfW(Ehdr) e{};
  llvm::ErrorOr<size_t> n = readAt(fd, reinterpret_cast<char *>(&e), sizeof(e), 0);
  if (!n || *n != sizeof(e) || std::memcmp(e.e_ident, ELFMAG, SELFMAG) != 0 ||
      e.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      e.e_phentsize != sizeof(ElfW(Phdr)) || e.e_phnum == 0 || e.e_phnum > 4096)
    return "";
  std::vector<ElfW(Phdr)> phdrs(e.e_phnum);
  size_t bytes = phdrs.size() * sizeof(ElfW(Phdr));
  n = readAt(fd, reinterpret_cast<char *>(phdrs.data()), bytes, e.e_phoff);
  if (!n || *n != bytes)
    return "";
  for (const ElfW(Phdr) &p : phdrs) {
    if (p.p_type != PT_NOTE || p.p_filesz == 0 || p.p_filesz > (1u << 20))
      continue;
    std::vector<char> notes(p.p_filesz);
    n = readAt(fd, notes.data(), notes.size(), p.p_offset);
    if (!n || *n != notes.size())
      continue;
    std::string hex = findGnuBuildId(notes.data(), notes.data() + notes.size());
    if (!hex.empty())
      return hex;
  }
  return "";
}

/// The GNU build-id note (NT_GNU_BUILD_ID) of the loaded object that holds
/// `addr`: a linker-computed hash of the object's contents, read from memory.
struct NoteSearch {
  uintptr_t addr;
  std::string hex;
};

int findBuildIdNote(struct dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<NoteSearch *>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum && !contains; ++i) {
    const ElfW(Phdr) &p = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + p.p_vaddr;
    contains = p.p_type == PT_LOAD && search->addr >= start && search->addr < start + p.p_memsz;
  }
  if (!contains)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &p = info->dlpi_phdr[i];
    if (p.p_type != PT_NOTE)
      continue;
    const char *note = reinterpret_cast<const char *>(info->dlpi_addr + p.p_vaddr);
    search->hex = findGnuBuildId(note, note + p.p_memsz);
    if (!search->hex.empty())
      return 1;
  }
  return 1;
}

std::string computeBuildId() {
  // Fast path: the linker's build-id note plus the file size (so that even
  // a byte appended to the binary counts as a new build); no file is read.
  {
    NoteSearch search{reinterpret_cast<uintptr_t>(&computeBuildId), {}};
    dl_iterate_phdr(findBuildIdNote, &search);
    Dl_info dlInfo{};
    struct link_map *linkMap = nullptr;
    struct stat st{};
    if (!search.hex.empty() && dladdr1(reinterpret_cast<void *>(&computeBuildId), &dlInfo,
                                       reinterpret_cast<void **>(&linkMap), RTLD_DL_LINKMAP) != 0) {
      bool isMain = linkMap && linkMap->l_name && linkMap->l_name[0] == '\0';
      if (::stat(isMain ? "/proc/self/exe" : dlInfo.dli_fname, &st) == 0)
        return formatGnuBuildId(search.hex, st.st_size);
    }
  }
  Dl_info info{};
  struct link_map *map = nullptr;
  // Any function of this library finds the object it was linked into: the
  // plugin .so or the executable. For the main program dladdr() reports
  // argv[0], which is not a path to it when the program was found through
  // PATH (a file of that name in the working directory would be hashed
  // instead): the main program is read through /proc/self/exe.
  if (dladdr1(reinterpret_cast<void *>(&computeBuildId), &info, reinterpret_cast<void **>(&map),
              RTLD_DL_LINKMAP) != 0) {
    bool isMainProgram = map && map->l_name && map->l_name[0] == '\0';
    if (std::optional<std::string> id = hashFile(isMainProgram ? "/proc/self/exe" : info.dli_fname))
      return *id;
  }
  if (std::optional<std::string> id = hashFile("/proc/self/exe"))
    return *id;
  return ("version:" + getProducerVersion()).str();
}
} // namespace

std::string qshape::cache::getBuildIdOfFile(llvm::StringRef path) {
  using namespace fileutil;
  UniqueFD fd = openFile(path, O_RDONLY);
  struct stat st{};
  if (fd.valid() && ::fstat(fd.get(), &st) == 0) {
    std::string hex = readGnuBuildIdOfFile(fd.get());
    if (!hex.empty())
      return formatGnuBuildId(hex, st.st_size);
  }
  std::string copy = path.str();
  if (std::optional<std::string> id = hashFile(copy.c_str()))
    return *id;
  return "";
}

llvm::StringRef qshape::cache::getBuildId() {
  static std::string id = computeBuildId(); // thread-safe, once per process
  return id;
}
