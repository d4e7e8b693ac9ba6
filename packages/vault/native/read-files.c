// Reading small files whole for a backup, sealing the one-chunk ones in place (the
// native side of file-readers.ts).
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
napi_value ReadFiles(napi_env env, napi_callback_info info) {
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
