// A UDP receiver for the embedded syslog sink: a thread drains the socket with recvmmsg(2) into
// batches and hands them to JavaScript, which parses and verifies them. The kernel's receive
// buffer is thereby emptied as fast as C can, not as fast as a 'message' event per datagram can;
// if the JavaScript side falls behind, datagrams wait in this process's memory instead of being
// dropped by the kernel. With CAP_NET_ADMIN the buffer is set with SO_RCVBUFFORCE, as rsyslog does.
//
// JS API (Linux only):
//   open(host, port, bufferBytes, nice, onBatch) -> handle; onBatch(buffer, lastArrivalNs: bigint)
//     gets batches of [u32 little-endian length][bytes] records, in arrival order. The receiving
//     thread (only it) asks for scheduling priority `nice` (Linux sets nice per thread).
//   port(handle), bufferBytes(handle), forced(handle), nice(handle): the thread's nice once started,
//   stats(handle) -> [datagrams, queuedBytes, maxQueuedBytes]
//   close(handle): stops the thread, closes the socket; batches already queued are still delivered.
#define _GNU_SOURCE
#include <node_api.h>
#include "napi_common.h"
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define VLEN 256
#define SLOT_BYTES 65536
#define BATCH_BYTES (512 * 1024)
// Above this much waiting for JavaScript, the thread pauses and the kernel buffer takes the rest.
#define MAX_QUEUED_BYTES ((int64_t)1 << 30)

typedef struct {
  int fd;
  int port;
  int buffer_bytes;
  int forced;
  int wanted_nice;
  atomic_int nice;
  atomic_int started;
  atomic_int stop;
  atomic_llong datagrams;
  atomic_llong queued_bytes;
  atomic_llong max_queued_bytes;
  pthread_t thread;
  int thread_started;
  napi_threadsafe_function tsfn;
  char *slots;
  struct mmsghdr msgs[VLEN];
  struct iovec iov[VLEN];
} receiver_t;

typedef struct {
  char *data;
  size_t length;
  uint64_t last_arrival_ns;
  receiver_t *receiver;
} batch_t;

#define CHECK(env, call)                                    \
  do {                                                      \
    if ((call) != napi_ok) {                                \
      napi_throw_error((env), NULL, "napi call failed: " #call); \
      return NULL;                                          \
    }                                                       \
  } while (0)

static void call_js (napi_env env, napi_value js_callback, void *context, void *data) {
  batch_t *batch = data;
  receiver_t *r = batch->receiver;
  if (env != NULL && js_callback != NULL) {
    napi_value argv[2], undefined;
    void *copy;
    if (napi_create_buffer_copy(env, batch->length, batch->data, &copy, &argv[0]) == napi_ok &&
        napi_create_bigint_uint64(env, batch->last_arrival_ns, &argv[1]) == napi_ok &&
        napi_get_undefined(env, &undefined) == napi_ok) {
      napi_call_function(env, undefined, js_callback, 2, argv, NULL);
    }
  }
  atomic_fetch_sub(&r->queued_bytes, (long long)batch->length);
  free(batch->data);
  free(batch);
}

// Hands the chunk to JavaScript (which frees it); the caller starts a new one.
static void hand_over (receiver_t *r, char **chunk, size_t *length, size_t *capacity, uint64_t last_ns) {
  if (*length == 0) return;
  batch_t *batch = malloc(sizeof *batch);
  if (batch == NULL) return;
  batch->data = *chunk;
  batch->length = *length;
  batch->last_arrival_ns = last_ns;
  batch->receiver = r;
  long long queued = atomic_fetch_add(&r->queued_bytes, (long long)*length) + (long long)*length;
  long long peak = atomic_load(&r->max_queued_bytes);
  while (queued > peak && !atomic_compare_exchange_weak(&r->max_queued_bytes, &peak, queued)) {}
  if (napi_call_threadsafe_function(r->tsfn, batch, napi_tsfn_nonblocking) != napi_ok) {
    atomic_fetch_sub(&r->queued_bytes, (long long)batch->length);
    free(batch->data);
    free(batch);
  }
  *chunk = NULL;
  *length = 0;
  *capacity = 0;
}

static void *drain (void *arg) {
  receiver_t *r = arg;
  char *chunk = NULL;
  size_t length = 0, capacity = 0;
  uint64_t last_ns = 0;
  struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
  pid_t tid = (pid_t)syscall(SYS_gettid);
  setpriority(PRIO_PROCESS, tid, r->wanted_nice);
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, tid);
  atomic_store(&r->nice, errno ? 0 : nice);
  atomic_store(&r->started, 1);
  while (!atomic_load(&r->stop)) {
    if (atomic_load(&r->queued_bytes) > MAX_QUEUED_BYTES) {
      usleep(1000);
      continue;
    }
    int n = recvmmsg(r->fd, r->msgs, VLEN, MSG_DONTWAIT, NULL);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) break;
      hand_over(r, &chunk, &length, &capacity, last_ns);
      poll(&pfd, 1, 50);
      continue;
    }
    last_ns = now_ns();
    for (int i = 0; i < n; i++) {
      size_t len = r->msgs[i].msg_len;
      if (len > SLOT_BYTES) len = SLOT_BYTES;
      if (length + 4 + len > capacity) {
        size_t grown = capacity ? capacity : BATCH_BYTES + SLOT_BYTES + 4;
        while (grown < length + 4 + len) grown *= 2;
        char *bigger = realloc(chunk, grown);
        if (bigger == NULL) break;
        chunk = bigger;
        capacity = grown;
      }
      uint32_t l = (uint32_t)len;
      memcpy(chunk + length, &l, 4);
      memcpy(chunk + length + 4, r->slots + (size_t)i * SLOT_BYTES, len);
      length += 4 + len;
      r->msgs[i].msg_hdr.msg_flags = 0;
    }
    atomic_fetch_add(&r->datagrams, n);
    if (length >= BATCH_BYTES || n < VLEN) {
      hand_over(r, &chunk, &length, &capacity, last_ns);
    }
  }
  hand_over(r, &chunk, &length, &capacity, last_ns);
  free(chunk);
  return NULL;
}

static void finalize_tsfn (napi_env env, void *data, void *hint) {
  receiver_t *r = data;
  free(r->slots);
  free(r);
}

static napi_value js_open (napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  char host[64];
  size_t host_len;
  int32_t port, buffer_bytes, wanted_nice;
  CHECK(env, napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_len));
  CHECK(env, napi_get_value_int32(env, argv[1], &port));
  CHECK(env, napi_get_value_int32(env, argv[2], &buffer_bytes));
  CHECK(env, napi_get_value_int32(env, argv[3], &wanted_nice));

  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
    napi_throw_error(env, "EINVAL", "not an IPv4 address");
    return NULL;
  }
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    napi_throw_error(env, NULL, strerror(errno));
    return NULL;
  }
  int forced = setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buffer_bytes, sizeof buffer_bytes) == 0;
  if (!forced) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof buffer_bytes);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    int err = errno;
    close(fd);
    napi_throw_error(env, err == EADDRINUSE ? "EADDRINUSE" : err == EACCES ? "EACCES" : "EBIND", strerror(err));
    return NULL;
  }
  socklen_t alen = sizeof addr;
  getsockname(fd, (struct sockaddr *)&addr, &alen);
  int granted = 0;
  socklen_t glen = sizeof granted;
  getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &granted, &glen);

  receiver_t *r = calloc(1, sizeof *r);
  if (r != NULL) r->slots = malloc((size_t)VLEN * SLOT_BYTES);
  if (r == NULL || r->slots == NULL) {
    if (r != NULL) free(r);
    close(fd);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  r->fd = fd;
  r->port = ntohs(addr.sin_port);
  r->buffer_bytes = granted;
  r->forced = forced;
  r->wanted_nice = wanted_nice;
  for (int i = 0; i < VLEN; i++) {
    r->iov[i].iov_base = r->slots + (size_t)i * SLOT_BYTES;
    r->iov[i].iov_len = SLOT_BYTES;
    r->msgs[i].msg_hdr.msg_iov = &r->iov[i];
    r->msgs[i].msg_hdr.msg_iovlen = 1;
  }
  napi_value name;
  CHECK(env, napi_create_string_utf8(env, "log-bench udp receiver", NAPI_AUTO_LENGTH, &name));
  CHECK(env, napi_create_threadsafe_function(env, argv[4], NULL, name, 0, 1, r, finalize_tsfn, r, call_js, &r->tsfn));
  if (pthread_create(&r->thread, NULL, drain, r) != 0) {
    close(fd);
    napi_release_threadsafe_function(r->tsfn, napi_tsfn_abort);
    napi_throw_error(env, NULL, "cannot start the receiving thread");
    return NULL;
  }
  r->thread_started = 1;
  while (!atomic_load(&r->started)) usleep(100);
  napi_value handle;
  CHECK(env, napi_create_external(env, r, NULL, NULL, &handle));
  return handle;
}

static receiver_t *unwrap (napi_env env, napi_callback_info info) {
  return unwrap_handle(env, info);
}

static napi_value int_value (napi_env env, int64_t v) {
  napi_value out;
  napi_create_int64(env, v, &out);
  return out;
}

static napi_value js_port (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  return r ? int_value(env, r->port) : NULL;
}

static napi_value js_buffer_bytes (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  return r ? int_value(env, r->buffer_bytes) : NULL;
}

static napi_value js_forced (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  napi_value out;
  if (!r) return NULL;
  napi_get_boolean(env, r->forced, &out);
  return out;
}

static napi_value js_nice (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  return r ? int_value(env, atomic_load(&r->nice)) : NULL;
}

static napi_value js_stats (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  if (!r) return NULL;
  napi_value out;
  napi_create_array_with_length(env, 3, &out);
  napi_set_element(env, out, 0, int_value(env, atomic_load(&r->datagrams)));
  napi_set_element(env, out, 1, int_value(env, atomic_load(&r->queued_bytes)));
  napi_set_element(env, out, 2, int_value(env, atomic_load(&r->max_queued_bytes)));
  return out;
}

static napi_value js_close (napi_env env, napi_callback_info info) {
  receiver_t *r = unwrap(env, info);
  if (!r || !r->thread_started) return NULL;
  atomic_store(&r->stop, 1);
  pthread_join(r->thread, NULL);
  r->thread_started = 0;
  close(r->fd);
  // Queued batches are still delivered; then finalize_tsfn frees the receiver.
  napi_release_threadsafe_function(r->tsfn, napi_tsfn_release);
  return NULL;
}

static napi_value init (napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    { "open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL },
    { "port", NULL, js_port, NULL, NULL, NULL, napi_default, NULL },
    { "bufferBytes", NULL, js_buffer_bytes, NULL, NULL, NULL, napi_default, NULL },
    { "forced", NULL, js_forced, NULL, NULL, NULL, napi_default, NULL },
    { "nice", NULL, js_nice, NULL, NULL, NULL, napi_default, NULL },
    { "stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL },
    { "close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
