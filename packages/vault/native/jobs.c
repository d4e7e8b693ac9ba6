// Glue between JavaScript and the native codec's jobs (jobs.h).
#include "jobs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

static void free_bytes(napi_env env, void *data, void *hint) {
  int64_t adjusted = 0;
  napi_adjust_external_memory(env, -(int64_t)(intptr_t)hint, &adjusted);
  free(data);
}

/** A Buffer over malloc'd bytes, freed with it; V8 is told of their size. */
napi_value own_buffer(napi_env env, uint8_t *bytes, size_t length) {
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

int get_bytes(napi_env env, napi_value value, uint8_t **data, size_t *length) {
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

int get_key(napi_env env, napi_value value, uint8_t out[KEY]) {
  uint8_t *p;
  size_t n;
  if (!get_bytes(env, value, &p, &n) || n != KEY) return 0;
  memcpy(out, p, KEY);
  return 1;
}

/** The elements of a typed array of `type`, and their count. */
int get_typed(napi_env env, napi_value value, napi_typedarray_type type, void **data, size_t *count) {
  napi_typedarray_type actual;
  napi_value buffer;
  size_t offset;
  return napi_get_typedarray_info(env, value, &actual, count, data, &buffer, &offset) == napi_ok && actual == type;
}

/** A JavaScript string as a malloc'd C string; NULL if it is not one. */
char *get_string(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text) napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

/** Element i of a JavaScript array of strings, as a malloc'd C string; NULL if it is not one. */
char *get_string_at(napi_env env, napi_value array, uint32_t i) {
  napi_value value;
  return napi_get_element(env, array, i, &value) == napi_ok ? get_string(env, value) : NULL;
}


void release_job(napi_env env, job_base *job) {
  for (int i = 0; i < job->ref_count; i++) napi_delete_reference(env, job->refs[i]);
  napi_delete_async_work(env, job->work);
  OPENSSL_cleanse(job->enc_key, KEY);
  OPENSSL_cleanse(job->mac_key, KEY);
}

int keep(napi_env env, job_base *job, napi_value value) {
  return napi_create_reference(env, value, 1, &job->refs[job->ref_count++]) == napi_ok;
}

napi_value queue(napi_env env, job_base *job, const char *name, napi_async_execute_callback execute,
                        napi_async_complete_callback complete) {
  napi_value promise, resource_name;
  CHECK(napi_create_promise(env, &job->deferred, &promise));
  CHECK(napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource_name));
  CHECK(napi_create_async_work(env, NULL, resource_name, execute, complete, job, &job->work));
  CHECK(napi_queue_async_work(env, job->work));
  return promise;
}

void reject(napi_env env, napi_deferred deferred, const char *message) {
  napi_value text, error;
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, NULL, text, &error);
  napi_reject_deferred(env, deferred, error);
}
