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

std::string qshape::cache::toHex(llvm::ArrayRef<uint8_t> Bytes) {
  return llvm::toHex(Bytes, /*LowerCase=*/true);
}

std::optional<CacheKey> CacheKey::parse(llvm::StringRef Text) {
  Text.consume_front("blake3:");
  if (Text.size() != NumHexDigits)
    return std::nullopt;
  Digest Bytes;
  for (size_t I = 0; I < NumBytes; ++I) {
    unsigned Value = 0;
    for (char C : Text.substr(2 * I, 2)) {
      unsigned Nibble;
      if (C >= '0' && C <= '9')
        Nibble = unsigned(C - '0');
      else if (C >= 'a' && C <= 'f')
        Nibble = unsigned(C - 'a' + 10);
      else
        return std::nullopt;
      Value = Value * 16 + Nibble;
    }
    Bytes[I] = uint8_t(Value);
  }
  return CacheKey(Bytes);
}

std::string CacheKey::hex() const { return toHex(Bytes); }

std::string CacheKey::str() const { return "blake3:" + hex(); }

llvm::StringRef qshape::cache::keySyntaxHelp() {
  return "a key is 64 lowercase hex digits [0-9a-f], optionally prefixed "
         "with 'blake3:'";
}

//===----------------------------------------------------------------------===//
// KeyBuilder
//===----------------------------------------------------------------------===//

namespace {
void addLengthPrefixed(llvm::BLAKE3 &Hasher, llvm::StringRef Bytes) {
  uint8_t Length[8];
  llvm::support::endian::write64le(Length, Bytes.size());
  Hasher.update(llvm::ArrayRef<uint8_t>(Length));
  Hasher.update(Bytes);
}
} // namespace

KeyBuilder::KeyBuilder() {
  // Domain separation: no other BLAKE3 use in qshape starts like this.
  addLengthPrefixed(Hasher, "qshape-cache-key");
}

KeyBuilder &KeyBuilder::add(llvm::StringRef Name, llvm::StringRef Value) {
  addLengthPrefixed(Hasher, Name);
  addLengthPrefixed(Hasher, Value);
  auto Digest = llvm::BLAKE3::hash<8>(llvm::arrayRefFromStringRef(Value));
  ManifestLines.push_back(
      (Name + ": " + llvm::Twine(Value.size()) + " bytes, blake3 " + toHex(Digest)).str());
  return *this;
}

KeyBuilder &KeyBuilder::add(llvm::StringRef Name, uint64_t Value) {
  uint8_t Bytes[8];
  llvm::support::endian::write64le(Bytes, Value);
  return add(Name, llvm::StringRef(reinterpret_cast<const char *>(Bytes), 8));
}

CacheKey KeyBuilder::key() const {
  llvm::BLAKE3 Copy = Hasher; // final() does not consume, but is non-const
  return CacheKey(Copy.final<CacheKey::NumBytes>());
}

std::string KeyBuilder::manifest() const {
  std::string Text;
  for (const std::string &Line : ManifestLines)
    Text += Line + "\n";
  return Text;
}

KeyBuilder qshape::cache::makeKeyBuilder(const KeyInputs &Inputs) {
  KeyBuilder Builder;
  Builder.add("schema-version", uint64_t(Inputs.SchemaVersion))
      .add("fingerprint", Inputs.Fingerprint)
      .add("pipeline", Inputs.Pipeline)
      .add("qshape-version", Inputs.QShapeVersion.empty() ? getProducerVersion()
                                                          : llvm::StringRef(Inputs.QShapeVersion))
      .add("build-id", Inputs.BuildId.empty() ? getBuildId() : llvm::StringRef(Inputs.BuildId))
      .add("toolchain-version", Inputs.ToolchainVersion)
      .add("target-triple", Inputs.TargetTriple)
      .add("salt", Inputs.Salt);
  return Builder;
}

//===----------------------------------------------------------------------===//
// Producer version and build id
//===----------------------------------------------------------------------===//

llvm::StringRef qshape::cache::getProducerVersion() { return "qshape " QSHAPE_VERSION_STRING; }

namespace {
std::optional<std::string> hashFile(const char *Path) {
  using namespace fileutil;
  if (!Path || !*Path)
    return std::nullopt;
  UniqueFD FD = openFile(Path, O_RDONLY);
  if (!FD.valid())
    return std::nullopt;
  llvm::BLAKE3 Hasher;
  std::vector<char> Buffer(1 << 20);
  uint64_t Offset = 0;
  while (true) {
    llvm::ErrorOr<size_t> N = readAt(FD.get(), Buffer.data(), Buffer.size(), Offset);
    if (!N)
      return std::nullopt;
    if (*N == 0)
      break;
    Hasher.update(llvm::StringRef(Buffer.data(), *N));
    Offset += *N;
  }
  return "blake3:" + toHex(Hasher.final<CacheKey::NumBytes>());
}

/// The hex of the NT_GNU_BUILD_ID note among the notes in [Note, End), or "".
std::string findGnuBuildId(const char *Note, const char *End) {
  while (Note + sizeof(ElfW(Nhdr)) <= End) {
    auto *H = reinterpret_cast<const ElfW(Nhdr) *>(Note);
    const char *Name = Note + sizeof(ElfW(Nhdr));
    const char *Desc = Name + ((H->n_namesz + 3) & ~3u);
    if (Desc + H->n_descsz > End)
      break;
    if (H->n_type == NT_GNU_BUILD_ID && H->n_namesz == 4 && std::memcmp(Name, "GNU", 4) == 0)
      return llvm::toHex(llvm::StringRef(Desc, H->n_descsz), /*LowerCase=*/true);
    Note = Desc + ((H->n_descsz + 3) & ~3u);
  }
  return "";
}

/// "gnu-build-id:<hex>:size:<bytes>": the one spelling of a build id taken
/// from the linker's note (the size covers bytes appended to the file).
std::string formatGnuBuildId(llvm::StringRef Hex, uint64_t Size) {
  return ("gnu-build-id:" + Hex + ":size:" + llvm::Twine(Size)).str();
}

/// The build-id note of the ELF file at `Path`, read from its program
/// headers the way the loader maps them (native class and byte order only).
std::string readGnuBuildIdOfFile(int FD) {
  using namespace fileutil;
  ElfW(Ehdr) E{};
  llvm::ErrorOr<size_t> N = readAt(FD, reinterpret_cast<char *>(&E), sizeof(E), 0);
  if (!N || *N != sizeof(E) || std::memcmp(E.e_ident, ELFMAG, SELFMAG) != 0 ||
      E.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      E.e_phentsize != sizeof(ElfW(Phdr)) || E.e_phnum == 0 || E.e_phnum > 4096)
    return "";
  std::vector<ElfW(Phdr)> Phdrs(E.e_phnum);
  size_t Bytes = Phdrs.size() * sizeof(ElfW(Phdr));
  N = readAt(FD, reinterpret_cast<char *>(Phdrs.data()), Bytes, E.e_phoff);
  if (!N || *N != Bytes)
    return "";
  for (const ElfW(Phdr) &P : Phdrs) {
    if (P.p_type != PT_NOTE || P.p_filesz == 0 || P.p_filesz > (1u << 20))
      continue;
    std::vector<char> Notes(P.p_filesz);
    N = readAt(FD, Notes.data(), Notes.size(), P.p_offset);
    if (!N || *N != Notes.size())
      continue;
    std::string Hex = findGnuBuildId(Notes.data(), Notes.data() + Notes.size());
    if (!Hex.empty())
      return Hex;
  }
  return "";
}

/// The GNU build-id note (NT_GNU_BUILD_ID) of the loaded object that holds
/// `Addr`: a linker-computed hash of the object's contents, read from memory.
struct NoteSearch {
  uintptr_t Addr;
  std::string Hex;
};

int findBuildIdNote(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *Search = static_cast<NoteSearch *>(Data);
  bool Contains = false;
  for (int I = 0; I < Info->dlpi_phnum && !Contains; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
    Contains = P.p_type == PT_LOAD && Search->Addr >= Start && Search->Addr < Start + P.p_memsz;
  }
  if (!Contains)
    return 0;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Note = reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
    Search->Hex = findGnuBuildId(Note, Note + P.p_memsz);
    if (!Search->Hex.empty())
      return 1;
  }
  return 1;
}

std::string computeBuildId() {
  // Fast path: the linker's build-id note plus the file size (so that even
  // a byte appended to the binary counts as a new build); no file is read.
  {
    NoteSearch Search{reinterpret_cast<uintptr_t>(&computeBuildId), {}};
    dl_iterate_phdr(findBuildIdNote, &Search);
    Dl_info DlInfo{};
    struct link_map *LinkMap = nullptr;
    struct stat St{};
    if (!Search.Hex.empty() && dladdr1(reinterpret_cast<void *>(&computeBuildId), &DlInfo,
                                       reinterpret_cast<void **>(&LinkMap), RTLD_DL_LINKMAP) != 0) {
      bool IsMain = LinkMap && LinkMap->l_name && LinkMap->l_name[0] == '\0';
      if (::stat(IsMain ? "/proc/self/exe" : DlInfo.dli_fname, &St) == 0)
        return formatGnuBuildId(Search.Hex, St.st_size);
    }
  }
  Dl_info Info{};
  struct link_map *Map = nullptr;
  // Any function of this library finds the object it was linked into: the
  // plugin .so or the executable. For the main program dladdr() reports
  // argv[0], which is not a path to it when the program was found through
  // PATH (a file of that name in the working directory would be hashed
  // instead): the main program is read through /proc/self/exe.
  if (dladdr1(reinterpret_cast<void *>(&computeBuildId), &Info, reinterpret_cast<void **>(&Map),
              RTLD_DL_LINKMAP) != 0) {
    bool IsMainProgram = Map && Map->l_name && Map->l_name[0] == '\0';
    if (std::optional<std::string> Id = hashFile(IsMainProgram ? "/proc/self/exe" : Info.dli_fname))
      return *Id;
  }
  if (std::optional<std::string> Id = hashFile("/proc/self/exe"))
    return *Id;
  return ("version:" + getProducerVersion()).str();
}
} // namespace

std::string qshape::cache::getBuildIdOfFile(llvm::StringRef Path) {
  using namespace fileutil;
  UniqueFD FD = openFile(Path, O_RDONLY);
  struct stat St{};
  if (FD.valid() && ::fstat(FD.get(), &St) == 0) {
    std::string Hex = readGnuBuildIdOfFile(FD.get());
    if (!Hex.empty())
      return formatGnuBuildId(Hex, St.st_size);
  }
  std::string Copy = Path.str();
  if (std::optional<std::string> Id = hashFile(Copy.c_str()))
    return *Id;
  return "";
}

llvm::StringRef qshape::cache::getBuildId() {
  static std::string Id = computeBuildId(); // thread-safe, once per process
  return Id;
}
