/* How long each NVML call of gpudoctor's NVML child (src/child/nvml_probe.cpp)
 * takes on a real GPU, in that order, for GPU 0: where `gpudoctor gpus` waits.
 * Prints "milliseconds result call" per line.
 *
 * cc -O2 -o nvml_call_times tools/nvml_call_times.c -ldl
 */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

typedef int (*any_call)();
static void* lib;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Calls name with up to five pointer-sized arguments and prints its time. */
#define TIMED(name, ...)                                                   \
  do {                                                                     \
    any_call call = (any_call)dlsym(lib, name);                            \
    double started = now_ms();                                             \
    int result = call ? call(__VA_ARGS__) : -1;                            \
    printf("%8.2f %3d %s\n", now_ms() - started, result, name);          \
  } while (0)

int main(void) {
  double started = now_ms();
  lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  printf("%8.2f %3d dlopen\n", now_ms() - started, lib ? 0 : -1);
  if (!lib) return 1;
  void* device = 0;
  char text[256];
  unsigned value = 0, other = 0, pending = 0, failed = 0;
  unsigned long long big[64] = {0};
  int state = 0, major = 0, minor = 0;
  TIMED("nvmlInit_v2", 0);
  TIMED("nvmlSystemGetDriverVersion", text, 95u);
  TIMED("nvmlSystemGetCudaDriverVersion_v2", &state);
  TIMED("nvmlDeviceGetCount_v2", &value);
  TIMED("nvmlDeviceGetHandleByIndex_v2", 0u, &device);
  TIMED("nvmlDeviceGetName", device, text, 255u);
  TIMED("nvmlDeviceGetUUID", device, text, 95u);
  TIMED("nvmlDeviceGetPciInfo_v3", device, (void*)big);
  TIMED("nvmlDeviceGetCudaComputeCapability", device, &major, &minor);
  TIMED("nvmlDeviceGetMemoryInfo", device, (void*)big);
  TIMED("nvmlDeviceGetUtilizationRates", device, (void*)big);
  TIMED("nvmlDeviceGetTemperature", device, 0, &value);
  TIMED("nvmlDeviceGetPowerUsage", device, &value);
  TIMED("nvmlDeviceGetEnforcedPowerLimit", device, &value);
  TIMED("nvmlDeviceGetPersistenceMode", device, &state);
  TIMED("nvmlDeviceGetComputeMode", device, &state);
  TIMED("nvmlDeviceGetMigMode", device, &value, &other);
  TIMED("nvmlDeviceGetTotalEccErrors", device, 1, 0, big);
  TIMED("nvmlDeviceGetTotalEccErrors", device, 1, 1, big);
  TIMED("nvmlDeviceGetRetiredPagesPendingStatus", device, &state);
  TIMED("nvmlDeviceGetRemappedRows", device, &value, &other, &pending, &failed);
  TIMED("nvmlDeviceValidateInforom", device);
  TIMED("nvmlDeviceGetCurrentClocksThrottleReasons", device, big);
  value = 16;
  TIMED("nvmlDeviceGetComputeRunningProcesses_v3", device, &value, (void*)big);
  TIMED("nvmlDeviceGetGpuFabricInfo", device, (void*)big);
  TIMED("nvmlShutdown", 0);
  printf("%8.2f total\n", now_ms() - started);
  return 0;
}
