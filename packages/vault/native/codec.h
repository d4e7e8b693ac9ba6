// The per-blob work shared by the native codec's jobs (codec.c): blob ids, sealing and
// opening, and the contexts they work with. Layout and messages as src/codec.ts.
#ifndef BOGWAN_VAULT_CODEC_H
#define BOGWAN_VAULT_CODEC_H

#include <stddef.h>
#include <stdint.h>

// Sealed layout: nonce(12) | AES-256-GCM( flag(1) | payload ) | tag(16), the id as
// associated data.
#define NONCE 12
#define TAG 16
#define ID 32
#define KEY 32
#define OVERHEAD (NONCE + 1 + TAG)
#define FLAG_RAW 0
#define FLAG_ZSTD 1
#define LEVEL 3
#define MIN_COMPRESS 64
// Big blobs are tried on probes spread over the whole blob first (codec.ts: looksCompressible):
// a PROBE-byte piece from the middle of every PROBE_SPACING bytes, compressed at PROBE_LEVEL.
#define PROBE (4 * 1024)
#define PROBE_SPACING (64 * 1024)
#define PROBE_LEVEL 1
// A blob opened here is at most this large (chunks are at most 8 MiB; trees far less).
#define MAX_PLAIN ((size_t)1 << 30)

/** The zstd and OpenSSL contexts one job works with, and its scratch buffer. */
typedef struct tools tools;
struct tools {
  struct evp_mac_ctx_st *mac;
  struct evp_cipher_ctx_st *cipher;
  struct ZSTD_CCtx_s *compress;
  struct ZSTD_DCtx_s *decompress;
  uint8_t *scratch;
  size_t scratch_size;
  tools *next;
};

/** Fetches the algorithms once; answers 0 where OpenSSL lacks them. */
int codec_ready(void);
/** A set of contexts for one job (NULL when out of memory); give it back when done. */
tools *take_tools(void);
void give_back_tools(tools *t);
/** Grows the scratch buffer to at least `size` bytes; 0 when out of memory. */
int grow_scratch(tools *t, size_t size);
/** The blob id: HMAC-SHA-256 of data under key. */
int blob_id(tools *t, const uint8_t *key, const uint8_t *data, size_t length, uint8_t out[ID]);
/** The blob id of data given in pieces: begin, update per piece, end. */
int id_begin(tools *t, const uint8_t *key);
int id_update(tools *t, const uint8_t *data, size_t length);
int id_end(tools *t, uint8_t out[ID]);
/**
 * Decrypts a sealed blob where it lies (its bytes are overwritten) and checks its tag. On
 * success answers NULL and sets *flag (FLAG_RAW or FLAG_ZSTD) and the payload, inside
 * `sealed`; otherwise answers the reason, worded as open_blob words it.
 */
const char *open_in_place(tools *t, const uint8_t *enc_key, const uint8_t *id, uint8_t *sealed, size_t length, uint8_t *flag,
                          uint8_t **payload, size_t *payload_length);
/**
 * Seals `length` bytes of src into dst (room for length + OVERHEAD; must not overlap src)
 * under `id`; answers the sealed length, or 0 when OpenSSL failed.
 */
size_t seal_into(tools *t, const uint8_t *enc_key, const uint8_t *id, size_t id_length, const uint8_t *src, size_t length,
                 int try_compress, uint8_t *dst);
/**
 * Opens a sealed blob and checks it against its id. On success answers NULL and sets
 * *plain (malloc'd, to free) and *plain_length; otherwise answers the reason.
 */
const char *open_blob(tools *t, const uint8_t *enc_key, const uint8_t *mac_key, const uint8_t *id, const uint8_t *sealed,
                      size_t length, uint8_t **plain, size_t *plain_length);

#endif
