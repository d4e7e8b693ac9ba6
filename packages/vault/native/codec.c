// Blob ids, sealing and opening for the native codec's jobs (codec.h).
#include "codec.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <zstd.h>

static EVP_MAC *hmac_algorithm;
static EVP_CIPHER *gcm_algorithm;
static pthread_once_t fetched = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void) {
  hmac_algorithm = EVP_MAC_fetch(NULL, "HMAC", NULL);
  gcm_algorithm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
}

// What one job works with. libuv may run a job on any of its threads (the CLI asks for 16),
// so these are not per thread: a job takes a set from this stack and gives it back, and the
// engine runs only a few jobs at a time (native.ts), so only a few sets ever exist.

static tools *spare_tools;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

tools *take_tools(void) {
  pthread_mutex_lock(&spare_lock);
  tools *t = spare_tools;
  if (t) spare_tools = t->next;
  pthread_mutex_unlock(&spare_lock);
  return t ? t : calloc(1, sizeof(tools));
}

void give_back_tools(tools *t) {
  if (!t) return;
  // Scratch beyond 1 MiB (a batch of large one-chunk files) is not kept between jobs.
  if (t->scratch_size > (1 << 20)) {
    free(t->scratch);
    t->scratch = NULL;
    t->scratch_size = 0;
  }
  pthread_mutex_lock(&spare_lock);
  t->next = spare_tools;
  spare_tools = t;
  pthread_mutex_unlock(&spare_lock);
}

int id_begin(tools *t, const uint8_t *key) {
  static char digest[] = "SHA256";
  if (!t->mac && !(t->mac = EVP_MAC_CTX_new(hmac_algorithm))) return 0;
  OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
  return EVP_MAC_init(t->mac, key, KEY, params);
}

int id_update(tools *t, const uint8_t *data, size_t length) { return EVP_MAC_update(t->mac, data, length); }

int id_end(tools *t, uint8_t out[ID]) {
  size_t written = 0;
  return EVP_MAC_final(t->mac, out, &written, ID) && written == ID;
}

int blob_id(tools *t, const uint8_t *key, const uint8_t *data, size_t length, uint8_t out[ID]) {
  return id_begin(t, key) && id_update(t, data, length) && id_end(t, out);
}

/** zstd of src into dst when it fits in `capacity` (less than the input); 0 otherwise. */
static size_t compress_into(tools *t, uint8_t *dst, size_t capacity, const uint8_t *src, size_t length, int level) {
  if (!t->compress && !(t->compress = ZSTD_createCCtx())) return 0;
  size_t n = ZSTD_compressCCtx(t->compress, dst, capacity, src, length, level);
  return ZSTD_isError(n) ? 0 : n;
}

/**
 * Whether a blob is worth a full zstd pass: small ones always are; a big one when any of
 * its probes (one per PROBE_SPACING bytes, so every stretch of the blob is looked at) saves
 * 3 %. A blob that mixes stretches (a disk image, a tar archive) then goes to zstd whole,
 * which stores its random stretches as raw blocks of the frame; only a blob with no
 * compressible probe is kept raw without the pass.
 */
static int looks_compressible(tools *t, uint8_t *dst, const uint8_t *src, size_t length) {
  if (length < 4 * PROBE_SPACING) return 1;
  for (size_t at = 0; at + PROBE <= length; at += PROBE_SPACING) {
    size_t stretch = length - at < PROBE_SPACING ? length - at : PROBE_SPACING;
    size_t n = compress_into(t, dst, PROBE, src + at + stretch / 2 - PROBE / 2, PROBE, PROBE_LEVEL);
    if (n > 0 && n < PROBE * 97 / 100) return 1;
  }
  return 0;
}

/**
 * Seals `length` bytes of src into dst (room for length + OVERHEAD; must not overlap src)
 * under `id`; answers the sealed length, or 0 when OpenSSL failed.
 */
size_t seal_into(tools *t, const uint8_t *enc_key, const uint8_t *id, size_t id_length, const uint8_t *src, size_t length,
                        int try_compress, uint8_t *dst) {
  uint8_t *payload = dst + NONCE + 1;
  const uint8_t *plain = src;
  size_t plain_length = length;
  uint8_t flag = FLAG_RAW;
  if (try_compress && length >= MIN_COMPRESS && looks_compressible(t, payload, src, length)) {
    size_t packed = compress_into(t, payload, length - 1, src, length, LEVEL);
    if (packed > 0) {
      plain = payload; // encrypted in place
      plain_length = packed;
      flag = FLAG_ZSTD;
    }
  }
  if (!t->cipher && !(t->cipher = EVP_CIPHER_CTX_new())) return 0;
  int n = 0;
  if (RAND_bytes(dst, NONCE) != 1) return 0;
  if (!EVP_EncryptInit_ex2(t->cipher, gcm_algorithm, enc_key, dst, NULL)) return 0;
  if (!EVP_EncryptUpdate(t->cipher, NULL, &n, id, (int)id_length)) return 0;
  if (!EVP_EncryptUpdate(t->cipher, dst + NONCE, &n, &flag, 1)) return 0;
  if (plain_length > 0 && !EVP_EncryptUpdate(t->cipher, payload, &n, plain, (int)plain_length)) return 0;
  if (!EVP_EncryptFinal_ex(t->cipher, payload + plain_length, &n)) return 0;
  if (!EVP_CIPHER_CTX_ctrl(t->cipher, EVP_CTRL_AEAD_GET_TAG, TAG, payload + plain_length)) return 0;
  return NONCE + 1 + plain_length + TAG;
}

/**
 * Opens a sealed blob and checks it against its id. On success answers NULL and sets
 * *plain (malloc'd, to free) and *plain_length; otherwise answers the reason, worded as
 * codec.ts and pack-tasks.ts word it.
 */
const char *open_blob(tools *t, const uint8_t *enc_key, const uint8_t *mac_key, const uint8_t *id, const uint8_t *sealed,
                             size_t length, uint8_t **plain, size_t *plain_length) {
  if (length < OVERHEAD) return "blob too short";
  size_t inner = length - NONCE - TAG;
  uint8_t *opened = malloc(inner);
  if (!opened) return "out of memory";
  if (!t->cipher && !(t->cipher = EVP_CIPHER_CTX_new())) {
    free(opened);
    return "out of memory";
  }
  int n = 0;
  int ok = EVP_DecryptInit_ex2(t->cipher, gcm_algorithm, enc_key, sealed, NULL) &&
           EVP_DecryptUpdate(t->cipher, NULL, &n, id, ID) &&
           EVP_DecryptUpdate(t->cipher, opened, &n, sealed + NONCE, (int)inner) &&
           EVP_CIPHER_CTX_ctrl(t->cipher, EVP_CTRL_AEAD_SET_TAG, TAG, (void *)(sealed + length - TAG)) &&
           EVP_DecryptFinal_ex(t->cipher, opened + n, &n) > 0;
  if (!ok) {
    free(opened);
    return "blob failed authentication";
  }
  uint8_t *result = NULL;
  size_t result_length = 0;
  if (opened[0] == FLAG_RAW) {
    result_length = inner - 1;
    memmove(opened, opened + 1, result_length);
    result = opened;
  } else if (opened[0] == FLAG_ZSTD) {
    unsigned long long size = ZSTD_getFrameContentSize(opened + 1, inner - 1);
    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR || size > MAX_PLAIN) {
      free(opened);
      return "blob could not be decompressed";
    }
    result = malloc(size > 0 ? size : 1);
    if (!t->decompress) t->decompress = ZSTD_createDCtx();
    size_t got = result && t->decompress ? ZSTD_decompressDCtx(t->decompress, result, size, opened + 1, inner - 1) : 0;
    free(opened);
    if (!result || !t->decompress || ZSTD_isError(got) || got != size) {
      free(result);
      return "blob could not be decompressed";
    }
    result_length = size;
  } else {
    free(opened);
    return "unknown blob encoding";
  }
  uint8_t check[ID];
  if (!blob_id(t, mac_key, result, result_length, check) || CRYPTO_memcmp(check, id, ID) != 0) {
    free(result);
    return "content does not match its id";
  }
  *plain = result;
  *plain_length = result_length;
  return NULL;
}

const char *open_in_place(tools *t, const uint8_t *enc_key, const uint8_t *id, uint8_t *sealed, size_t length, uint8_t *flag,
                          uint8_t **payload, size_t *payload_length) {
  if (length < OVERHEAD) return "blob too short";
  size_t inner = length - NONCE - TAG;
  if (!t->cipher && !(t->cipher = EVP_CIPHER_CTX_new())) return "out of memory";
  int n = 0;
  uint8_t *opened = sealed + NONCE;
  // GCM is a stream mode: decrypting where the ciphertext lies is allowed.
  int ok = EVP_DecryptInit_ex2(t->cipher, gcm_algorithm, enc_key, sealed, NULL) && EVP_DecryptUpdate(t->cipher, NULL, &n, id, ID) &&
           EVP_DecryptUpdate(t->cipher, opened, &n, opened, (int)inner) &&
           EVP_CIPHER_CTX_ctrl(t->cipher, EVP_CTRL_AEAD_SET_TAG, TAG, sealed + length - TAG) &&
           EVP_DecryptFinal_ex(t->cipher, opened + n, &n) > 0;
  if (!ok) return "blob failed authentication";
  if (opened[0] != FLAG_RAW && opened[0] != FLAG_ZSTD) return "unknown blob encoding";
  *flag = opened[0];
  *payload = opened + 1;
  *payload_length = inner - 1;
  return NULL;
}

int grow_scratch(tools *t, size_t size) {
  if (t->scratch_size >= size) return 1;
  uint8_t *bigger = realloc(t->scratch, size);
  if (!bigger) return 0;
  t->scratch = bigger;
  t->scratch_size = size;
  return 1;
}

int codec_ready(void) {
  pthread_once(&fetched, fetch_algorithms);
  return hmac_algorithm != NULL && gcm_algorithm != NULL;
}
