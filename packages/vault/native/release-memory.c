// Gives memory the C allocator holds but no longer uses back to the system.
//
// Node frees a buffer's bytes with free(); glibc keeps freed memory in per-thread arenas
// for reuse and returns it to the system only from the top of each heap. A backup frees
// hundreds of MiB of short-lived buffers on eight threads, so without this the process
// keeps tens of MiB it does not use (docs/decisions.md, "The engine gives freed allocator
// memory back during a backup").
#include <node_api.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

static napi_value ReleaseFreeMemory(napi_env env, napi_callback_info info) {
  (void)info;
  int released = 0;
#ifdef __GLIBC__
  released = malloc_trim(0);
#endif
  napi_value result;
  napi_get_boolean(env, released != 0, &result);
  return result;
}

// Makes threads that have not allocated yet share the arenas that exist instead of each
// opening one of its own (glibc opens up to eight per core). The native codec's jobs run
// on libuv's pool threads, which start with the first job: with an arena each, a buffer
// sealed on one thread and freed on another sat in that thread's arena until the next
// release, on every thread at once.
static napi_value ShareArenas(napi_env env, napi_callback_info info) {
  (void)info;
  int done = 0;
#ifdef __GLIBC__
  done = mallopt(M_ARENA_MAX, 1);
#endif
  napi_value result;
  napi_get_boolean(env, done != 0, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "releaseFreeMemory", NAPI_AUTO_LENGTH, ReleaseFreeMemory, NULL, &fn);
  napi_set_named_property(env, exports, "releaseFreeMemory", fn);
  napi_create_function(env, "shareArenas", NAPI_AUTO_LENGTH, ShareArenas, NULL, &fn);
  napi_set_named_property(env, exports, "shareArenas", fn);
  return exports;
}
