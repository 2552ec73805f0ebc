//===- NativeLibrary.cpp - load and call a qshape-compiled library --------===//

#include "qshape/Native/NativeLibrary.h"

#include "qshape/Runtime/RuntimeCAPI.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <complex>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

#ifndef QSHAPE_RUNTIME_BUILD_PATH
#define QSHAPE_RUNTIME_BUILD_PATH ""
#endif

using namespace llvm;
using qshape::interp::RtValue;
using qshape::interp::ScalarKind;
using qshape::interp::Tensor;

namespace qshape::native {

std::string findRuntime(StringRef requested) {
  if (!requested.empty())
    return requested.str();
  if (std::optional<std::string> env = sys::Process::GetEnv("QSHAPE_RUNTIME"); env && !env->empty())
    return *env;
  std::string exe = sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&findRuntime));
  if (!exe.empty()) {
    SmallString<256> next(sys::path::parent_path(sys::path::parent_path(exe)));
    sys::path::append(next, "lib", "libqshape-runtime.so");
    if (sys::fs::exists(next))
      return next.str().str();
  }
  return QSHAPE_RUNTIME_BUILD_PATH;
}

//===----------------------------------------------------------------------===//
// Memory layout of arguments and results
//===----------------------------------------------------------------------===//

namespace {
/// How one scalar (a tensor element, or a scalar argument) is stored.
struct Scalar {
  ScalarKind kind = ScalarKind::Float;
  unsigned bytes = 8;  ///< of one element: f32 4, complex<f64> 16, i1 1
  unsigned width = 64; ///< integers: bits
  bool isF32() const { return kind == ScalarKind::Float && bytes == 4; }
  unsigned align() const { return kind == ScalarKind::Complex ? bytes / 2 : bytes; }
};

/// The element types qshape-sim's reader and writer support: f64, f32,
/// integers up to 64 bits, index, complex<f64>.
std::optional<Scalar> scalarOf(mlir::Type t) {
  if (t.isF64())
    return Scalar{ScalarKind::Float, 8, 64};
  if (t.isF32())
    return Scalar{ScalarKind::Float, 4, 32};
  if (t.isIndex())
    return Scalar{ScalarKind::Int, 8, 64};
  if (auto it = dyn_cast<mlir::IntegerType>(t)) {
    unsigned w = it.getWidth();
    if (w == 0 || w > 64)
      return std::nullopt;
    // LLVM stores iN in the smallest power-of-two number of bytes.
    return Scalar{ScalarKind::Int, static_cast<unsigned>(PowerOf2Ceil(divideCeil(w, 8))), w};
  }
  if (auto ct = dyn_cast<mlir::ComplexType>(t); ct && ct.getElementType().isF64())
    return Scalar{ScalarKind::Complex, 16, 64};
  return std::nullopt;
}

/// What a value of an entry's argument or result type is in the calling
/// convention: a memref descriptor for a ranked tensor, else the scalar.
struct Slot {
  Scalar scalar;
  bool isTensor = false;
  unsigned rank = 0;
  /// Bytes of the descriptor {alloc, aligned, offset, sizes[rank],
  /// strides[rank]} (tensors) or of the scalar.
  size_t bytes() const { return isTensor ? 8 * (3 + 2 * rank) : scalar.bytes; }
  size_t align() const { return isTensor ? 8 : scalar.align(); }
};

Expected<Slot> slotOf(mlir::Type type, const Twine &where) {
  Slot s;
  mlir::Type elem = type;
  if (auto tt = dyn_cast<mlir::RankedTensorType>(type)) {
    s.isTensor = true;
    s.rank = tt.getRank();
    elem = tt.getElementType();
  }
  std::optional<Scalar> scalar = scalarOf(elem);
  if (!scalar) {
    std::string text;
    raw_string_ostream os(text);
    os << type;
    return createStringError(where + " has type " + text +
                             ", which qshape-run cannot pass (f64, f32, integers, index, "
                             "complex<f64> and ranked tensors of them)");
  }
  s.scalar = *scalar;
  return s;
}

/// Offsets of `slots` laid out as an LLVM (= C) struct.
size_t layoutStruct(ArrayRef<size_t> sizes, ArrayRef<size_t> aligns,
                    SmallVectorImpl<size_t> &offsets) {
  size_t offset = 0, maxAlign = 1;
  for (auto [size, align] : llvm::zip(sizes, aligns)) {
    offset = alignTo(offset, align);
    offsets.push_back(offset);
    offset += size;
    maxAlign = std::max(maxAlign, align);
  }
  return alignTo(std::max<size_t>(offset, 1), maxAlign);
}

void storeScalar(const Scalar &s, const RtValue &v, char *at) {
  switch (s.kind) {
  case ScalarKind::Float:
    if (s.isF32()) {
      auto f = static_cast<float>(v.getFloat());
      std::memcpy(at, &f, 4);
    } else {
      double d = v.getFloat();
      std::memcpy(at, &d, 8);
    }
    return;
  case ScalarKind::Int: {
    // RtValue keeps integers sign-extended from their width (i1 true = -1);
    // memory holds the low bits, an i1 as 0 or 1.
    auto bits = static_cast<uint64_t>(v.getInt());
    if (s.width == 1)
      bits = bits & 1;
    std::memcpy(at, &bits, s.bytes); // little-endian: the low bytes
    return;
  }
  case ScalarKind::Complex: {
    double parts[2] = {v.getComplex().real(), v.getComplex().imag()};
    std::memcpy(at, parts, 16);
    return;
  }
  }
}

RtValue loadScalar(const Scalar &s, const char *at) {
  switch (s.kind) {
  case ScalarKind::Float:
    if (s.isF32()) {
      float f;
      std::memcpy(&f, at, 4);
      return RtValue::getFloat(f);
    } else {
      double d;
      std::memcpy(&d, at, 8);
      return RtValue::getFloat(d);
    }
  case ScalarKind::Int: {
    uint64_t bits = 0;
    std::memcpy(&bits, at, s.bytes);
    return RtValue::getInt(interp::wrapInt(static_cast<int64_t>(bits), s.width));
  }
  case ScalarKind::Complex: {
    double parts[2];
    std::memcpy(parts, at, 16);
    return RtValue::getComplex({parts[0], parts[1]});
  }
  }
  return {};
}
} // namespace

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

using SetupFn = void (*)(int, char **);
using TeardownFn = void (*)();
using EntryFn = void (*)(void *, void *);

struct NativeLibrary::Handles {
  void *runtime = nullptr;
  void *library = nullptr;
  SetupFn setup = nullptr;
  TeardownFn teardown = nullptr;
  StringMap<EntryFn> entries;
  decltype(&qshape_runtime_default_options) defaultOptions = nullptr;
  decltype(&qshape_runtime_configure) configure = nullptr;
  decltype(&qshape_runtime_abi_version) abiVersion = nullptr;
  decltype(&qshape_runtime_set_error_handler) setErrorHandler = nullptr;
  decltype(&qshape_runtime_get_stats) getStats = nullptr;
  decltype(&_mlir_memory_transfer) transfer = nullptr;
  ~Handles() {
    // The runtime stays loaded: the library (if it is still open) refers
    // to it, and unloading it buys nothing in a process about to end.
    if (library)
      dlclose(library);
  }
};

template <typename Fn>
static Error resolve(void *handle, const char *name, StringRef file, Fn &out) {
  dlerror();
  void *sym = dlsym(handle, name);
  if (!sym)
    return createStringError("'" + file.str() + "' does not export " + name);
  out = reinterpret_cast<Fn>(sym);
  return Error::success();
}

Expected<std::unique_ptr<NativeLibrary>> NativeLibrary::load(StringRef path,
                                                             StringRef runtimePath) {
  // The file's own word first: nothing of it runs before it is known to be
  // a qshape library for this runtime ABI.
  Expected<LibraryInfo> info = readLibraryInfo(path);
  if (!info)
    return info.takeError();
  if (info->runtimeAbiVersion != QSHAPE_RUNTIME_ABI_VERSION)
    return createStringError("'" + path.str() + "' calls runtime ABI version " +
                             std::to_string(info->runtimeAbiVersion) + ", this qshape-run " +
                             std::to_string(QSHAPE_RUNTIME_ABI_VERSION) +
                             ": compile it again with this qshape-compile");

  std::unique_ptr<NativeLibrary> lib(new NativeLibrary());
  lib->info = std::move(*info);
  // dlopen searches the library path for a name without '/': load exactly
  // the file that was checked.
  SmallString<256> absolute(path);
  if (std::error_code ec = sys::fs::make_absolute(absolute))
    return createStringError(ec, "cannot resolve '" + path.str() + "': " + ec.message());
  lib->path = absolute.str().str();
  lib->handles = std::make_unique<Handles>();
  Handles &h = *lib->handles;

  if (runtimePath.empty())
    return createStringError("libqshape-runtime.so was not found: give its path with --runtime "
                             "or $QSHAPE_RUNTIME");
  std::string runtime = runtimePath.str();
  // Global, so that the library's undefined __catalyst__* symbols bind to it.
  h.runtime = dlopen(runtime.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!h.runtime)
    return createStringError("cannot load the runtime '" + runtime + "': " + dlerror());
  if (Error e = resolve(h.runtime, "qshape_runtime_abi_version", runtime, h.abiVersion))
    return createStringError(toString(std::move(e)) + ": it is not libqshape-runtime.so");
  if (uint32_t v = h.abiVersion(); v != QSHAPE_RUNTIME_ABI_VERSION)
    return createStringError("the runtime '" + runtime + "' implements ABI version " +
                             std::to_string(v) + ", this qshape-run " +
                             std::to_string(QSHAPE_RUNTIME_ABI_VERSION));
  if (Error e = resolve(h.runtime, "qshape_runtime_default_options", runtime, h.defaultOptions))
    return std::move(e);
  if (Error e = resolve(h.runtime, "qshape_runtime_configure", runtime, h.configure))
    return std::move(e);
  if (Error e = resolve(h.runtime, "qshape_runtime_set_error_handler", runtime, h.setErrorHandler))
    return std::move(e);
  if (Error e = resolve(h.runtime, "qshape_runtime_get_stats", runtime, h.getStats))
    return std::move(e);
  if (Error e = resolve(h.runtime, "_mlir_memory_transfer", runtime, h.transfer))
    return std::move(e);

  h.library = dlopen(lib->path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h.library)
    return createStringError("cannot load '" + lib->path + "': " + dlerror());
  if (Error e = resolve(h.library, "setup", lib->path, h.setup))
    return std::move(e);
  if (Error e = resolve(h.library, "teardown", lib->path, h.teardown))
    return std::move(e);
  for (const EntryInfo &entry : lib->info.entries) {
    EntryFn fn = nullptr;
    if (Error e = resolve(h.library, entry.symbol.c_str(), lib->path, fn))
      return std::move(e);
    h.entries[entry.symbol] = fn;
  }
  return lib;
}

NativeLibrary::~NativeLibrary() = default;

RunStats NativeLibrary::getStats() const {
  QShapeRuntimeStats s{};
  handles->getStats(&s);
  return RunStats{s.gates_applied, s.max_wires};
}

//===----------------------------------------------------------------------===//
// Calling
//===----------------------------------------------------------------------===//

namespace {
/// Buffers that live for one call.
struct CallMemory {
  std::vector<std::unique_ptr<char[]>> blocks;
  std::vector<size_t> sizes;
  char *allocate(size_t bytes) {
    // Zeroed, and aligned for any element (new[] of char gives at least
    // alignof(max_align_t), 16 here).
    blocks.push_back(std::make_unique<char[]>(std::max<size_t>(bytes, 1)));
    sizes.push_back(std::max<size_t>(bytes, 1));
    return blocks.back().get();
  }
  bool owns(const void *p) const {
    for (auto [block, size] : llvm::zip(blocks, sizes))
      if (p >= block.get() && p < block.get() + size)
        return true;
    return false;
  }
};

/// MLIR's memref lowering marks the allocated pointer of a buffer that is a
/// global (memref.get_global) with this value: it must not be freed.
constexpr uintptr_t kGlobalBufferMarker = 0xdeadbeef;

/// Frees the buffers the entry allocated for its tensor results (with
/// malloc, as the memref lowering does): they are the caller's, as in
/// Catalyst. A buffer two results share is freed once; globals and the
/// caller's own argument buffers, which a result may alias, are not freed.
/// Takes the result buffers the runtime owns (a library compiled with
/// --abi=catalyst allocates them with _mlir_memref_to_llvm_alloc), before
/// teardown frees them: afterwards they are this host's, like malloc'd ones.
void takeResultBuffers(ArrayRef<Slot> slots, ArrayRef<size_t> offsets, const char *results,
                       bool (*transfer)(void *)) {
  for (auto [slot, offset] : llvm::zip(slots, offsets)) {
    if (!slot.isTensor)
      continue;
    void *allocated;
    std::memcpy(static_cast<void *>(&allocated), results + offset, sizeof(void *));
    (void)transfer(allocated); // false: not the runtime's, nothing to take
  }
}

void freeResultBuffers(ArrayRef<Slot> slots, ArrayRef<size_t> offsets, const char *results,
                       const CallMemory &memory) {
  llvm::SmallPtrSet<void *, 8> freed;
  for (auto [slot, offset] : llvm::zip(slots, offsets)) {
    if (!slot.isTensor)
      continue;
    void *allocated;
    std::memcpy(static_cast<void *>(&allocated), results + offset, sizeof(void *));
    if (!allocated || reinterpret_cast<uintptr_t>(allocated) == kGlobalBufferMarker ||
        memory.owns(allocated) || !freed.insert(allocated).second)
      continue;
    std::free(allocated);
  }
}

/// Writes a memref descriptor for tensor value `v` at `at`.
Error packTensor(const Slot &slot, const RtValue &v, char *at, CallMemory &memory,
                 const Twine &where) {
  if (v.getKind() != RtValue::Kind::Tensor)
    return createStringError(where + ": expected a tensor value");
  const Tensor &t = v.getTensor();
  if (t.shape.size() != slot.rank)
    return createStringError(where + ": expected rank " + Twine(slot.rank));
  int64_t n = t.getNumElements();
  char *data = memory.allocate(static_cast<size_t>(n) * slot.scalar.bytes);
  for (int64_t k = 0; k < n; ++k)
    storeScalar(slot.scalar, RtValue::getElement(t, k), data + k * slot.scalar.bytes);
  SmallVector<int64_t, 8> words(3 + 2 * slot.rank);
  words[0] = reinterpret_cast<int64_t>(data);
  words[1] = reinterpret_cast<int64_t>(data);
  words[2] = 0;
  int64_t stride = 1;
  for (int d = static_cast<int>(slot.rank) - 1; d >= 0; --d) {
    words[3 + d] = t.shape[d];
    words[3 + slot.rank + d] = stride;
    stride *= t.shape[d];
  }
  std::memcpy(at, words.data(), slot.bytes());
  return Error::success();
}

/// Reads the memref descriptor at `at` into a tensor value, honouring its
/// offset and strides.
RtValue unpackTensor(const Slot &slot, const char *at) {
  SmallVector<int64_t, 8> words(3 + 2 * slot.rank);
  std::memcpy(words.data(), at, slot.bytes());
  const char *aligned = reinterpret_cast<const char *>(words[1]);
  int64_t offset = words[2];
  auto t = std::make_shared<Tensor>();
  t->elem = slot.scalar.kind;
  t->shape.assign(words.begin() + 3, words.begin() + 3 + slot.rank);
  int64_t n = t->getNumElements();
  t->resize(n);
  SmallVector<int64_t, 8> index(slot.rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t linear = offset;
    for (unsigned d = 0; d < slot.rank; ++d)
      linear += index[d] * words[3 + slot.rank + d];
    RtValue::setElement(*t, k, loadScalar(slot.scalar, aligned + linear * slot.scalar.bytes));
    for (int d = static_cast<int>(slot.rank) - 1; d >= 0; --d) {
      if (++index[d] < t->shape[d])
        break;
      index[d] = 0;
    }
  }
  return RtValue::getTensor(std::move(t));
}

/// qshape-run's handler, as a C callback with user data.
void forwardError(const char *message, void *userData) {
  auto handler = reinterpret_cast<void (*)(const char *)>(userData);
  handler(message);
}
} // namespace

Expected<SmallVector<RtValue>> NativeLibrary::run(const EntryInfo &entry, mlir::TypeRange argTypes,
                                                  mlir::TypeRange resultTypes,
                                                  ArrayRef<RtValue> args,
                                                  const RunOptions &options) {
  Handles &h = *handles;
  auto fn = h.entries.find(entry.symbol);
  if (fn == h.entries.end())
    return createStringError("the library has no entry point " + entry.symbol);
  if (args.size() != argTypes.size())
    return createStringError("@" + entry.name + " takes " + Twine(argTypes.size()) +
                             " argument(s), got " + Twine(args.size()));

  // The arguments' struct: a pointer to a descriptor per tensor, a scalar
  // by value otherwise (what _mlir_ciface_<name> takes, in order).
  CallMemory memory;
  SmallVector<Slot> argSlots;
  SmallVector<size_t> sizes, aligns, offsets;
  for (auto [k, type] : llvm::enumerate(argTypes)) {
    Expected<Slot> slot = slotOf(type, "argument #" + Twine(k) + " of @" + entry.name);
    if (!slot)
      return slot.takeError();
    argSlots.push_back(*slot);
    sizes.push_back(slot->isTensor ? sizeof(void *) : slot->bytes());
    aligns.push_back(slot->isTensor ? alignof(void *) : slot->align());
  }
  char *argStruct = memory.allocate(layoutStruct(sizes, aligns, offsets));
  for (size_t k = 0; k < argTypes.size(); ++k) {
    const Slot &slot = argSlots[k];
    std::string where = "argument #" + std::to_string(k) + " of @" + entry.name;
    if (slot.isTensor) {
      char *descriptor = memory.allocate(slot.bytes());
      if (Error e = packTensor(slot, args[k], descriptor, memory, where))
        return std::move(e);
      std::memcpy(argStruct + offsets[k], static_cast<const void *>(&descriptor), sizeof(void *));
    } else {
      if (!args[k].isScalar())
        return createStringError(where + ": expected a scalar value");
      storeScalar(slot.scalar, args[k], argStruct + offsets[k]);
    }
  }

  // The results' struct: each result's descriptor or scalar by value.
  SmallVector<Slot> resultSlots;
  sizes.clear(), aligns.clear();
  SmallVector<size_t> resultOffsets;
  for (auto [k, type] : llvm::enumerate(resultTypes)) {
    Expected<Slot> slot = slotOf(type, "result #" + Twine(k) + " of @" + entry.name);
    if (!slot)
      return slot.takeError();
    resultSlots.push_back(*slot);
    sizes.push_back(slot->bytes());
    aligns.push_back(slot->align());
  }
  char *resultStruct = memory.allocate(layoutStruct(sizes, aligns, resultOffsets));

  QShapeRuntimeOptions config;
  h.defaultOptions(&config);
  config.has_seed = options.seed.has_value();
  config.seed = options.seed.value_or(0);
  config.has_shots = options.shots.has_value();
  config.shots = options.shots.value_or(0);
  h.configure(&config);
  if (options.onRuntimeError)
    h.setErrorHandler(forwardError, reinterpret_cast<void *>(options.onRuntimeError));

  char arg0[] = "qshape-run";
  char *argv[] = {arg0, nullptr};
  h.setup(1, argv);
  fn->second(resultStruct, argStruct);
  takeResultBuffers(resultSlots, resultOffsets, resultStruct, h.transfer);
  h.teardown();

  SmallVector<RtValue> results;
  for (auto [k, slot] : llvm::enumerate(resultSlots))
    results.push_back(slot.isTensor ? unpackTensor(slot, resultStruct + resultOffsets[k])
                                    : loadScalar(slot.scalar, resultStruct + resultOffsets[k]));
  freeResultBuffers(resultSlots, resultOffsets, resultStruct, memory);
  return results;
}

} // namespace qshape::native
