#pragma once
// Fake libcuda.so.1 and libnvidia-ml.so.1, compiled with the system's C
// compiler at test time, whose behaviour the variables FAKE_CUDA and
// FAKE_NVML choose in the child that loads them:
//   FAKE_CUDA: ok4 (four H100s), 999, 802, 34, crash (SIGSEGV in cuInit),
//              hang (cuInit never returns), exit (exit(3) in cuInit),
//              wrong (the smoke kernel's result comes back wrong),
//              chatty (prints to stdout in cuInit, as some shims do)
//   FAKE_CUDA_INIT_MS, FAKE_NVML_INIT_MS: how long cuInit and nvmlInit_v2
//              take (tools/bench_live.py gives them a real driver's times)
//   FAKE_NVML_INIT_LOG: a file that gets a line for each nvmlInit_v2
//   FAKE_NVML_TEMPERATURE: a file whose number is every GPU's temperature,
//              read at each call (34 without it)
//   FAKE_NVML: ok (two GPUs, the second with pending row remapping, a
//              corrupt InfoROM, an unhealthy NVLink fabric and the driver's recovery action
//              DRAIN_AND_RESET), mismatch (nvmlInit_v2: 18), busy (the
//              first in Exclusive_Process, held by pid 878 "python3", 612 MiB), nvlink (as ok, but
//              neither in MIG mode, each with 18 active NVLinks and NVLink peer-to-peer between them),
//              nvlink-no-p2p (the same links, but peer-to-peer NVML_P2P_STATUS_NOT_SUPPORTED),
//              nvlink5 (as nvlink, with Blackwell's link recovery counters: the second GPU
//              2 successful and 1 failed)

#include "test_support/elf_builder.h"

namespace gd {

inline constexpr const char* k_fake_libcuda_source = R"(
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>
static const char* mode(void) { const char* m = getenv("FAKE_CUDA"); return m ? m : "ok4"; }
static int is(const char* m) { return strcmp(mode(), m) == 0; }
int cuGetErrorName(int r, const char** name) {
  switch (r) {
    case 34: *name = "CUDA_ERROR_STUB_LIBRARY"; return 0;
    case 802: *name = "CUDA_ERROR_SYSTEM_NOT_READY"; return 0;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return 0;
    default: return 1;
  }
}
int cuDriverGetVersion(int* v) { *v = 12040; return 0; }
static void wait_ms(const char* variable) { const char* ms = getenv(variable); if (ms) usleep((useconds_t)atoi(ms) * 1000); }
int cuInit(unsigned flags) {
  (void)flags;
  wait_ms("FAKE_CUDA_INIT_MS");
  if (is("chatty")) { printf("{shim} cuInit called\nshim: no newline"); fflush(stdout); }
  if (is("crash")) raise(SIGSEGV);
  if (is("hang")) for (;;) pause();
  if (is("exit")) exit(3);
  if (is("999")) return 999;
  if (is("802")) return 802;
  if (is("34")) return 34;
  return 0;
}
int cuDeviceGetCount(int* n) { *n = 4; return 0; }
int cuDeviceGet(int* d, int i) { *d = i; return 0; }
int cuDeviceGetName(char* s, int len, int d) { snprintf(s, len, "NVIDIA H100 80GB HBM3 #%d", d); return 0; }
int cuDeviceGetUuid(unsigned char* u, int d) { memset(u, 0xab, 16); u[15] = (unsigned char)d; return 0; }
int cuDeviceGetPCIBusId(char* s, int len, int d) { snprintf(s, len, "00000000:%02X:00.0", 0x18 + d); return 0; }
int cuDeviceGetAttribute(int* v, int a, int d) { (void)d; *v = a == 75 ? 9 : 0; return 0; }
int cuDeviceTotalMem_v2(size_t* b, int d) { (void)d; *b = (size_t)81559 << 20; return 0; }
static int context;
int cuDevicePrimaryCtxRetain(void** c, int d) { (void)d; *c = &context; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return 0; }
int cuCtxSetCurrent(void* c) { (void)c; return 0; }
int cuModuleLoadDataEx(void** m, const void* ptx, unsigned n, int* k, void** v) {
  (void)k; (void)v; (void)n;
  *m = strstr((const char*)ptx, ".entry gpudoctor_smoke") ? &context : 0;
  return *m ? 0 : 218;
}
int cuModuleUnload(void* m) { (void)m; return 0; }
int cuModuleGetFunction(void** f, void* m, const char* name) { (void)m; *f = &context; return strcmp(name, "gpudoctor_smoke") ? 500 : 0; }
static unsigned* memory;
int cuMemAlloc_v2(unsigned long long* p, size_t bytes) { memory = malloc(bytes); *p = (unsigned long long)(size_t)memory; return 0; }
int cuMemFree_v2(unsigned long long p) { free((void*)(size_t)p); return 0; }
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
                   void* stream, void** params, void** extra) {
  (void)f; (void)gy; (void)gz; (void)by; (void)bz; (void)shared; (void)stream; (void)extra;
  unsigned* out = (unsigned*)(size_t)*(unsigned long long*)params[0];
  unsigned n = *(unsigned*)params[1];
  for (unsigned i = 0; i < gx * bx && i < n; ++i) out[i] = 3 * i + 7 + (is("wrong") && i == 5);
  return 0;
}
int cuCtxSynchronize(void) { return 0; }
int cuMemcpyDtoH_v2(void* dst, unsigned long long src, size_t bytes) { memcpy(dst, (void*)(size_t)src, bytes); return 0; }
)";

inline constexpr const char* k_fake_nvml_source = R"(
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <stdio.h>
static int is(const char* m) { const char* v = getenv("FAKE_NVML"); return strcmp(v ? v : "ok", m) == 0; }
const char* nvmlErrorString(int r) { return r == 18 ? "Driver/library version mismatch" : "Unknown Error"; }
int nvmlInit_v2(void) {
  const char* ms = getenv("FAKE_NVML_INIT_MS");
  if (ms) usleep((useconds_t)atoi(ms) * 1000);
  const char* log = getenv("FAKE_NVML_INIT_LOG");
  FILE* f = log ? fopen(log, "a") : NULL;
  if (f) { fputs("nvmlInit_v2\n", f); fclose(f); }
  return is("mismatch") ? 18 : 0;
}
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char* s, unsigned n) { snprintf(s, n, "550.54.15"); return 0; }
int nvmlSystemGetCudaDriverVersion_v2(int* v) { *v = 12040; return 0; }
int nvmlDeviceGetCount_v2(unsigned* n) { *n = 2; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void** d) { *d = (void*)(size_t)(i + 1); return 0; }
static unsigned index_of(void* d) { return (unsigned)(size_t)d - 1; }
int nvmlDeviceGetName(void* d, char* s, unsigned n) { snprintf(s, n, "NVIDIA H100 80GB HBM3"); (void)d; return 0; }
int nvmlDeviceGetUUID(void* d, char* s, unsigned n) { snprintf(s, n, "GPU-abababab-abab-abab-abab-ababababab%02x", index_of(d)); return 0; }
int nvmlDeviceGetMemoryInfo(void* d, unsigned long long* m) { (void)d; m[0] = 81559ull << 20; m[1] = 81000ull << 20; m[2] = 559ull << 20; return 0; }
int nvmlDeviceGetTemperature(void* d, int sensor, unsigned* t) {
  const char* path = getenv("FAKE_NVML_TEMPERATURE");
  FILE* f = path ? fopen(path, "r") : NULL;
  (void)d; (void)sensor;
  *t = 34;
  if (f) { if (fscanf(f, "%u", t) != 1) *t = 34; fclose(f); }
  return 0;
}
int nvmlDeviceGetComputeMode(void* d, int* m) { *m = is("busy") && index_of(d) == 0 ? 3 : 0; return 0; }
struct process { unsigned pid; unsigned long long used; unsigned gi, ci; };
int nvmlDeviceGetComputeRunningProcesses_v3(void* d, unsigned* n, struct process* p) {
  unsigned have = is("busy") && index_of(d) == 0;
  if (*n < have) { *n = have; return 7; }
  *n = have;
  if (have) { p[0].pid = 878; p[0].used = 612ull << 20; p[0].gi = p[0].ci = ~0u; }
  return 0;
}
int nvmlSystemGetProcessName(unsigned pid, char* s, unsigned n) { if (pid != 878) return 6; snprintf(s, n, "python3"); return 0; }
int nvmlDeviceGetRemappedRows(void* d, unsigned* c, unsigned* u, unsigned* p, unsigned* f) {
  *c = 0; *u = index_of(d); *p = index_of(d) == 1; *f = 0; return 0;
}
int nvmlDeviceValidateInforom(void* d) { return index_of(d) == 1 ? 14 : 0; }
static int nvlinked(void) { return is("nvlink") || is("nvlink-no-p2p") || is("nvlink5"); }
int nvmlDeviceGetMigMode(void* d, unsigned* current, unsigned* pending) { *current = index_of(d) == 0 && !nvlinked(); *pending = *current; return 0; }
int nvmlDeviceGetNvLinkState(void* d, unsigned link, int* active) { (void)d; if (!nvlinked() || link >= 18) return 3; *active = 1; return 0; }
int nvmlDeviceGetP2PStatus(void* a, void* b, int index, int* status) {
  if (index != 2 || a == b) return 2;
  *status = is("nvlink") ? 0 : 5;
  return 0;
}
int nvmlDeviceGetMaxMigDeviceCount(void* d, unsigned* n) { (void)d; *n = 7; return 0; }
int nvmlDeviceGetMigDeviceHandleByIndex(void* d, unsigned i, void** h) { (void)d; *h = (void*)(size_t)(100 + i); return i < 3 ? 0 : 6; }
/* nvmlFieldValue_t as nvml.h lays it out (40 bytes). The driver's
   recovery action (field 230) is answered: none for the first GPU,
   DRAIN_AND_RESET (4) for the second. Under nvlink5, the link recoveries
   summed over the links (fields 213-215, scopeId UINT_MAX only), as unsigned
   long long: 0 for the first GPU, 2 successful, 1 failed, 3 in all for the
   second. Every other field NOT_SUPPORTED. */
typedef struct { unsigned fieldId, scopeId; long long timestamp, latencyUsec; int valueType, nvmlReturn; unsigned long long value; } field_value;
int nvmlDeviceGetFieldValues(void* d, int count, field_value* v) {
  for (int i = 0; i < count; ++i) {
    if (is("nvlink5") && v[i].fieldId >= 213 && v[i].fieldId <= 215 && v[i].scopeId == 0xFFFFFFFFu) {
      static const unsigned long long second[3] = {2, 1, 3};
      v[i].valueType = 3;  /* NVML_VALUE_TYPE_UNSIGNED_LONG_LONG */
      v[i].nvmlReturn = 0;
      v[i].value = index_of(d) == 1 ? second[v[i].fieldId - 213] : 0;
      continue;
    }
    if (v[i].fieldId != 230) { v[i].nvmlReturn = 3; continue; }
    v[i].valueType = 1;  /* NVML_VALUE_TYPE_UNSIGNED_INT */
    v[i].nvmlReturn = 0;
    v[i].value = index_of(d) == 1 ? 4 : 0;
  }
  return 0;
}
typedef struct { unsigned int version; int marginTemperature; } margin_v1;
/* The first GPU 31 degrees from its slowdown, the second 3. */
int nvmlDeviceGetMarginTemperature(void* d, margin_v1* m) {
  if (m->version != (sizeof(margin_v1) | (1u << 24))) return 25;
  m->marginTemperature = index_of(d) == 1 ? 3 : 31;
  return 0;
}
typedef struct {
  unsigned int version;
  unsigned char clusterUuid[16];
  int status;
  unsigned int cliqueId;
  unsigned char state;
  unsigned int healthMask;
  unsigned char healthSummary;
} fabric_v3;
/* Version 3 only, as NVML checks it (else NVML_ERROR_ARGUMENT_VERSION_MISMATCH); the
   fabric completed on both GPUs, the second's routes unhealthy. */
int nvmlDeviceGetGpuFabricInfoV(void* d, fabric_v3* info) {
  if (info->version != (sizeof(fabric_v3) | (3u << 24))) return 25;
  info->state = 3;
  info->healthMask = index_of(d) == 1 ? (1u << 4) | (2u << 0) | (2u << 2) | (2u << 6) | (1u << 8) : (2u << 0) | (2u << 2) | (2u << 4) | (2u << 6) | (1u << 8);
  info->healthSummary = index_of(d) == 1 ? 2 : 1;
  return 0;
}
)";

// Builds both into dir/lib: libcuda.so.1 and libnvidia-ml.so.1.
inline void build_fake_driver(const TempDir& dir) {
  dir.write("libcuda.c", k_fake_libcuda_source);
  dir.write("libnvml.c", k_fake_nvml_source);
  dir.mkdir("lib");
  for (const auto& [source, name] : {std::pair{"libcuda.c", "libcuda.so.1"}, std::pair{"libnvml.c", "libnvidia-ml.so.1"}}) {
    const auto result = run_child({"cc", "-shared", "-fPIC", "-o", dir / ("lib/" + std::string(name)), dir / source,
                                   "-Wl,-soname," + std::string(name)},
                                  std::chrono::seconds(60));
    REQUIRE_MESSAGE(result.exit == 0, "cc failed: " << result.error_output);
  }
}

}  // namespace gd
