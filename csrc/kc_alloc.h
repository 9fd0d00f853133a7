/* Large, reusable allocations for Arrow column buffers (kafkacodec/_growbuf.pxd).
 *
 * Static per extension module that includes it: each keeps its own cache. */
#ifndef KC_ALLOC_H
#define KC_ALLOC_H
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if !defined(_WIN32)
#include <pthread.h>
#endif
/* Column buffers reach tens of MiB and are written once, front to back.
 * Fresh pages each cost a fault (expensive under virtualisation), so large
 * buffers are 2 MiB aligned and marked for transparent huge pages, and a
 * few freed ones are kept for the next decode (a worker decodes batch after
 * batch): reused memory is already mapped. */
#define KC_HUGE_ALIGN ((size_t)2 << 20)
#define KC_CACHE_SLOTS 16
#define KC_CACHE_MAX_BYTES ((size_t)512 << 20)

static void *kc_alloc_large(size_t size) {
#if defined(_WIN32)
    return malloc(size);
#else
    void *p = NULL;
    if (posix_memalign(&p, KC_HUGE_ALIGN, size) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
#endif
}

#if !defined(_WIN32)
static struct { void *p; size_t cap; } kc_cache[KC_CACHE_SLOTS];
static size_t kc_cache_bytes = 0;
static pthread_mutex_t kc_cache_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static void *kc_large_acquire(size_t size, size_t *cap) {
#if !defined(_WIN32)
    int best = -1, i;
    pthread_mutex_lock(&kc_cache_lock);
    for (i = 0; i < KC_CACHE_SLOTS; i++) {
        if (kc_cache[i].p && kc_cache[i].cap >= size && kc_cache[i].cap <= 4 * size &&
            (best < 0 || kc_cache[i].cap < kc_cache[best].cap))
            best = i;
    }
    if (best >= 0) {
        void *p = kc_cache[best].p;
        *cap = kc_cache[best].cap;
        kc_cache_bytes -= *cap;
        kc_cache[best].p = NULL;
        pthread_mutex_unlock(&kc_cache_lock);
        return p;
    }
    pthread_mutex_unlock(&kc_cache_lock);
#endif
    *cap = size;
    return kc_alloc_large(size);
}

static void kc_large_release(void *p, size_t cap) {
#if !defined(_WIN32)
    int i;
    if (!p) return;
    pthread_mutex_lock(&kc_cache_lock);
    if (kc_cache_bytes + cap <= KC_CACHE_MAX_BYTES) {
        for (i = 0; i < KC_CACHE_SLOTS; i++) {
            if (!kc_cache[i].p) {
                kc_cache[i].p = p;
                kc_cache[i].cap = cap;
                kc_cache_bytes += cap;
                pthread_mutex_unlock(&kc_cache_lock);
                return;
            }
        }
    }
    pthread_mutex_unlock(&kc_cache_lock);
#endif
    free(p);
}

#endif /* KC_ALLOC_H */
