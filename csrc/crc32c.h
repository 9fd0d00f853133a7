/* CRC-32C (Castagnoli) with runtime CPU dispatch, and CRC-32 (zlib polynomial).
 *
 * All functions take and return finished CRC values (pre- and post-inverted),
 * so the result of one call can be passed as `crc` to continue over more data,
 * exactly like zlib's crc32(). */
#ifndef KC_CRC32C_H
#define KC_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Builds tables and picks the fastest implementation.  Idempotent.
 * force_software != 0 selects the portable table implementation. */
void kc_crc_init(int force_software);

/* CRC-32C through the implementation chosen by kc_crc_init. */
uint32_t kc_crc32c(uint32_t crc, const void *buf, size_t len);

/* Each implementation, callable directly so tests exercise every branch.
 * kc_crc32c_hw must only be called when kc_crc32c_hw_name() is not NULL. */
uint32_t kc_crc32c_sw(uint32_t crc, const void *buf, size_t len);
uint32_t kc_crc32c_hw(uint32_t crc, const void *buf, size_t len);

/* "sse4.2", "armv8" or NULL when the CPU (or build) has no CRC-32C instruction. */
const char *kc_crc32c_hw_name(void);

/* Long inputs on x86-64 fold 16-byte blocks with carry-less multiplication
 * ("vpclmulqdq" or "pclmul"; NULL when unavailable) and finish with the
 * crc32 instruction.  kc_crc32c_fold runs that path (hardware or software
 * for what it does not cover); kc_crc32c_enable_fold(0) keeps the dispatched
 * path on the crc32 instruction alone (tests compare both). */
const char *kc_crc32c_fold_name(void);
uint32_t kc_crc32c_fold(uint32_t crc, const void *buf, size_t len);
/* The same with 128-bit vectors even where 256-bit ones are available. */
uint32_t kc_crc32c_fold128(uint32_t crc, const void *buf, size_t len);
void kc_crc32c_enable_fold(int enabled);

/* Name of the implementation kc_crc32c() currently uses ("sse4.2", "armv8", "software"). */
const char *kc_crc32c_impl_name(void);

/* CRC-32 with the zlib/IEEE polynomial (legacy message sets), slicing-by-8. */
uint32_t kc_crc32(uint32_t crc, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
