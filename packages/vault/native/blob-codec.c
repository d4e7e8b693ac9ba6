// The engine's per-blob work in C, on libuv's thread pool: reading small files whole,
// blob ids (HMAC-SHA-256), zstd, AES-256-GCM sealing and opening. The same layout and
// messages as src/codec.ts, which stays the reference and the fallback.
//
// Why: the JavaScript version runs on worker threads, and each one is a V8 isolate of its
// own (8–10 MiB resident each, plus its heap and its arena in the allocator). Work queued
// here runs on the threads libuv already has, with no isolate and no message copies (docs/decisions.md, "Backup engine: round 10").
//
// OpenSSL comes from the Node binary itself (it exports its symbols and ships the headers
// node-gyp compiles against); zstd is compiled from the sources zstd-napi ships.
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <uv.h>
#include <zstd.h>

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
// Big blobs are tried on a sample first (codec.ts: looksCompressible).
#define SAMPLE (64 * 1024)
// A blob opened here is at most this large (chunks are at most 8 MiB; trees far less).
#define MAX_PLAIN ((size_t)1 << 30)

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
typedef struct tools {
  EVP_MAC_CTX *mac;
  EVP_CIPHER_CTX *cipher;
  ZSTD_CCtx *compress;
  ZSTD_DCtx *decompress;
  uint8_t *scratch;
  size_t scratch_size;
  struct tools *next;
} tools;

static tools *spare_tools;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

static tools *take_tools(void) {
  pthread_mutex_lock(&spare_lock);
  tools *t = spare_tools;
  if (t) spare_tools = t->next;
  pthread_mutex_unlock(&spare_lock);
  return t ? t : calloc(1, sizeof(tools));
}

static void give_back_tools(tools *t) {
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

static int blob_id(tools *t, const uint8_t *key, const uint8_t *data, size_t length, uint8_t out[ID]) {
  static char digest[] = "SHA256";
  if (!t->mac && !(t->mac = EVP_MAC_CTX_new(hmac_algorithm))) return 0;
  OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
  size_t written = 0;
  return EVP_MAC_init(t->mac, key, KEY, params) && EVP_MAC_update(t->mac, data, length) &&
         EVP_MAC_final(t->mac, out, &written, ID) && written == ID;
}

/** zstd of src into dst when it fits in `capacity` (less than the input); 0 otherwise. */
static size_t compress_into(tools *t, uint8_t *dst, size_t capacity, const uint8_t *src, size_t length) {
  if (!t->compress && !(t->compress = ZSTD_createCCtx())) return 0;
  size_t n = ZSTD_compressCCtx(t->compress, dst, capacity, src, length, LEVEL);
  return ZSTD_isError(n) ? 0 : n;
}

static int looks_compressible(tools *t, uint8_t *dst, const uint8_t *src, size_t length) {
  if (length < 4 * SAMPLE) return 1;
  size_t at = length / 2 - SAMPLE / 2;
  size_t n = compress_into(t, dst, SAMPLE, src + at, SAMPLE);
  return n > 0 && n < SAMPLE * 97 / 100;
}

/**
 * Seals `length` bytes of src into dst (room for length + OVERHEAD; must not overlap src)
 * under `id`; answers the sealed length, or 0 when OpenSSL failed.
 */
static size_t seal_into(tools *t, const uint8_t *enc_key, const uint8_t *id, size_t id_length, const uint8_t *src, size_t length,
                        int try_compress, uint8_t *dst) {
  uint8_t *payload = dst + NONCE + 1;
  const uint8_t *plain = src;
  size_t plain_length = length;
  uint8_t flag = FLAG_RAW;
  if (try_compress && length >= MIN_COMPRESS && looks_compressible(t, payload, src, length)) {
    size_t packed = compress_into(t, payload, length - 1, src, length);
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
static const char *open_blob(tools *t, const uint8_t *enc_key, const uint8_t *mac_key, const uint8_t *id, const uint8_t *sealed,
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

// ---------------------------------------------------------------- JavaScript glue

#define CHECK(call)                                                       \
  do {                                                                    \
    if ((call) != napi_ok) {                                              \
      napi_throw_error(env, NULL, "bogwan-vault native codec: bad call"); \
      return NULL;                                                        \
    }                                                                     \
  } while (0)

static void free_bytes(napi_env env, void *data, void *hint) {
  int64_t adjusted = 0;
  napi_adjust_external_memory(env, -(int64_t)(intptr_t)hint, &adjusted);
  free(data);
}

/** A Buffer over malloc'd bytes, freed with it; V8 is told of their size. */
static napi_value own_buffer(napi_env env, uint8_t *bytes, size_t length) {
  napi_value result;
  int64_t adjusted = 0;
  if (napi_create_external_buffer(env, length, bytes, free_bytes, (void *)(intptr_t)length, &result) != napi_ok) {
    // Runtimes that refuse external buffers get a copy.
    void *copy = NULL;
    napi_create_buffer_copy(env, length, bytes, &copy, &result);
    free(bytes);
    return result;
  }
  napi_adjust_external_memory(env, (int64_t)length, &adjusted);
  return result;
}

static int get_bytes(napi_env env, napi_value value, uint8_t **data, size_t *length) {
  void *p = NULL;
  bool is = false;
  napi_is_typedarray(env, value, &is);
  if (is) {
    napi_typedarray_type type;
    size_t count;
    napi_value buffer;
    size_t offset;
    if (napi_get_typedarray_info(env, value, &type, &count, &p, &buffer, &offset) != napi_ok || type != napi_uint8_array) return 0;
    *data = p;
    *length = count;
    return 1;
  }
  if (napi_get_buffer_info(env, value, &p, length) != napi_ok) return 0;
  *data = p;
  return 1;
}

static int get_key(napi_env env, napi_value value, uint8_t out[KEY]) {
  uint8_t *p;
  size_t n;
  if (!get_bytes(env, value, &p, &n) || n != KEY) return 0;
  memcpy(out, p, KEY);
  return 1;
}

/** The elements of a typed array of `type`, and their count. */
static int get_typed(napi_env env, napi_value value, napi_typedarray_type type, void **data, size_t *count) {
  napi_typedarray_type actual;
  napi_value buffer;
  size_t offset;
  return napi_get_typedarray_info(env, value, &actual, count, data, &buffer, &offset) == napi_ok && actual == type;
}

/** Element i of a JavaScript array of strings, as a malloc'd C string; NULL if it is not one. */
static char *get_string_at(napi_env env, napi_value array, uint32_t i) {
  napi_value value;
  size_t length = 0;
  if (napi_get_element(env, array, i, &value) != napi_ok || napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text) napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

/** A job's inputs stay referenced (not collected, not moved) until it completes. */
typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref refs[4];
  int ref_count;
  uint8_t enc_key[KEY];
  uint8_t mac_key[KEY];
} job_base;

static void release_job(napi_env env, job_base *job) {
  for (int i = 0; i < job->ref_count; i++) napi_delete_reference(env, job->refs[i]);
  napi_delete_async_work(env, job->work);
  OPENSSL_cleanse(job->enc_key, KEY);
  OPENSSL_cleanse(job->mac_key, KEY);
}

static int keep(napi_env env, job_base *job, napi_value value) {
  return napi_create_reference(env, value, 1, &job->refs[job->ref_count++]) == napi_ok;
}

static napi_value queue(napi_env env, job_base *job, const char *name, napi_async_execute_callback execute,
                        napi_async_complete_callback complete) {
  napi_value promise, resource_name;
  CHECK(napi_create_promise(env, &job->deferred, &promise));
  CHECK(napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource_name));
  CHECK(napi_create_async_work(env, NULL, resource_name, execute, complete, job, &job->work));
  CHECK(napi_queue_async_work(env, job->work));
  return promise;
}

static void reject(napi_env env, napi_deferred deferred, const char *message) {
  napi_value text, error;
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, NULL, text, &error);
  napi_reject_deferred(env, deferred, error);
}

// ---------------------------------------------------------------- hash and seal one blob

typedef struct {
  job_base base;
  uint8_t *data;
  size_t length;
  uint8_t *id;
  size_t id_length;
  int compress;
  uint8_t *out;
  size_t out_length;
  int failed;
} blob_job;

static void hash_execute(napi_env env, void *p) {
  blob_job *job = p;
  tools *t = take_tools();
  job->out = malloc(ID);
  job->failed = !t || !job->out || !blob_id(t, job->base.mac_key, job->data, job->length, job->out);
  job->out_length = ID;
  give_back_tools(t);
}

static void seal_execute(napi_env env, void *p) {
  blob_job *job = p;
  tools *t = take_tools();
  job->out = malloc(job->length + OVERHEAD);
  job->out_length = t && job->out ? seal_into(t, job->base.enc_key, job->id, job->id_length, job->data, job->length, job->compress, job->out) : 0;
  job->failed = job->out_length == 0;
  give_back_tools(t);
}

static void blob_complete(napi_env env, napi_status status, void *p) {
  blob_job *job = p;
  if (status != napi_ok || job->failed) {
    free(job->out);
    reject(env, job->base.deferred, "sealing failed");
  } else {
    napi_resolve_deferred(env, job->base.deferred, own_buffer(env, job->out, job->out_length));
  }
  release_job(env, &job->base);
  free(job);
}

/** hash(macKey, data): Promise<Buffer> of the blob id. */
static napi_value Hash(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  blob_job *job = calloc(1, sizeof *job);
  if (!job) return NULL;
  if (argc < 2 || !get_key(env, argv[0], job->base.mac_key) || !get_bytes(env, argv[1], &job->data, &job->length) ||
      !keep(env, &job->base, argv[1])) {
    free(job);
    napi_throw_type_error(env, NULL, "hash(macKey, data)");
    return NULL;
  }
  return queue(env, &job->base, "bogwan-vault:hash", hash_execute, blob_complete);
}

/** seal(encKey, id, data, compress): Promise<Buffer> of the sealed blob. */
static napi_value Seal(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  blob_job *job = calloc(1, sizeof *job);
  if (!job) return NULL;
  bool compress = true;
  if (argc < 4 || !get_key(env, argv[0], job->base.enc_key) || !get_bytes(env, argv[1], &job->id, &job->id_length) ||
      !get_bytes(env, argv[2], &job->data, &job->length) || napi_get_value_bool(env, argv[3], &compress) != napi_ok ||
      job->length > INT32_MAX - OVERHEAD || !keep(env, &job->base, argv[1]) || !keep(env, &job->base, argv[2])) {
    for (int i = 0; i < job->base.ref_count; i++) napi_delete_reference(env, job->base.refs[i]);
    free(job);
    napi_throw_type_error(env, NULL, "seal(encKey, id, data, compress)");
    return NULL;
  }
  job->compress = compress;
  return queue(env, &job->base, "bogwan-vault:seal", seal_execute, blob_complete);
}

// ---------------------------------------------------------------- read small files whole

enum { READ_BYTES = 0, READ_SEALED = 1, READ_AGAIN = 2 };

typedef struct {
  char *path;
  size_t size;
  int kind;
  size_t offset;
  size_t length;
  size_t raw_length;
} read_item;

typedef struct {
  job_base base;
  read_item *items;
  uint32_t count;
  size_t hash_up_to;
  uint8_t *buffer;
  size_t buffer_length;
  int failed;
} read_job;

static int read_fully(int fd, uint8_t *into, size_t room, size_t *got) {
  size_t done = 0;
  while (done < room) {
    ssize_t n = pread(fd, into + done, room - done, (off_t)done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return 0;
    if (n == 0) break;
    done += (size_t)n;
  }
  *got = done;
  return 1;
}

static int grow_scratch(tools *t, size_t size) {
  if (t->scratch_size >= size) return 1;
  uint8_t *bigger = realloc(t->scratch, size);
  if (!bigger) return 0;
  t->scratch = bigger;
  t->scratch_size = size;
  return 1;
}

// Layout of the answer's buffer: the 32-byte ids of the batch's files first, then each
// file's room (its size, one byte to notice growth, the seal's overhead).
static void read_one(tools *t, read_job *job, uint32_t i, size_t offset) {
  read_item *item = &job->items[i];
  item->kind = READ_AGAIN;
  int fd = open(item->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  size_t room = item->size + 1;
  size_t got = 0;
  // One chunk (up to hash_up_to bytes): read aside and sealed into place.
  int sealable = item->size <= job->hash_up_to;
  uint8_t *into = sealable ? (grow_scratch(t, room) ? t->scratch : NULL) : job->buffer + offset;
  if (into && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read_fully(fd, into, room, &got) && got < room) {
    item->offset = offset;
    if (sealable && got > 0 && got <= job->hash_up_to) {
      uint8_t *id = job->buffer + (size_t)i * ID;
      size_t sealed = blob_id(t, job->base.mac_key, into, got, id)
                          ? seal_into(t, job->base.enc_key, id, ID, into, got, 1, job->buffer + offset)
                          : 0;
      if (sealed > 0) {
        item->kind = READ_SEALED;
        item->length = sealed;
        item->raw_length = got;
      }
    } else {
      if (sealable) memcpy(job->buffer + offset, into, got);
      item->kind = READ_BYTES;
      item->length = got;
    }
  }
  // Anything else (gone, not a regular file, grown, unreadable) is read again through
  // the source's own stream, whose error is the one to report.
  close(fd);
}

static void read_execute(napi_env env, void *p) {
  read_job *job = p;
  tools *t = take_tools();
  size_t offset = (size_t)job->count * ID;
  for (uint32_t i = 0; i < job->count; i++) {
    if (t) read_one(t, job, i, offset);
    else job->items[i].kind = READ_AGAIN;
    offset += job->items[i].size + 1 + OVERHEAD;
  }
  give_back_tools(t);
}

static void free_read_job(read_job *job) {
  for (uint32_t i = 0; i < job->count; i++) free(job->items[i].path);
  free(job->items);
  free(job);
}

static void read_complete(napi_env env, napi_status status, void *p) {
  read_job *job = p;
  napi_value result, buffer, outcomes, number;
  if (status != napi_ok) {
    free(job->buffer);
    reject(env, job->base.deferred, "reading failed");
  } else {
    napi_create_object(env, &result);
    buffer = own_buffer(env, job->buffer, job->buffer_length);
    napi_set_named_property(env, result, "buffer", buffer);
    napi_create_array_with_length(env, (size_t)job->count * 4, &outcomes);
    for (uint32_t i = 0; i < job->count; i++) {
      const read_item *item = &job->items[i];
      const double values[4] = {item->kind, (double)item->offset, (double)item->length, (double)item->raw_length};
      for (uint32_t k = 0; k < 4; k++) {
        napi_create_double(env, values[k], &number);
        napi_set_element(env, outcomes, i * 4 + k, number);
      }
    }
    napi_set_named_property(env, result, "outcomes", outcomes);
    napi_resolve_deferred(env, job->base.deferred, result);
  }
  release_job(env, &job->base);
  free_read_job(job);
}

/**
 * readFiles(encKey, macKey, paths, sizes, hashUpTo): Promise<{ buffer, outcomes }>, four
 * numbers per file: kind (0 bytes, 1 sealed, 2 read it again yourself), offset, length and
 * the bytes' length for a sealed one, whose id is the 32 bytes at 32 × its index.
 */
static napi_value ReadFiles(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  read_job *job = calloc(1, sizeof *job);
  uint32_t count = 0, sizes_count = 0;
  double hash_up_to = 0;
  if (!job || argc < 5 || !get_key(env, argv[0], job->base.enc_key) || !get_key(env, argv[1], job->base.mac_key) ||
      napi_get_array_length(env, argv[2], &count) != napi_ok || napi_get_array_length(env, argv[3], &sizes_count) != napi_ok ||
      count != sizes_count || napi_get_value_double(env, argv[4], &hash_up_to) != napi_ok) {
    free(job);
    napi_throw_type_error(env, NULL, "readFiles(encKey, macKey, paths, sizes, hashUpTo)");
    return NULL;
  }
  job->count = count;
  job->hash_up_to = (size_t)hash_up_to;
  job->items = calloc(count > 0 ? count : 1, sizeof(read_item));
  size_t total = (size_t)count * ID;
  for (uint32_t i = 0; job->items && i < count; i++) {
    napi_value size;
    double size_value = 0;
    if (napi_get_element(env, argv[3], i, &size) != napi_ok || napi_get_value_double(env, size, &size_value) != napi_ok ||
        size_value < 0 || size_value > INT32_MAX - OVERHEAD - 1 || !(job->items[i].path = get_string_at(env, argv[2], i))) {
      job->count = i;
      free_read_job(job);
      napi_throw_type_error(env, NULL, "readFiles: paths must be strings and sizes numbers");
      return NULL;
    }
    job->items[i].size = (size_t)size_value;
    total += job->items[i].size + 1 + OVERHEAD;
  }
  job->buffer = job->items ? malloc(total > 0 ? total : 1) : NULL;
  job->buffer_length = total;
  if (!job->buffer) {
    free_read_job(job);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  return queue(env, &job->base, "bogwan-vault:read", read_execute, read_complete);
}

// ---------------------------------------------------------------- verify a pack span

typedef struct {
  job_base base;
  uint8_t *span;
  size_t span_length;
  uint8_t *ids;
  uint32_t *layout; // from, length per blob
  uint32_t count;
  const char **reasons;
} verify_job;

static void verify_execute(napi_env env, void *p) {
  verify_job *job = p;
  tools *t = take_tools();
  for (uint32_t i = 0; i < job->count; i++) {
    size_t from = job->layout[2 * i];
    size_t length = job->layout[2 * i + 1];
    uint8_t *plain = NULL;
    size_t plain_length = 0;
    if (from + length > job->span_length) {
      job->reasons[i] = "blob lies outside its span";
      continue;
    }
    if (!t) {
      job->reasons[i] = "out of memory";
      continue;
    }
    job->reasons[i] = open_blob(t, job->base.enc_key, job->base.mac_key, job->ids + (size_t)i * ID, job->span + from, length,
                                &plain, &plain_length);
    free(plain);
  }
  give_back_tools(t);
}

static void verify_complete(napi_env env, napi_status status, void *p) {
  verify_job *job = p;
  if (status != napi_ok) reject(env, job->base.deferred, "verifying failed");
  else {
    napi_value failures, pair, index, reason;
    uint32_t n = 0;
    napi_create_array(env, &failures);
    for (uint32_t i = 0; i < job->count; i++) {
      if (!job->reasons[i]) continue;
      napi_create_array_with_length(env, 2, &pair);
      napi_create_uint32(env, i, &index);
      napi_create_string_utf8(env, job->reasons[i], NAPI_AUTO_LENGTH, &reason);
      napi_set_element(env, pair, 0, index);
      napi_set_element(env, pair, 1, reason);
      napi_set_element(env, failures, n++, pair);
    }
    napi_resolve_deferred(env, job->base.deferred, failures);
  }
  release_job(env, &job->base);
  free(job->reasons);
  free(job);
}

/**
 * verifySpan(encKey, macKey, span, ids, layout): Promise<[index, reason][]> of the blobs
 * that fail; ids holds 32 bytes per blob, layout (Uint32Array) its offset and length.
 */
static napi_value VerifySpan(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  verify_job *job = calloc(1, sizeof *job);
  size_t ids_length = 0, layout_count = 0;
  void *layout = NULL;
  if (!job || argc < 5 || !get_key(env, argv[0], job->base.enc_key) || !get_key(env, argv[1], job->base.mac_key) ||
      !get_bytes(env, argv[2], &job->span, &job->span_length) || !get_bytes(env, argv[3], &job->ids, &ids_length) ||
      !get_typed(env, argv[4], napi_uint32_array, &layout, &layout_count) || layout_count % 2 != 0 || ids_length != (layout_count / 2) * ID) {
    free(job);
    napi_throw_type_error(env, NULL, "verifySpan(encKey, macKey, span, ids, layout)");
    return NULL;
  }
  job->layout = layout;
  job->count = (uint32_t)(layout_count / 2);
  job->reasons = calloc(job->count > 0 ? job->count : 1, sizeof(char *));
  if (!job->reasons || !keep(env, &job->base, argv[2]) || !keep(env, &job->base, argv[3]) || !keep(env, &job->base, argv[4])) {
    for (int i = 0; i < job->base.ref_count; i++) napi_delete_reference(env, job->base.refs[i]);
    free(job->reasons);
    free(job);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  return queue(env, &job->base, "bogwan-vault:verify", verify_execute, verify_complete);
}


// ---------------------------------------------------------------- restore a pack span

// What restore does with one target, as pack-tasks.ts restorePack does it on a thread: a
// new one-chunk file is created, written, sized, given its mode and time in one go; a
// chunk of a larger file (sized beforehand) is written at its offset, zeros left as holes.
enum { TARGET_WRITTEN = 0, TARGET_DAMAGED = 1, TARGET_NOT_REACHED = 2 };

typedef struct {
  char *path;
  double offset;
  int whole;
  uint32_t mode;
  double mtime_ms;
  double size;
  int status;
  double written;
  double stat_size;
  double stat_mtime_ms;
} restore_target;

typedef struct {
  job_base base;
  uint8_t *span;
  size_t span_length;
  uint8_t *ids;
  uint32_t *layout;
  uint32_t count;
  uint32_t *target_counts;
  restore_target *targets;
  uint32_t target_total;
  const char **reasons;
  int fatal_errno;
  const char *fatal_call;
  uint32_t fatal_target;
} restore_job;

static int all_zero(const uint8_t *p, size_t n) {
  static const uint8_t zeros[4096];
  while (n > 0) {
    size_t k = n < sizeof zeros ? n : sizeof zeros;
    if (memcmp(p, zeros, k) != 0) return 0;
    p += k;
    n -= k;
  }
  return 1;
}

static int write_all(int fd, const uint8_t *p, size_t n, off_t at) {
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, at);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return 0;
    p += w;
    n -= (size_t)w;
    at += w;
  }
  return 1;
}

/** Seconds as libuv turns them into a timespec for futimes. */
static struct timespec to_timespec(double seconds) {
  struct timespec ts;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  if (ts.tv_nsec < 0) {
    ts.tv_sec -= 1;
    ts.tv_nsec += 1000000000L;
  }
  return ts;
}

/** Files written in several places from one span stay open until the span is done. */
typedef struct {
  const char *path;
  int fd;
} open_file;

static int write_whole(restore_job *job, restore_target *t, const uint8_t *plain, size_t length, int zero) {
  int fd = open(t->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    job->fatal_call = "open";
    return 0;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct timespec times[2] = {to_timespec((double)now.tv_sec + (double)now.tv_nsec / 1e9), to_timespec(t->mtime_ms / 1000)};
  struct stat st;
  const char *failed = NULL;
  if (!zero && !write_all(fd, plain, length, 0)) failed = "write";
  else if ((zero || (double)length != t->size) && ftruncate(fd, (off_t)t->size) != 0) failed = "ftruncate";
  else if (fchmod(fd, t->mode) != 0) failed = "fchmod";
  else if (futimens(fd, times) != 0) failed = "futime";
  else if (fstat(fd, &st) != 0) failed = "fstat";
  int saved = errno;
  close(fd);
  if (failed) {
    errno = saved;
    job->fatal_call = failed;
    return 0;
  }
  t->written = zero ? 0 : (double)length;
  t->stat_size = (double)st.st_size;
  // As Node computes Stats.mtimeMs, so the journal compares equal later.
  t->stat_mtime_ms = (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6;
  return 1;
}

static int write_part(restore_job *job, restore_target *t, const uint8_t *plain, size_t length, open_file *files, uint32_t *open_count) {
  int fd = -1;
  for (uint32_t k = 0; k < *open_count; k++) {
    if (strcmp(files[k].path, t->path) == 0) fd = files[k].fd;
  }
  if (fd < 0) {
    fd = open(t->path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      job->fatal_call = "open";
      return 0;
    }
    files[*open_count].path = t->path;
    files[(*open_count)++].fd = fd;
  }
  if (!write_all(fd, plain, length, (off_t)t->offset)) {
    job->fatal_call = "write";
    return 0;
  }
  t->written = (double)length;
  return 1;
}

static void restore_execute(napi_env env, void *p) {
  restore_job *job = p;
  tools *t = take_tools();
  open_file *files = calloc(job->target_total > 0 ? job->target_total : 1, sizeof(open_file));
  uint32_t open_count = 0;
  uint32_t first = 0;
  for (uint32_t i = 0; i < job->target_total; i++) job->targets[i].status = TARGET_NOT_REACHED;
  for (uint32_t b = 0; b < job->count && !job->fatal_errno; first += job->target_counts[b], b++) {
    size_t from = job->layout[2 * b];
    size_t length = job->layout[2 * b + 1];
    uint8_t *plain = NULL;
    size_t plain_length = 0;
    if (from + length > job->span_length) job->reasons[b] = "blob lies outside its span";
    else if (!t || !files) job->reasons[b] = "out of memory";
    else job->reasons[b] = open_blob(t, job->base.enc_key, job->base.mac_key, job->ids + (size_t)b * ID, job->span + from, length, &plain, &plain_length);
    if (job->reasons[b]) {
      for (uint32_t k = 0; k < job->target_counts[b]; k++) job->targets[first + k].status = TARGET_DAMAGED;
      continue;
    }
    int zero = all_zero(plain, plain_length);
    for (uint32_t k = 0; k < job->target_counts[b]; k++) {
      restore_target *target = &job->targets[first + k];
      int ok = target->whole ? write_whole(job, target, plain, plain_length, zero)
               : zero      ? (target->written = 0, 1) // the file was sized beforehand: zeros stay a hole
                           : write_part(job, target, plain, plain_length, files, &open_count);
      if (!ok) {
        job->fatal_errno = errno ? errno : EIO;
        job->fatal_target = first + k;
        break;
      }
    }
    // A blob whose targets were not all written counts as not reached, as on a thread.
    if (!job->fatal_errno) {
      for (uint32_t k = 0; k < job->target_counts[b]; k++) job->targets[first + k].status = TARGET_WRITTEN;
    }
    free(plain);
  }
  for (uint32_t k = 0; k < open_count; k++) close(files[k].fd);
  free(files);
  give_back_tools(t);
}

static void free_restore_job(restore_job *job) {
  for (uint32_t i = 0; job->targets && i < job->target_total; i++) free(job->targets[i].path);
  free(job->targets);
  free(job->reasons);
  free(job);
}

static void restore_complete(napi_env env, napi_status status, void *p) {
  restore_job *job = p;
  if (status != napi_ok) reject(env, job->base.deferred, "restoring failed");
  else {
    napi_value result, results, reasons, value;
    napi_create_object(env, &result);
    double *numbers = NULL;
    napi_value buffer;
    napi_create_arraybuffer(env, (size_t)job->target_total * 4 * sizeof(double), (void **)&numbers, &buffer);
    for (uint32_t i = 0; i < job->target_total; i++) {
      const restore_target *t = &job->targets[i];
      numbers[4 * i] = t->status;
      numbers[4 * i + 1] = t->written;
      numbers[4 * i + 2] = t->stat_size;
      numbers[4 * i + 3] = t->stat_mtime_ms;
    }
    napi_create_typedarray(env, napi_float64_array, (size_t)job->target_total * 4, buffer, 0, &results);
    napi_set_named_property(env, result, "targets", results);
    napi_create_array_with_length(env, job->count, &reasons);
    for (uint32_t b = 0; b < job->count; b++) {
      if (job->reasons[b]) napi_create_string_utf8(env, job->reasons[b], NAPI_AUTO_LENGTH, &value);
      else napi_get_null(env, &value);
      napi_set_element(env, reasons, b, value);
    }
    napi_set_named_property(env, result, "reasons", reasons);
    if (job->fatal_errno) {
      napi_value fatal;
      char message[512];
      const char *code = uv_err_name(-job->fatal_errno);
      snprintf(message, sizeof message, "%s: %s, %s", code, uv_strerror(-job->fatal_errno), job->fatal_call ? job->fatal_call : "write");
      napi_create_object(env, &fatal);
      napi_create_uint32(env, job->fatal_target, &value);
      napi_set_named_property(env, fatal, "target", value);
      napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &value);
      napi_set_named_property(env, fatal, "code", value);
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &value);
      napi_set_named_property(env, fatal, "message", value);
      napi_set_named_property(env, result, "fatal", fatal);
    }
    napi_resolve_deferred(env, job->base.deferred, result);
  }
  release_job(env, &job->base);
  free_restore_job(job);
}

/**
 * restoreSpan(encKey, macKey, span, ids, layout, targetCounts, paths, specs): Promise<{
 * targets: Float64Array (status, written, size, mtimeMs per target), reasons: (string |
 * null)[] per blob, fatal?: { target, code, message } }>. targetCounts (Uint32Array): the
 * number of targets of each blob, in order; paths: every target's file; specs
 * (Float64Array): offset, whole (0 or 1), mode, mtimeMs, size per target.
 */
static napi_value RestoreSpan(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  restore_job *job = calloc(1, sizeof *job);
  size_t ids_length = 0, layout_count = 0, counts_count = 0, specs_count = 0;
  void *layout = NULL, *counts = NULL, *specs = NULL;
  uint32_t paths_count = 0;
  if (!job || argc < 8 || !get_key(env, argv[0], job->base.enc_key) || !get_key(env, argv[1], job->base.mac_key) ||
      !get_bytes(env, argv[2], &job->span, &job->span_length) || !get_bytes(env, argv[3], &job->ids, &ids_length) ||
      !get_typed(env, argv[4], napi_uint32_array, &layout, &layout_count) ||
      !get_typed(env, argv[5], napi_uint32_array, &counts, &counts_count) || napi_get_array_length(env, argv[6], &paths_count) != napi_ok ||
      !get_typed(env, argv[7], napi_float64_array, &specs, &specs_count) ||
      layout_count % 2 != 0 || ids_length != (layout_count / 2) * ID || counts_count != layout_count / 2 || specs_count != (size_t)paths_count * 5) {
    free(job);
    napi_throw_type_error(env, NULL, "restoreSpan(encKey, macKey, span, ids, layout, targetCounts, paths, specs)");
    return NULL;
  }
  job->layout = layout;
  job->count = (uint32_t)(layout_count / 2);
  job->target_counts = counts;
  uint64_t sum = 0;
  for (uint32_t b = 0; b < job->count; b++) sum += job->target_counts[b];
  if (sum != paths_count) {
    free(job);
    napi_throw_type_error(env, NULL, "restoreSpan: the target counts do not add up to the paths");
    return NULL;
  }
  job->target_total = paths_count;
  job->targets = calloc(paths_count > 0 ? paths_count : 1, sizeof(restore_target));
  job->reasons = calloc(job->count > 0 ? job->count : 1, sizeof(char *));
  const double *spec = specs;
  for (uint32_t i = 0; job->targets && job->reasons && i < paths_count; i++) {
    restore_target *t = &job->targets[i];
    if (!(t->path = get_string_at(env, argv[6], i))) {
      free_restore_job(job);
      napi_throw_type_error(env, NULL, "restoreSpan: paths must be strings");
      return NULL;
    }
    t->offset = spec[5 * i];
    t->whole = spec[5 * i + 1] != 0;
    t->mode = (uint32_t)spec[5 * i + 2];
    t->mtime_ms = spec[5 * i + 3];
    t->size = spec[5 * i + 4];
  }
  if (!job->targets || !job->reasons || !keep(env, &job->base, argv[2]) || !keep(env, &job->base, argv[3]) ||
      !keep(env, &job->base, argv[4]) || !keep(env, &job->base, argv[5])) {
    for (int i = 0; i < job->base.ref_count; i++) napi_delete_reference(env, job->base.refs[i]);
    free_restore_job(job);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  return queue(env, &job->base, "bogwan-vault:restore", restore_execute, restore_complete);
}

NAPI_MODULE_INIT() {
  pthread_once(&fetched, fetch_algorithms);
  if (!hmac_algorithm || !gcm_algorithm) {
    napi_throw_error(env, NULL, "OpenSSL has no HMAC or AES-256-GCM here");
    return NULL;
  }
  const napi_property_descriptor functions[] = {
      {"hash", NULL, Hash, NULL, NULL, NULL, napi_enumerable, NULL},
      {"seal", NULL, Seal, NULL, NULL, NULL, napi_enumerable, NULL},
      {"readFiles", NULL, ReadFiles, NULL, NULL, NULL, napi_enumerable, NULL},
      {"verifySpan", NULL, VerifySpan, NULL, NULL, NULL, napi_enumerable, NULL},
      {"restoreSpan", NULL, RestoreSpan, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}
