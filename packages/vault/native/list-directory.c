// Listing one directory for a backup's walk: every entry's name and lstat, and a symlink's
// target (the native side of native-walk.ts). Several directories are listed at once on
// libuv's pool, so a cold disk serves several inode reads at a time.
#include "jobs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h>

// Per entry: kind (0 file, 1 dir, 2 symlink, 3 anything else), mode, mtimeMs, ctimeMs,
// inode, uid, gid, size: the order of background-walk.ts's EncodedEntries.
#define FIELDS 8

typedef struct {
  char *name;
  double numbers[FIELDS];
  char *target;
} listed_entry;

typedef struct {
  job_base base;
  char *path;
  listed_entry *entries;
  size_t count;
  size_t capacity;
  int failed_errno;
  const char *failed_call;
} list_job;

/** As Node computes Stats.mtimeMs and ctimeMs. */
static double milliseconds(struct timespec ts) {
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *read_link(int dir, const char *name, size_t size_hint) {
  size_t room = size_hint > 0 ? size_hint + 1 : 256;
  for (;;) {
    char *target = malloc(room);
    if (!target) return NULL;
    ssize_t n = readlinkat(dir, name, target, room);
    if (n < 0) {
      free(target);
      return NULL;
    }
    if ((size_t)n < room) {
      target[n] = '\0';
      return target;
    }
    free(target);
    room *= 2;
  }
}

static int add_entry(list_job *job, int dir, const char *name) {
  struct stat st;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    job->failed_call = "lstat";
    return 0;
  }
  if (job->count == job->capacity) {
    size_t capacity = job->capacity ? job->capacity * 2 : 64;
    listed_entry *bigger = realloc(job->entries, capacity * sizeof(listed_entry));
    if (!bigger) return 0;
    job->entries = bigger;
    job->capacity = capacity;
  }
  listed_entry *e = &job->entries[job->count];
  e->target = NULL;
  e->name = strdup(name);
  if (!e->name) return 0;
  int kind = S_ISREG(st.st_mode) ? 0 : S_ISDIR(st.st_mode) ? 1 : S_ISLNK(st.st_mode) ? 2 : 3;
  if (kind == 2 && !(e->target = read_link(dir, name, (size_t)st.st_size))) {
    free(e->name);
    job->failed_call = "readlink";
    return 0;
  }
  const double numbers[FIELDS] = {kind, st.st_mode, milliseconds(st.st_mtim), milliseconds(st.st_ctim), (double)st.st_ino,
                                  st.st_uid, st.st_gid, kind == 0 ? (double)st.st_size : 0};
  memcpy(e->numbers, numbers, sizeof numbers);
  job->count++;
  return 1;
}

static void list_execute(napi_env env, void *p) {
  list_job *job = p;
  int fd = open(job->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
  if (!dir) {
    job->failed_errno = errno;
    job->failed_call = "scandir";
    if (fd >= 0) close(fd);
    return;
  }
  for (;;) {
    errno = 0;
    struct dirent *d = readdir(dir);
    if (!d) {
      if (errno != 0) {
        job->failed_errno = errno;
        job->failed_call = "scandir";
      }
      break;
    }
    if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
    if (!add_entry(job, dirfd(dir), d->d_name)) {
      job->failed_errno = errno ? errno : ENOMEM;
      break;
    }
  }
  closedir(dir);
}

static void free_list_job(list_job *job) {
  for (size_t i = 0; i < job->count; i++) {
    free(job->entries[i].name);
    free(job->entries[i].target);
  }
  free(job->entries);
  free(job->path);
  free(job);
}

static void list_complete(napi_env env, napi_status status, void *p) {
  list_job *job = p;
  if (status != napi_ok) reject(env, job->base.deferred, "listing failed");
  else if (job->failed_errno) {
    // Worded and coded as Node's own lstat or readdir error.
    napi_value error, text, value;
    const char *code = uv_err_name(-job->failed_errno);
    size_t length = strlen(code) + strlen(job->path) + 128;
    char *message = malloc(length);
    if (message) snprintf(message, length, "%s: %s, %s '%s'", code, uv_strerror(-job->failed_errno), job->failed_call, job->path);
    napi_create_string_utf8(env, message ? message : code, NAPI_AUTO_LENGTH, &text);
    free(message);
    napi_create_error(env, NULL, text, &error);
    napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &value);
    napi_set_named_property(env, error, "code", value);
    napi_create_string_utf8(env, job->failed_call, NAPI_AUTO_LENGTH, &value);
    napi_set_named_property(env, error, "syscall", value);
    napi_create_string_utf8(env, job->path, NAPI_AUTO_LENGTH, &value);
    napi_set_named_property(env, error, "path", value);
    napi_reject_deferred(env, job->base.deferred, error);
  } else {
    napi_value result, names, targets, numbers, buffer, value;
    double *data = NULL;
    napi_create_object(env, &result);
    napi_create_array_with_length(env, job->count, &names);
    napi_create_object(env, &targets);
    napi_create_arraybuffer(env, job->count * FIELDS * sizeof(double), (void **)&data, &buffer);
    for (size_t i = 0; i < job->count; i++) {
      const listed_entry *e = &job->entries[i];
      napi_create_string_utf8(env, e->name, NAPI_AUTO_LENGTH, &value);
      napi_set_element(env, names, (uint32_t)i, value);
      memcpy(data + i * FIELDS, e->numbers, sizeof e->numbers);
      if (e->target) {
        napi_create_string_utf8(env, e->target, NAPI_AUTO_LENGTH, &value);
        napi_set_element(env, targets, (uint32_t)i, value);
      }
    }
    napi_create_typedarray(env, napi_float64_array, job->count * FIELDS, buffer, 0, &numbers);
    napi_set_named_property(env, result, "names", names);
    napi_set_named_property(env, result, "numbers", numbers);
    napi_set_named_property(env, result, "targets", targets);
    napi_resolve_deferred(env, job->base.deferred, result);
  }
  release_job(env, &job->base);
  free_list_job(job);
}

/**
 * listDirectory(path): Promise<{ names, numbers, targets }>: the entries of a directory in
 * the order the file system gives them, eight numbers each (FIELDS) and symlink targets
 * by position; fails with Node's error code and wording.
 */
napi_value ListDirectory(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  list_job *job = calloc(1, sizeof *job);
  if (!job || argc < 1 || !(job->path = get_string(env, argv[0]))) {
    free(job);
    napi_throw_type_error(env, NULL, "listDirectory(path)");
    return NULL;
  }
  return queue(env, &job->base, "bogwan-vault:list", list_execute, list_complete);
}
