// The console transport's receiving end: one thread per worker drains the worker's stdout pipe at
// kernel speed into a capture file, as `cat > file` would, and nothing else. Checking the lines is
// done on the capture file after the run, off the critical path: a reader that checks as it reads
// lets the pipe fill, and a logger writing to a full non-blocking pipe waits (pino's SonicBoom
// sleeps 100 ms on EAGAIN), so the harness would measure itself instead of the logger.
//
// JS API (Linux only):
//   open(pipeBytes, capturePath, onEnd) -> [handle, writeFd, grantedPipeBytes]
//     Makes a pipe (both ends close-on-exec; the write end is given to one worker as its stdout and
//     duplicated there, which clears the flag), asks for pipeBytes of pipe buffer (F_SETPIPE_SZ,
//     capped by /proc/sys/fs/pipe-max-size), creates capturePath exclusively (O_EXCL, 0600) and
//     starts the thread. The caller closes its copy of writeFd once the worker is forked.
//     onEnd(lastDataNs: bigint, bytes: number, error: string|null, arrivals: Float64Array|null) is
//     called once, when every write end has been closed (the worker exited) and the capture file is
//     closed, or on stop(). arrivals: when the bytes arrived, [bytesSoFar, ns, bytesSoFar, ns, …]
//     after the reads (ns on CLOCK_MONOTONIC); reads within ARRIVAL_MERGE_NS of a pair's first
//     extend that pair, so there is at most one pair per ms; null when it could not be kept.
//   stats(handle) -> [bytes, newlines]: what has been read so far (for live progress).
//   stop(handle): ends the thread early (a failed or interrupted run); onEnd still follows.
//   timesArrivals: true (onEnd hands the arrivals over).
#define _GNU_SOURCE
#include <node_api.h>
#include "napi_common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define READ_BYTES (1 << 20)
#define ARRIVAL_MERGE_NS 1000000ull

typedef struct {
  int read_fd;
  int capture_fd;
  int wake_fd;
  atomic_llong bytes;
  atomic_llong newlines;
  uint64_t last_data_ns;
  char error[160];
  pthread_t thread;
  napi_threadsafe_function tsfn;
  atomic_int joined;
  double *arrivals;
  size_t arrival_pairs;
  size_t arrival_capacity;
  uint64_t pair_first_ns;
  int arrivals_lost;
} reader_t;

// Notes that the bytes so far had arrived by now (see onEnd's arrivals).
static void note_arrival (reader_t *r, long long bytes, uint64_t ns) {
  if (r->arrivals_lost) return;
  if (r->arrival_pairs > 0 && ns - r->pair_first_ns < ARRIVAL_MERGE_NS) {
    r->arrivals[2 * r->arrival_pairs - 2] = (double)bytes;
    r->arrivals[2 * r->arrival_pairs - 1] = (double)ns;
    return;
  }
  if (r->arrival_pairs == r->arrival_capacity) {
    size_t capacity = r->arrival_capacity ? 2 * r->arrival_capacity : 1024;
    double *grown = realloc(r->arrivals, capacity * 2 * sizeof *grown);
    if (grown == NULL) {
      r->arrivals_lost = 1;
      return;
    }
    r->arrivals = grown;
    r->arrival_capacity = capacity;
  }
  r->pair_first_ns = ns;
  r->arrivals[2 * r->arrival_pairs] = (double)bytes;
  r->arrivals[2 * r->arrival_pairs + 1] = (double)ns;
  r->arrival_pairs++;
}

static int write_all (int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = write(fd, data, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) {
      errno = ENOSPC;
      return -1;
    }
    data += n;
    length -= (size_t)n;
  }
  return 0;
}

static void *drain (void *arg) {
  reader_t *r = arg;
  char *buffer = malloc(READ_BYTES);
  struct pollfd fds[2] = { { .fd = r->read_fd, .events = POLLIN }, { .fd = r->wake_fd, .events = POLLIN } };
  if (buffer == NULL) snprintf(r->error, sizeof r->error, "out of memory");
  while (buffer != NULL) {
    // Blocking read with poll first, so stop() can wake the thread; the pipe's read end is blocking.
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      snprintf(r->error, sizeof r->error, "poll: %s", strerror(errno));
      break;
    }
    if (fds[1].revents & POLLIN) break;
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t n = read(r->read_fd, buffer, READ_BYTES);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      snprintf(r->error, sizeof r->error, "reading the pipe: %s", strerror(errno));
      break;
    }
    if (n == 0) break;
    r->last_data_ns = now_ns();
    long long lines = 0;
    for (char *p = buffer, *end = buffer + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) lines++;
    atomic_fetch_add(&r->newlines, lines);
    note_arrival(r, atomic_fetch_add(&r->bytes, (long long)n) + n, r->last_data_ns);
    if (write_all(r->capture_fd, buffer, (size_t)n) != 0) {
      snprintf(r->error, sizeof r->error, "writing the capture file: %s", strerror(errno));
      break;
    }
  }
  free(buffer);
  if (close(r->capture_fd) != 0 && r->error[0] == 0) snprintf(r->error, sizeof r->error, "closing the capture file: %s", strerror(errno));
  close(r->read_fd);
  napi_call_threadsafe_function(r->tsfn, NULL, napi_tsfn_blocking);
  return NULL;
}

static void call_js (napi_env env, napi_value js_callback, void *context, void *data) {
  reader_t *r = context;
  if (!atomic_exchange(&r->joined, 1)) pthread_join(r->thread, NULL);
  if (env == NULL || js_callback == NULL) return;
  napi_value argv[4], undefined;
  napi_create_bigint_uint64(env, r->last_data_ns, &argv[0]);
  napi_create_double(env, (double)atomic_load(&r->bytes), &argv[1]);
  if (r->error[0]) napi_create_string_utf8(env, r->error, NAPI_AUTO_LENGTH, &argv[2]);
  else napi_get_null(env, &argv[2]);
  void *copy = NULL;
  napi_value buffer;
  size_t length = r->arrival_pairs * 2;
  if (!r->arrivals_lost && napi_create_arraybuffer(env, length * sizeof(double), &copy, &buffer) == napi_ok) {
    if (length) memcpy(copy, r->arrivals, length * sizeof(double));
    napi_create_typedarray(env, napi_float64_array, length, buffer, 0, &argv[3]);
  } else {
    napi_get_null(env, &argv[3]);
  }
  free(r->arrivals);
  r->arrivals = NULL;
  napi_get_undefined(env, &undefined);
  napi_call_function(env, undefined, js_callback, 4, argv, NULL);
  napi_release_threadsafe_function(r->tsfn, napi_tsfn_release);
}

static void finalize_tsfn (napi_env env, void *data, void *hint) {
  reader_t *r = data;
  close(r->wake_fd);
  // The JS handle may outlive the reader; it only ever reads the counters through stats(), which
  // checks this flag, so the memory stays until the handle is collected.
  atomic_store(&r->joined, 2);
}

static void finalize_handle (napi_env env, void *data, void *hint) {
  reader_t *r = data;
  // Collected only after onEnd (the handle is kept by the receiver until then).
  if (atomic_load(&r->joined) == 2) free(r);
}

static napi_value throw_errno (napi_env env, const char *what, int err) {
  char message[200];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value js_open (napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) {
    napi_throw_error(env, NULL, "open(pipeBytes, capturePath, onEnd)");
    return NULL;
  }
  int32_t wanted = 0;
  char path[4096];
  size_t path_len = 0;
  napi_get_value_int32(env, argv[0], &wanted);
  if (napi_get_value_string_utf8(env, argv[1], path, sizeof path, &path_len) != napi_ok || path_len >= sizeof path - 1) {
    napi_throw_error(env, NULL, "capture path missing or too long");
    return NULL;
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return throw_errno(env, "pipe2", errno);
  if (wanted > 0) fcntl(fds[1], F_SETPIPE_SZ, wanted);
  int granted = fcntl(fds[1], F_GETPIPE_SZ);
  int capture = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (capture < 0) {
    int err = errno;
    close(fds[0]);
    close(fds[1]);
    return throw_errno(env, "creating the capture file", err);
  }
  int wake = eventfd(0, EFD_CLOEXEC);
  reader_t *r = calloc(1, sizeof *r);
  if (wake < 0 || r == NULL) {
    int err = wake < 0 ? errno : ENOMEM;
    if (wake >= 0) close(wake);
    free(r);
    close(capture);
    close(fds[0]);
    close(fds[1]);
    return throw_errno(env, "starting the pipe reader", err);
  }
  r->read_fd = fds[0];
  r->capture_fd = capture;
  r->wake_fd = wake;
  napi_value name;
  napi_create_string_utf8(env, "log-bench pipe reader", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[2], NULL, name, 0, 1, r, finalize_tsfn, r, call_js, &r->tsfn) != napi_ok ||
      pthread_create(&r->thread, NULL, drain, r) != 0) {
    close(wake);
    close(capture);
    close(fds[0]);
    close(fds[1]);
    free(r);
    napi_throw_error(env, NULL, "cannot start the pipe reader thread");
    return NULL;
  }
  napi_value out, handle, write_fd, granted_value;
  napi_create_external(env, r, finalize_handle, NULL, &handle);
  napi_create_int32(env, fds[1], &write_fd);
  napi_create_int32(env, granted, &granted_value);
  napi_create_array_with_length(env, 3, &out);
  napi_set_element(env, out, 0, handle);
  napi_set_element(env, out, 1, write_fd);
  napi_set_element(env, out, 2, granted_value);
  return out;
}

static reader_t *unwrap (napi_env env, napi_callback_info info) {
  return unwrap_handle(env, info);
}

static napi_value js_stats (napi_env env, napi_callback_info info) {
  reader_t *r = unwrap(env, info);
  if (!r) return NULL;
  napi_value out, bytes, lines;
  napi_create_array_with_length(env, 2, &out);
  napi_create_double(env, (double)atomic_load(&r->bytes), &bytes);
  napi_create_double(env, (double)atomic_load(&r->newlines), &lines);
  napi_set_element(env, out, 0, bytes);
  napi_set_element(env, out, 1, lines);
  return out;
}

static napi_value js_stop (napi_env env, napi_callback_info info) {
  reader_t *r = unwrap(env, info);
  if (!r || atomic_load(&r->joined)) return NULL;
  uint64_t one = 1;
  if (write(r->wake_fd, &one, sizeof one) < 0) { /* the thread has ended already */ }
  return NULL;
}

static napi_value init (napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    { "open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL },
    { "stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL },
    { "stop", NULL, js_stop, NULL, NULL, NULL, napi_default, NULL },
    { "timesArrivals", NULL, NULL, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_get_boolean(env, true, &props[3].value);
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
