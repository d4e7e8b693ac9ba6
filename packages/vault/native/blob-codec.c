// The engine's per-blob work in C, on libuv's thread pool: reading small files whole,
// blob ids (HMAC-SHA-256), zstd, AES-256-GCM sealing and opening. The same layout and
// messages as src/codec.ts, which stays the reference and the fallback.
//
// Why: the JavaScript version runs on worker threads, and each one is a V8 isolate of its
// own (8–10 MiB resident each, plus its heap and its arena in the allocator). Work queued
// here runs on the threads libuv already has, with no isolate and no message copies
// (docs/decisions.md, "Backup engine: round 10").
//
// This file: hashing, sealing and verifying, and the module's functions. codec.c holds
// the per-blob work, jobs.c the JavaScript glue, read-files.c, restore-span.c and
// list-directory.c the other jobs.
//
// OpenSSL comes from the Node binary itself (it exports its symbols and ships the headers
// node-gyp compiles against); zstd is compiled from the sources zstd-napi ships.
#include "jobs.h"

#include <stdbool.h>
#include <stdlib.h>

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
napi_value Hash(napi_env env, napi_callback_info info) {
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
napi_value Seal(napi_env env, napi_callback_info info) {
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
napi_value VerifySpan(napi_env env, napi_callback_info info) {
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


NAPI_MODULE_INIT() {
  if (!codec_ready()) {
    napi_throw_error(env, NULL, "OpenSSL has no HMAC or AES-256-GCM here");
    return NULL;
  }
  const napi_property_descriptor functions[] = {
      {"hash", NULL, Hash, NULL, NULL, NULL, napi_enumerable, NULL},
      {"seal", NULL, Seal, NULL, NULL, NULL, napi_enumerable, NULL},
      {"readFiles", NULL, ReadFiles, NULL, NULL, NULL, napi_enumerable, NULL},
      {"verifySpan", NULL, VerifySpan, NULL, NULL, NULL, napi_enumerable, NULL},
      {"restoreSpan", NULL, RestoreSpan, NULL, NULL, NULL, napi_enumerable, NULL},
      {"listDirectory", NULL, ListDirectory, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}
