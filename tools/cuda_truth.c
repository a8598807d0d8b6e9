/* What a CUDA program experiences here, in the few calls every framework
 * makes first: load libcuda.so.1, cuInit, count the devices, take device 0's
 * primary context (where an EXCLUSIVE_PROCESS GPU held by another process
 * refuses with 46) and allocate on it. Prints one line, "works: ..." or
 * "fails: <call> <code> <name>", the ground truth tools/real_gpu_states.py
 * puts beside gpudoctor's verdict. With a number of seconds it keeps the
 * context that long ("holding" on its own line first): the other process of
 * an exclusive-busy GPU. "init" stops after cuInit (to time it alone).
 *
 * cc -O2 -o cuda_truth tools/cuda_truth.c -ldl
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef void* CUcontext;
typedef unsigned long long CUdeviceptr;

static void* lib;

static const char* error_name(CUresult code) {
  CUresult (*name_of)(CUresult, const char**) = (CUresult(*)(CUresult, const char**))dlsym(lib, "cuGetErrorName");
  const char* name = NULL;
  if (name_of && name_of(code, &name) == 0 && name) return name;
  return "?";
}

static int failed(const char* call, CUresult code) {
  printf("fails: %s %d %s\n", call, code, error_name(code));
  return 1;
}

int main(int argc, char** argv) {
  int init_only = argc > 1 && strcmp(argv[1], "init") == 0;
  int hold_seconds = argc > 1 && !init_only ? atoi(argv[1]) : 0;
  lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    printf("fails: dlopen %s\n", dlerror());
    return 1;
  }
  CUresult (*init)(unsigned) = (CUresult(*)(unsigned))dlsym(lib, "cuInit");
  CUresult (*count)(int*) = (CUresult(*)(int*))dlsym(lib, "cuDeviceGetCount");
  CUresult (*get)(CUdevice*, int) = (CUresult(*)(CUdevice*, int))dlsym(lib, "cuDeviceGet");
  CUresult (*retain)(CUcontext*, CUdevice) = (CUresult(*)(CUcontext*, CUdevice))dlsym(lib, "cuDevicePrimaryCtxRetain");
  CUresult (*set_current)(CUcontext) = (CUresult(*)(CUcontext))dlsym(lib, "cuCtxSetCurrent");
  CUresult (*alloc)(CUdeviceptr*, size_t) = (CUresult(*)(CUdeviceptr*, size_t))dlsym(lib, "cuMemAlloc_v2");
  if (!init || !count || !get || !retain || !set_current || !alloc) {
    printf("fails: dlsym a driver entry point is missing\n");
    return 1;
  }
  CUresult result = init(0);
  if (result != 0) return failed("cuInit", result);
  if (init_only) {
    printf("works: cuInit\n");
    return 0;
  }
  int devices = 0;
  if ((result = count(&devices)) != 0) return failed("cuDeviceGetCount", result);
  if (devices == 0) {
    printf("fails: cuDeviceGetCount 0 devices\n");
    return 1;
  }
  CUdevice device;
  CUcontext context;
  CUdeviceptr memory;
  if ((result = get(&device, 0)) != 0) return failed("cuDeviceGet", result);
  if ((result = retain(&context, device)) != 0) return failed("cuDevicePrimaryCtxRetain", result);
  if ((result = set_current(context)) != 0) return failed("cuCtxSetCurrent", result);
  if ((result = alloc(&memory, 1 << 20)) != 0) return failed("cuMemAlloc", result);
  printf("works: %d device(s), 1 MiB allocated on device 0\n", devices);
  if (hold_seconds > 0) {
    printf("holding\n");
    fflush(stdout);
    sleep((unsigned)hold_seconds);
  }
  return 0;
}
