// Small helpers shared by the native receivers.
#ifndef LOG_BENCH_NAPI_COMMON_H
#define LOG_BENCH_NAPI_COMMON_H
#include <node_api.h>
#include <stdint.h>
#include <time.h>

// CLOCK_MONOTONIC in ns: the clock of process.hrtime.bigint(), comparable across processes.
static inline uint64_t now_ns (void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

// The object behind the handle given as a call's first argument; NULL when there is none.
static inline void *unwrap_handle (napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  if (napi_get_value_external(env, argv[0], &data) != napi_ok) return NULL;
  return data;
}
#endif
