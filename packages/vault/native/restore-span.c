// Restoring a pack span: each blob opened, checked and written to its files (the native
// side of pack-tasks.ts restorePack).
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

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
napi_value RestoreSpan(napi_env env, napi_callback_info info) {
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
