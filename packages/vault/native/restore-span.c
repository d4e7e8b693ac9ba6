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

#include <openssl/crypto.h>
#include <uv.h>
#include <zstd.h>

// What restore does with one target, as pack-tasks.ts restorePack does it on a thread: a
// new one-chunk file is created, written, sized, given its mode and time in one go; a
// chunk of a larger file (sized beforehand) is written at its offset, zeros left as holes.
enum { TARGET_WRITTEN = 0, TARGET_DAMAGED = 1, TARGET_NOT_REACHED = 2 };

typedef struct {
  char *path;
  double offset;
  int whole;
  /** The file was created empty and sized by this restore: zeros may stay holes. */
  int holes;
  uint32_t mode;
  double mtime_ms;
  double size;
  int status;
  double written;
  double stat_size;
  double stat_mtime_ms;
  /** A new one-chunk file while it is written (-1 otherwise), and the end of its last write. */
  int fd;
  double end;
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

// A blob is written in pieces of at most PIECE bytes: a raw one straight from its span, a
// compressed one decompressed piece by piece into the job's scratch buffer. A job therefore
// holds its span and one piece, not a copy of the blob and its whole decompressed form
// (up to twice the largest chunk, 8 MiB, per job before).
#define PIECE ((size_t)1 << 20)

/** What one span's writes share: its open files, and the target whose write failed. */
typedef struct {
  restore_job *job;
  open_file *files;
  uint32_t open_count;
} writes;

/** A new one-chunk file is created at its first piece that is not zeros (or when finished). */
static int open_whole(writes *w, restore_target *t) {
  if (t->fd >= 0) return 1;
  t->fd = open(t->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (t->fd < 0) {
    w->job->fatal_call = "open";
    return 0;
  }
  return 1;
}

static int part_fd(writes *w, restore_target *t) {
  for (uint32_t k = 0; k < w->open_count; k++) {
    if (strcmp(w->files[k].path, t->path) == 0) return w->files[k].fd;
  }
  int fd = open(t->path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    w->job->fatal_call = "open";
    return -1;
  }
  w->files[w->open_count].path = t->path;
  w->files[w->open_count++].fd = fd;
  return fd;
}

/**
 * Writes `length` bytes found at `at` in the blob to a target. Zeros are not written into a
 * file this restore created (a new one-chunk file is sized when finished, a larger one was
 * sized beforehand), so they stay holes; into a file that existed they are written.
 */
static int put_piece(writes *w, restore_target *t, const uint8_t *piece, size_t length, size_t at) {
  if (length == 0 || (t->holes && all_zero(piece, length))) return 1;
  int fd = t->whole ? (open_whole(w, t) ? t->fd : -1) : part_fd(w, t);
  if (fd < 0) return 0;
  if (!write_all(fd, piece, length, (off_t)(t->offset + (double)at))) {
    w->job->fatal_call = "write";
    return 0;
  }
  t->written += (double)length;
  t->end = (double)(at + length);
  return 1;
}

/** A new one-chunk file, once all its bytes are written: sized, given its mode and time, stat'ed, closed. */
static int finish_whole(writes *w, restore_target *t) {
  if (!open_whole(w, t)) return 0;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct timespec times[2] = {to_timespec((double)now.tv_sec + (double)now.tv_nsec / 1e9), to_timespec(t->mtime_ms / 1000)};
  struct stat st;
  const char *failed = NULL;
  if (t->end != t->size && ftruncate(t->fd, (off_t)t->size) != 0) failed = "ftruncate";
  else if (fchmod(t->fd, t->mode) != 0) failed = "fchmod";
  else if (futimens(t->fd, times) != 0) failed = "futime";
  else if (fstat(t->fd, &st) != 0) failed = "fstat";
  int saved = errno;
  close(t->fd);
  t->fd = -1;
  if (failed) {
    errno = saved;
    w->job->fatal_call = failed;
    return 0;
  }
  t->stat_size = (double)st.st_size;
  // As Node computes Stats.mtimeMs, so the journal compares equal later.
  t->stat_mtime_ms = (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6;
  return 1;
}

/** A piece to every target of a blob; 0 (and the job's fatal error set) when a write failed. */
static int put_to_targets(writes *w, restore_target *targets, uint32_t count, uint32_t first, const uint8_t *piece, size_t length, size_t at) {
  for (uint32_t k = 0; k < count; k++) {
    if (!put_piece(w, &targets[k], piece, length, at)) {
      w->job->fatal_errno = errno ? errno : EIO;
      w->job->fatal_target = first + k;
      return 0;
    }
  }
  return 1;
}

static int finish_targets(writes *w, restore_target *targets, uint32_t count, uint32_t first) {
  for (uint32_t k = 0; k < count; k++) {
    if (targets[k].whole && !finish_whole(w, &targets[k])) {
      w->job->fatal_errno = errno ? errno : EIO;
      w->job->fatal_target = first + k;
      return 0;
    }
  }
  return 1;
}

/**
 * Decompresses a zstd payload piece by piece into the scratch buffer, hashing as it goes,
 * and writes the pieces. A blob of at most one piece is checked against its id before
 * anything is written; a larger one is written as it is decompressed (its tag has been
 * checked already) and answered damaged, its files failed, when the content does not match.
 */
static const char *restore_zstd(writes *w, tools *t, const uint8_t *id, const uint8_t *payload, size_t length, restore_target *targets,
                                uint32_t count, uint32_t first, int *wrote_fatal) {
  unsigned long long size = ZSTD_getFrameContentSize(payload, length);
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR || size > MAX_PLAIN) return "blob could not be decompressed";
  if (!grow_scratch(t, PIECE)) return "out of memory";
  if (!t->decompress && !(t->decompress = ZSTD_createDCtx())) return "out of memory";
  if (ZSTD_isError(ZSTD_DCtx_reset(t->decompress, ZSTD_reset_session_only))) return "blob could not be decompressed";
  if (!id_begin(t, w->job->base.mac_key)) return "out of memory";
  int single = size <= PIECE;
  ZSTD_inBuffer in = {payload, length, 0};
  size_t total = 0;
  size_t left = 1;
  while (left != 0) {
    ZSTD_outBuffer out = {t->scratch, PIECE, 0};
    while (out.pos < out.size) {
      size_t before_in = in.pos, before_out = out.pos;
      left = ZSTD_decompressStream(t->decompress, &out, &in);
      if (ZSTD_isError(left)) return "blob could not be decompressed";
      if (left == 0) break;
      if (in.pos == before_in && out.pos == before_out) return "blob could not be decompressed"; // truncated
    }
    if (total + out.pos > size) return "blob could not be decompressed";
    id_update(t, t->scratch, out.pos);
    if (!single && !put_to_targets(w, targets, count, first, t->scratch, out.pos, total)) {
      *wrote_fatal = 1;
      return NULL;
    }
    total += out.pos;
  }
  uint8_t check[ID];
  if (in.pos != in.size || total != size) return "blob could not be decompressed";
  if (!id_end(t, check) || CRYPTO_memcmp(check, id, ID) != 0) return "content does not match its id";
  if (single && !put_to_targets(w, targets, count, first, t->scratch, total, 0)) {
    *wrote_fatal = 1;
    return NULL;
  }
  return NULL;
}

static void restore_execute(napi_env env, void *p) {
  restore_job *job = p;
  tools *t = take_tools();
  writes w = {job, calloc(job->target_total > 0 ? job->target_total : 1, sizeof(open_file)), 0};
  uint32_t first = 0;
  for (uint32_t i = 0; i < job->target_total; i++) {
    job->targets[i].status = TARGET_NOT_REACHED;
    job->targets[i].fd = -1;
  }
  for (uint32_t b = 0; b < job->count && !job->fatal_errno; first += job->target_counts[b], b++) {
    size_t from = job->layout[2 * b];
    size_t length = job->layout[2 * b + 1];
    const uint8_t *id = job->ids + (size_t)b * ID;
    restore_target *targets = &job->targets[first];
    uint32_t count = job->target_counts[b];
    uint8_t flag = FLAG_RAW;
    uint8_t *payload = NULL;
    size_t payload_length = 0;
    int fatal = 0;
    // The span is this job's: each blob is decrypted where it lies, without a copy.
    if (from + length > job->span_length) job->reasons[b] = "blob lies outside its span";
    else if (!t || !w.files) job->reasons[b] = "out of memory";
    else job->reasons[b] = open_in_place(t, job->base.enc_key, id, job->span + from, length, &flag, &payload, &payload_length);
    if (!job->reasons[b] && flag == FLAG_RAW) {
      uint8_t check[ID];
      if (!blob_id(t, job->base.mac_key, payload, payload_length, check) || CRYPTO_memcmp(check, id, ID) != 0)
        job->reasons[b] = "content does not match its id";
      else fatal = !put_to_targets(&w, targets, count, first, payload, payload_length, 0);
    } else if (!job->reasons[b]) {
      job->reasons[b] = restore_zstd(&w, t, id, payload, payload_length, targets, count, first, &fatal);
    }
    if (!job->reasons[b] && !fatal) fatal = !finish_targets(&w, targets, count, first);
    // Files a damaged blob had begun (a large compressed one) are closed; they are failed.
    for (uint32_t k = 0; k < count; k++) {
      if (targets[k].fd >= 0) close(targets[k].fd);
      targets[k].fd = -1;
    }
    if (job->reasons[b]) {
      for (uint32_t k = 0; k < count; k++) targets[k].status = TARGET_DAMAGED;
      continue;
    }
    // A blob whose targets were not all written counts as not reached, as on a thread.
    if (!fatal) {
      for (uint32_t k = 0; k < count; k++) targets[k].status = TARGET_WRITTEN;
    }
  }
  for (uint32_t k = 0; k < w.open_count; k++) close(w.files[k].fd);
  free(w.files);
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
 * (Float64Array): offset, kind (1 a new one-chunk file, 2 a part of a file the restore
 * created, 0 a part of one that existed), mode, mtimeMs, size per target.
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
    t->whole = spec[5 * i + 1] == 1;
    t->holes = spec[5 * i + 1] != 0;
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
