/*===- llvm-not-instrumented.h - ASan builds against Debian's LLVM --------===*
 *
 * Included first in every file of an ASan build (-include, CMakeLists.txt).
 *
 * qshape's sanitizer builds link Debian's libLLVM.so and libMLIR.so, which
 * are not instrumented. Under ASan, LLVM's headers poison BumpPtrAllocator
 * slabs by hand and unpoison each allocation; an allocator that qshape's code
 * and the libraries share (an MLIRContext's, the parser's) then hands out
 * memory that qshape's inline copy of the allocator poisoned and the
 * library's copy never unpoisons, and ASan reports use-after-poison in
 * correct code. So hand poisoning is off: ASan still checks every access of
 * qshape's code to the heap (malloc's redzones, freed memory), it only no
 * longer separates the allocations inside one slab.
 *
 *===----------------------------------------------------------------------===*/

#ifndef QSHAPE_LLVM_NOT_INSTRUMENTED_H
#define QSHAPE_LLVM_NOT_INSTRUMENTED_H

#include <sanitizer/asan_interface.h>

#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))

#endif
