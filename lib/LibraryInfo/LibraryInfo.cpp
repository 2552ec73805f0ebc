//===- LibraryInfo.cpp - the info document of a qshape-compiled library ---===//

#include "qshape/LibraryInfo/LibraryInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace qshape::native {

static json::Array toArray(const std::vector<std::string> &strings) {
  json::Array a;
  for (const std::string &s : strings)
    a.push_back(s);
  return a;
}

std::string LibraryInfo::toJSON() const {
  json::Array entryList;
  for (const EntryInfo &e : entries)
    entryList.push_back(json::Object{{"name", e.name},
                                     {"source", e.source},
                                     {"symbol", e.symbol},
                                     {"c_interface", e.cInterface},
                                     {"arguments", toArray(e.arguments)},
                                     {"results", toArray(e.results)}});
  // json::Object sorts its keys when printed, which gives the fixed order.
  json::Object doc{{"format", kLibraryInfoFormat},
                   {"version", static_cast<int64_t>(kLibraryInfoVersion)},
                   {"producer", producer},
                   {"runtime_abi_version", static_cast<int64_t>(runtimeAbiVersion)},
                   {"key", key},
                   {"fingerprint", fingerprint},
                   {"target_triple", targetTriple},
                   {"cpu", cpu},
                   {"opt_level", static_cast<int64_t>(optLevel)},
                   {"roll", roll},
                   {"default_entry", defaultEntry},
                   {"entries", std::move(entryList)}};
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(std::move(doc));
  return text;
}

namespace {
/// Reads fields of one JSON object and remembers the first problem.
class FieldReader {
public:
  FieldReader(const json::Object &object, std::string where)
      : object(object), where(std::move(where)) {}

  void string(StringRef name, std::string &out) {
    if (const json::Value *v = get(name)) {
      if (std::optional<StringRef> s = v->getAsString())
        out = s->str();
      else
        bad(name, "a string");
    }
  }
  void integer(StringRef name, uint64_t max, uint64_t &out) {
    if (const json::Value *v = get(name)) {
      std::optional<int64_t> i = v->getAsInteger();
      if (i && *i >= 0 && static_cast<uint64_t>(*i) <= max)
        out = static_cast<uint64_t>(*i);
      else
        bad(name, "an integer from 0 to " + std::to_string(max));
    }
  }
  void boolean(StringRef name, bool &out) {
    if (const json::Value *v = get(name)) {
      if (std::optional<bool> b = v->getAsBoolean())
        out = *b;
      else
        bad(name, "true or false");
    }
  }
  void strings(StringRef name, std::vector<std::string> &out) {
    const json::Value *v = get(name);
    if (!v)
      return;
    const json::Array *a = v->getAsArray();
    if (!a)
      return bad(name, "a list of strings");
    for (const json::Value &e : *a) {
      std::optional<StringRef> s = e.getAsString();
      if (!s)
        return bad(name, "a list of strings");
      out.push_back(s->str());
    }
  }
  const json::Array *array(StringRef name) {
    const json::Value *v = get(name);
    if (!v)
      return nullptr;
    if (const json::Array *a = v->getAsArray())
      return a;
    bad(name, "a list");
    return nullptr;
  }
  Error takeError() { return problem.empty() ? Error::success() : createStringError(problem); }

private:
  const json::Value *get(StringRef name) {
    const json::Value *v = object.get(name);
    if (!v && problem.empty())
      problem = where + ": field '" + name.str() + "' is missing";
    return v;
  }
  void bad(StringRef name, const Twine &expected) {
    if (problem.empty())
      problem = where + ": field '" + name.str() + "' must be " + expected.str();
  }

  const json::Object &object;
  std::string where;
  std::string problem;
};
} // namespace

Expected<LibraryInfo> LibraryInfo::fromJSON(StringRef text) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return createStringError("the library info is not valid JSON: " + toString(parsed.takeError()));
  const json::Object *doc = parsed->getAsObject();
  if (!doc)
    return createStringError("the library info is not a JSON object");
  // Format and version first: a newer document may change everything else.
  std::optional<StringRef> format = doc->getString("format");
  if (!format || *format != kLibraryInfoFormat)
    return createStringError("the library info's format is not '" + kLibraryInfoFormat.str() + "'");
  std::optional<int64_t> version = doc->getInteger("version");
  if (!version || *version != kLibraryInfoVersion)
    return createStringError("the library info has version " +
                             (version ? std::to_string(*version) : "?") +
                             ", this qshape reads version " + std::to_string(kLibraryInfoVersion) +
                             ": compile the library again with this qshape-compile");

  LibraryInfo info;
  FieldReader r(*doc, "library info");
  uint64_t abi = 0, opt = 0;
  r.string("producer", info.producer);
  r.integer("runtime_abi_version", UINT32_MAX, abi);
  r.string("key", info.key);
  r.string("fingerprint", info.fingerprint);
  r.string("target_triple", info.targetTriple);
  r.string("cpu", info.cpu);
  r.integer("opt_level", 3, opt);
  r.boolean("roll", info.roll);
  r.string("default_entry", info.defaultEntry);
  const json::Array *entries = r.array("entries");
  if (Error err = r.takeError())
    return std::move(err);
  info.runtimeAbiVersion = static_cast<uint32_t>(abi);
  info.optLevel = static_cast<unsigned>(opt);
  for (auto [k, v] : llvm::enumerate(*entries)) {
    const json::Object *o = v.getAsObject();
    std::string where = "library info: entry #" + std::to_string(k);
    if (!o)
      return createStringError(where + " is not a JSON object");
    EntryInfo e;
    FieldReader er(*o, where);
    er.string("name", e.name);
    er.string("source", e.source);
    er.string("symbol", e.symbol);
    er.string("c_interface", e.cInterface);
    er.strings("arguments", e.arguments);
    er.strings("results", e.results);
    if (Error err = er.takeError())
      return std::move(err);
    info.entries.push_back(std::move(e));
  }
  if (!info.defaultEntry.empty() &&
      !llvm::any_of(info.entries, [&](const EntryInfo &e) { return e.name == info.defaultEntry; }))
    return createStringError("library info: the default entry '" + info.defaultEntry +
                             "' is not among the entries");
  return info;
}

Expected<const EntryInfo *> LibraryInfo::findEntry(StringRef name) const {
  name.consume_front("@");
  if (name.empty())
    name = defaultEntry;
  for (const EntryInfo &e : entries)
    if (e.name == name)
      return &e;
  for (const EntryInfo &e : entries)
    if (e.source == name)
      return &e;
  std::string names = llvm::join(
      llvm::map_range(entries,
                      [](const EntryInfo &e) {
                        return "@" + e.name +
                               (e.source == e.name ? std::string() : " (runs @" + e.source + ")");
                      }),
      ", ");
  if (name.empty())
    return createStringError("the library has several entry functions (" + names +
                             "): choose one with --entry");
  return createStringError("the library has no entry function '@" + name.str() +
                           "'; it has: " + (names.empty() ? "none" : names));
}

template <class ELFT>
static Expected<std::optional<ElfSection>> findInELF(StringRef bytes, StringRef name) {
  Expected<object::ELFFile<ELFT>> file = object::ELFFile<ELFT>::create(bytes);
  if (!file)
    return file.takeError();
  if (file->getHeader().e_type != ELF::ET_DYN)
    return createStringError("not a shared library");
  auto sections = file->sections();
  if (!sections)
    return sections.takeError();
  for (const typename ELFT::Shdr &section : *sections) {
    Expected<StringRef> sectionName = file->getSectionName(section);
    if (!sectionName) {
      consumeError(sectionName.takeError());
      continue;
    }
    if (*sectionName != name)
      continue;
    ElfSection place{uint64_t(section.sh_offset), uint64_t(section.sh_size),
                     section.sh_type != ELF::SHT_NOBITS};
    if (place.inFile && (place.offset > bytes.size() || place.size > bytes.size() - place.offset))
      return createStringError("its " + name + " section lies outside the file");
    return place;
  }
  return std::nullopt;
}

Expected<std::optional<ElfSection>> findLibrarySection(StringRef bytes, StringRef name) {
  if (!bytes.starts_with("\x7f"
                         "ELF") ||
      bytes.size() < 6)
    return createStringError("not an ELF file");
  bool is64 = bytes[4] == ELF::ELFCLASS64;
  bool little = bytes[5] == ELF::ELFDATA2LSB;
  if (is64)
    return little ? findInELF<object::ELF64LE>(bytes, name)
                  : findInELF<object::ELF64BE>(bytes, name);
  return little ? findInELF<object::ELF32LE>(bytes, name) : findInELF<object::ELF32BE>(bytes, name);
}

Expected<LibraryInfo> readLibraryInfo(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    // A missing or unreadable file is a plain I/O error, not a format one.
    if (!sys::fs::exists(path))
      return createStringError("cannot open '" + path.str() + "': no such file");
    return createStringError("cannot read '" + path.str() + "': " + buffer.getError().message());
  }
  return readLibraryInfoFromBytes((*buffer)->getBuffer(), path);
}

Expected<LibraryInfo> readLibraryInfoFromBytes(StringRef bytes, StringRef path) {
  auto notOurs = [&](const Twine &why) -> Error {
    return createStringError("'" + path.str() + "' is not a library compiled by qshape-compile (" +
                             why + ")");
  };
  Expected<std::optional<ElfSection>> place = findLibrarySection(bytes, kLibraryInfoSection);
  if (!place)
    return notOurs(toString(place.takeError()));
  if (!*place || !(*place)->inFile)
    return notOurs("it has no " + kLibraryInfoSection + " section");
  // The section holds the document and a terminating NUL.
  StringRef text =
      bytes.substr((*place)->offset, (*place)->size).take_until([](char c) { return c == '\0'; });
  Expected<LibraryInfo> info = LibraryInfo::fromJSON(text);
  if (!info)
    return createStringError("'" + path.str() + "': " + toString(info.takeError()));
  return info;
}

} // namespace qshape::native
