// heap.cpp: interposes malloc, free, calloc, realloc, posix_memalign,
// aligned_alloc, memalign, valloc and pvalloc in the executable. Each one
// forwards to glibc's own entry point (__libc_malloc, ...) and adds or
// subtracts malloc_usable_size of the block to a counter of the heap in use,
// keeping its peak. The counters are atomics, so allocating threads inside a
// library are counted correctly too.
//
// Definitions in the executable take precedence over glibc's for every
// shared library (libstdc++, libfcl, libode, libBullet*), as the dynamic
// linker resolves malloc to the first definition in the search order.

#include "heap.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <malloc.h>

extern "C" {
void* __libc_malloc(std::size_t size);
void __libc_free(void* p);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t align, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

std::atomic<std::size_t> g_inUse{0};
std::atomic<std::size_t> g_peak{0};

// raisePeak makes the peak at least now.
inline void raisePeak(std::size_t now) {
    std::size_t p = g_peak.load(std::memory_order_relaxed);
    while (now > p && !g_peak.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
    }
}

// added counts the new block p (null is ignored) and returns it.
inline void* added(void* p) {
    if (p != nullptr) {
        std::size_t n = malloc_usable_size(p);
        raisePeak(g_inUse.fetch_add(n, std::memory_order_relaxed) + n);
    }
    return p;
}

// removed uncounts the block p, about to be freed (null is ignored).
inline void removed(void* p) {
    if (p != nullptr) g_inUse.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
}

// validAlignment reports whether posix_memalign accepts align.
inline bool validAlignment(std::size_t align) {
    return align % sizeof(void*) == 0 && (align & (align - 1)) == 0 && align != 0;
}

}  // namespace

namespace peers::heap {

std::size_t inUse() { return g_inUse.load(std::memory_order_relaxed); }

std::size_t peak() { return g_peak.load(std::memory_order_relaxed); }

void resetPeak() { g_peak.store(inUse(), std::memory_order_relaxed); }

}  // namespace peers::heap

extern "C" {

void* malloc(std::size_t size) noexcept { return added(__libc_malloc(size)); }

void free(void* p) noexcept {
    removed(p);
    __libc_free(p);
}

void* calloc(std::size_t n, std::size_t size) noexcept { return added(__libc_calloc(n, size)); }

void* realloc(void* p, std::size_t size) noexcept {
    std::size_t before = p != nullptr ? malloc_usable_size(p) : 0;
    void* q = __libc_realloc(p, size);
    if (q != nullptr) {
        // The block moved or was resized: replace its old size by its new.
        g_inUse.fetch_sub(before, std::memory_order_relaxed);
        added(q);
    } else if (p != nullptr && size == 0) {
        // glibc's realloc(p, 0) frees p and returns null.
        g_inUse.fetch_sub(before, std::memory_order_relaxed);
    }
    return q;
}

int posix_memalign(void** out, std::size_t align, std::size_t size) noexcept {
    if (!validAlignment(align)) return EINVAL;
    void* p = __libc_memalign(align, size);
    if (p == nullptr) return ENOMEM;
    *out = added(p);
    return 0;
}

void* aligned_alloc(std::size_t align, std::size_t size) noexcept {
    return added(__libc_memalign(align, size));
}

void* memalign(std::size_t align, std::size_t size) noexcept {
    return added(__libc_memalign(align, size));
}

void* valloc(std::size_t size) noexcept { return added(__libc_valloc(size)); }

void* pvalloc(std::size_t size) noexcept { return added(__libc_pvalloc(size)); }

}  // extern "C"
