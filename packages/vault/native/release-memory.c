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

// Tunes the C allocator for the CLI's work, before its threads start:
// - threads that allocate from now on share the arenas that exist instead of each opening
//   one of its own (glibc opens up to eight per core). The native codec's jobs run on
//   libuv's pool threads; with an arena each, a buffer allocated on one and freed later sat
//   in that thread's arena until the next release, on every thread at once;
// - blocks of `mmapFrom` bytes or more (chunks, sealed and opened blobs) are mapped for
//   themselves and unmapped when freed, instead of staying in an arena between releases
//   (glibc's default threshold starts at 128 KiB and climbs with the blocks freed).
static napi_value TuneAllocator(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int64_t mmap_from = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_int64(env, argv[0], &mmap_from) != napi_ok || mmap_from < 0 || mmap_from > (1 << 30)) {
    napi_throw_type_error(env, NULL, "tuneAllocator(mmapFrom)");
    return NULL;
  }
  int done = 0;
#ifdef __GLIBC__
  done = mallopt(M_ARENA_MAX, 1) && (mmap_from == 0 || mallopt(M_MMAP_THRESHOLD, (int)mmap_from));
#endif
  napi_value result;
  napi_get_boolean(env, done != 0, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "releaseFreeMemory", NAPI_AUTO_LENGTH, ReleaseFreeMemory, NULL, &fn);
  napi_set_named_property(env, exports, "releaseFreeMemory", fn);
  napi_create_function(env, "tuneAllocator", NAPI_AUTO_LENGTH, TuneAllocator, NULL, &fn);
  napi_set_named_property(env, exports, "tuneAllocator", fn);
  return exports;
}
