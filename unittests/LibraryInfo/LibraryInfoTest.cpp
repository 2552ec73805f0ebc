//===- LibraryInfoTest.cpp - the info document of compiled libraries ------===//

#include "qshape/LibraryInfo/LibraryInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace qshape::native;

namespace {

LibraryInfo sample() {
  LibraryInfo info;
  info.producer = "qshape 0.1.0";
  info.runtimeAbiVersion = 1;
  info.key = "blake3:00";
  info.fingerprint = "blake3:11";
  info.targetTriple = "x86_64-pc-linux-gnu";
  info.cpu = "znver3";
  info.optLevel = 2;
  info.roll = false;
  info.defaultEntry = "jit_circuit";
  info.entries.push_back({"jit_circuit",
                          "circuit",
                          "_catalyst_pyface_jit_circuit",
                          "_mlir_ciface_jit_circuit",
                          {"tensor<3xf64>", "f64"},
                          {"tensor<f64>"}});
  info.entries.push_back({"jit_other",
                          "other",
                          "_catalyst_pyface_jit_other",
                          "_mlir_ciface_jit_other",
                          {},
                          {"tensor<4xf64>"}});
  return info;
}

/// The document of `info` with `edit` applied to its JSON object.
std::string edited(const LibraryInfo &info, llvm::function_ref<void(llvm::json::Object &)> edit) {
  llvm::json::Value v = cantFail(llvm::json::parse(info.toJSON()));
  edit(*v.getAsObject());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  return s;
}

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<LibraryInfo> r = LibraryInfo::fromJSON(text);
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

TEST(LibraryInfo, RoundTrip) {
  LibraryInfo a = sample();
  llvm::Expected<LibraryInfo> b = LibraryInfo::fromJSON(a.toJSON());
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->toJSON(), a.toJSON());
  EXPECT_EQ(b->cpu, "znver3");
  EXPECT_EQ(b->optLevel, 2u);
  EXPECT_FALSE(b->roll);
  ASSERT_EQ(b->entries.size(), 2u);
  EXPECT_EQ(b->entries[0].arguments[1], "f64");
  EXPECT_EQ(b->entries[1].source, "other");
}

TEST(LibraryInfo, FindEntryByNameSourceOrDefault) {
  LibraryInfo info = sample();
  auto name = [&](llvm::StringRef q) -> std::string {
    llvm::Expected<const EntryInfo *> e = info.findEntry(q);
    return e ? (*e)->name : "error: " + llvm::toString(e.takeError());
  };
  EXPECT_EQ(name(""), "jit_circuit");
  EXPECT_EQ(name("@jit_other"), "jit_other");
  EXPECT_EQ(name("other"), "jit_other");
  EXPECT_EQ(name("nope"), "error: the library has no entry function '@nope'; it has: "
                          "@jit_circuit (runs @circuit), @jit_other (runs @other)");
  info.defaultEntry.clear();
  EXPECT_EQ(name("").substr(0, 45), "error: the library has several entry function");
}

TEST(LibraryInfo, RejectsOtherFormatsAndVersions) {
  LibraryInfo info = sample();
  EXPECT_NE(errorOf("not json").find("not valid JSON"), std::string::npos);
  EXPECT_NE(errorOf("[1]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(edited(info, [](llvm::json::Object &o) { o["format"] = "elf"; }))
                .find("format is not 'qshape-library'"),
            std::string::npos);
  EXPECT_NE(errorOf(edited(info, [](llvm::json::Object &o) { o["version"] = 2; }))
                .find("has version 2, this qshape reads version 1"),
            std::string::npos);
}

TEST(LibraryInfo, RejectsMissingAndMistypedFields) {
  LibraryInfo info = sample();
  EXPECT_EQ(errorOf(edited(info, [](llvm::json::Object &o) { o.erase("cpu"); })),
            "library info: field 'cpu' is missing");
  EXPECT_EQ(errorOf(edited(info, [](llvm::json::Object &o) { o["opt_level"] = 7; })),
            "library info: field 'opt_level' must be an integer from 0 to 3");
  EXPECT_EQ(errorOf(edited(info, [](llvm::json::Object &o) { o["roll"] = "yes"; })),
            "library info: field 'roll' must be true or false");
  EXPECT_EQ(errorOf(edited(info,
                           [](llvm::json::Object &o) {
                             (*(*o.getArray("entries"))[1].getAsObject())["arguments"] =
                                 llvm::json::Array{1};
                           })),
            "library info: entry #1: field 'arguments' must be a list of strings");
  EXPECT_EQ(errorOf(edited(info, [](llvm::json::Object &o) { o["default_entry"] = "x"; })),
            "library info: the default entry 'x' is not among the entries");
}

} // namespace
