/* Unaligned big-endian loads and stores.  memcpy + byte swap compiles to a
 * single mov/movbe on x86 and ARM, and never faults on unaligned input. */
#ifndef KC_ENDIAN_H
#define KC_ENDIAN_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define KC_BSWAP16(x) __builtin_bswap16(x)
#define KC_BSWAP32(x) __builtin_bswap32(x)
#define KC_BSWAP64(x) __builtin_bswap64(x)
#elif defined(_MSC_VER)
#include <stdlib.h>
#define KC_BSWAP16(x) _byteswap_ushort(x)
#define KC_BSWAP32(x) _byteswap_ulong(x)
#define KC_BSWAP64(x) _byteswap_uint64(x)
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define KC_TO_BE16(x) (x)
#define KC_TO_BE32(x) (x)
#define KC_TO_BE64(x) (x)
#else
#define KC_TO_BE16(x) KC_BSWAP16(x)
#define KC_TO_BE32(x) KC_BSWAP32(x)
#define KC_TO_BE64(x) KC_BSWAP64(x)
#endif

static inline uint16_t kc_load_be16(const unsigned char *p) {
    uint16_t v; memcpy(&v, p, 2); return KC_TO_BE16(v);
}
static inline uint32_t kc_load_be32(const unsigned char *p) {
    uint32_t v; memcpy(&v, p, 4); return KC_TO_BE32(v);
}
static inline uint64_t kc_load_be64(const unsigned char *p) {
    uint64_t v; memcpy(&v, p, 8); return KC_TO_BE64(v);
}
static inline void kc_store_be16(unsigned char *p, uint16_t v) {
    v = KC_TO_BE16(v); memcpy(p, &v, 2);
}
static inline void kc_store_be32(unsigned char *p, uint32_t v) {
    v = KC_TO_BE32(v); memcpy(p, &v, 4);
}
static inline void kc_store_be64(unsigned char *p, uint64_t v) {
    v = KC_TO_BE64(v); memcpy(p, &v, 8);
}
static inline double kc_load_be_double(const unsigned char *p) {
    uint64_t v = kc_load_be64(p); double d; memcpy(&d, &v, 8); return d;
}
static inline void kc_store_be_double(unsigned char *p, double d) {
    uint64_t v; memcpy(&v, &d, 8); kc_store_be64(p, v);
}

#endif
