// Glue between JavaScript and the native codec's jobs (jobs.c): arguments, promises,
// buffers handed over without a copy.
#ifndef BOGWAN_VAULT_JOBS_H
#define BOGWAN_VAULT_JOBS_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>

#include "codec.h"

#define CHECK(call)                                                       \
  do {                                                                    \
    if ((call) != napi_ok) {                                              \
      napi_throw_error(env, NULL, "bogwan-vault native codec: bad call"); \
      return NULL;                                                        \
    }                                                                     \
  } while (0)

/** A job's inputs stay referenced (not collected, not moved) until it completes. */
typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref refs[4];
  int ref_count;
  uint8_t enc_key[KEY];
  uint8_t mac_key[KEY];
} job_base;

/** A Buffer over malloc'd bytes, freed with it; V8 is told of their size. */
napi_value own_buffer(napi_env env, uint8_t *bytes, size_t length);
/** The bytes of a Buffer or Uint8Array. */
int get_bytes(napi_env env, napi_value value, uint8_t **data, size_t *length);
/** A 32-byte key, copied. */
int get_key(napi_env env, napi_value value, uint8_t out[KEY]);
/** The elements of a typed array of `type`, and their count. */
int get_typed(napi_env env, napi_value value, napi_typedarray_type type, void **data, size_t *count);
/** A JavaScript string as a malloc'd C string; NULL if it is not one. */
char *get_string(napi_env env, napi_value value);
/** Element i of a JavaScript array of strings, as a malloc'd C string; NULL if it is not one. */
char *get_string_at(napi_env env, napi_value array, uint32_t i);
/** Keeps a value referenced until the job completes. */
int keep(napi_env env, job_base *job, napi_value value);
/** Drops the job's references and keys; the caller frees the job. */
void release_job(napi_env env, job_base *job);
/** Queues the job on libuv's thread pool; answers its promise. */
napi_value queue(napi_env env, job_base *job, const char *name, napi_async_execute_callback execute, napi_async_complete_callback complete);
void reject(napi_env env, napi_deferred deferred, const char *message);

/** The codec's functions, one module each. */
napi_value Hash(napi_env env, napi_callback_info info);
napi_value Seal(napi_env env, napi_callback_info info);
napi_value VerifySpan(napi_env env, napi_callback_info info);
napi_value ReadFiles(napi_env env, napi_callback_info info);
napi_value RestoreSpan(napi_env env, napi_callback_info info);
napi_value ListDirectory(napi_env env, napi_callback_info info);

#endif
