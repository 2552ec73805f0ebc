//===- ArrayView.h - Non-owning read-only array view ------------*- C++ -*-===//
//
// A C++17 stand-in for std::span<const T> (and llvm::ArrayRef) so the
// simulator's API accepts std::vector, std::array, pointer+size and braced
// lists without copying or allocating.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_ARRAYVIEW_H
#define QSHAPE_SIMULATOR_ARRAYVIEW_H

#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace qshape::sim {

/// A read-only view of a contiguous array. Like llvm::ArrayRef, a view built
/// from a braced list is valid only until the end of the full expression, so
/// use it for parameters, never for stored members.
template <typename T> class ArrayView {
public:
  using value_type = T;
  using const_iterator = const T *;

  constexpr ArrayView() = default;
  constexpr ArrayView(const T *data, std::size_t size) : ptr(data), len(size) {}
  ArrayView(const std::vector<T> &vec) : ptr(vec.data()), len(vec.size()) {}
  template <std::size_t N>
  constexpr ArrayView(const std::array<T, N> &arr) : ptr(arr.data()), len(N) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayView(std::initializer_list<T> list)
      : ptr(list.size() ? list.begin() : nullptr), len(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T *data() const { return ptr; }
  constexpr std::size_t size() const { return len; }
  constexpr bool empty() const { return len == 0; }
  constexpr const T *begin() const { return ptr; }
  constexpr const T *end() const { return ptr + len; }
  constexpr const T &operator[](std::size_t i) const {
    assert(i < len && "ArrayView index out of range");
    return ptr[i];
  }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

private:
  const T *ptr = nullptr;
  std::size_t len = 0;
};

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_ARRAYVIEW_H
