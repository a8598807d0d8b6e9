// The CUDA half of the driver probe: cuInit, the devices, and with smoke a JIT-compiled kernel run.
#include "child/driver_probe_parts.h"

#include "gpudoctor_config.h"

#include <chrono>
#include <cstdint>
#include <cstdio>

// A static build never loads the driver (driver_probe_child.cpp says so instead).
#if !GPUDOCTOR_STATIC

namespace gd::driver_probe {
namespace {

// ---- CUDA driver API (cuda.h): plain C, ints and pointers ----
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
constexpr int k_attribute_cc_major = 75, k_attribute_cc_minor = 76;
constexpr int k_jit_error_log_buffer = 5, k_jit_error_log_buffer_size = 6;

// A kernel that writes out[i] = 3*i + 7: enough to prove that the driver
// JIT-compiles, launches and copies back. PTX ISA 6.4 (CUDA 10.1) for
// sm_50 is accepted by every driver of the last years and JIT-compiles for
// any newer GPU, so no toolkit is needed.
constexpr const char* k_smoke_ptx = R"(.version 6.4
.target sm_50
.address_size 64

.visible .entry gpudoctor_smoke(
	.param .u64 out_param,
	.param .u32 n_param
)
{
	.reg .pred p;
	.reg .b32 r<8>;
	.reg .b64 rd<4>;

	ld.param.u64 rd1, [out_param];
	ld.param.u32 r1, [n_param];
	mov.u32 r2, %ctaid.x;
	mov.u32 r3, %ntid.x;
	mov.u32 r4, %tid.x;
	mad.lo.s32 r5, r2, r3, r4;
	setp.ge.u32 p, r5, r1;
	@p bra DONE;
	cvta.to.global.u64 rd2, rd1;
	mul.wide.u32 rd3, r5, 4;
	add.s64 rd2, rd2, rd3;
	mad.lo.s32 r6, r5, 3, 7;
	st.global.u32 [rd2], r6;
DONE:
	ret;
}
)";

struct Cuda {
  const Library& lib;

  std::string error_name(CUresult result) const {
    auto* name_of = lib.get<CUresult(CUresult, const char**)>("cuGetErrorName");
    const char* name = nullptr;
    if (name_of && name_of(result, &name) == 0 && name) return bounded(name, 80);
    return "CUDA error " + std::to_string(result);
  }

  json::object result_line(const char* call, CUresult result) const {
    json::object line{{"call", call}, {"result", result}};
    if (result != 0) line["name"] = error_name(result);
    return line;
  }
};

json::object smoke_one(const Cuda& cuda, int index) {
  const Library& lib = cuda.lib;
  json::object line{{"smoke", index}, {"passed", false}};
  auto fail = [&](const char* step, CUresult result) {
    line["step"] = step;
    line["result"] = result;
    line["name"] = cuda.error_name(result);
    return line;
  };
  auto* device_get = lib.get<CUresult(CUdevice*, int)>("cuDeviceGet");
  auto* retain = lib.get<CUresult(void**, CUdevice)>("cuDevicePrimaryCtxRetain");
  auto* release = lib.get<CUresult(CUdevice)>("cuDevicePrimaryCtxRelease_v2");
  if (!release) release = lib.get<CUresult(CUdevice)>("cuDevicePrimaryCtxRelease");
  auto* set_current = lib.get<CUresult(void*)>("cuCtxSetCurrent");
  auto* load = lib.get<CUresult(void**, const void*, unsigned, int*, void**)>("cuModuleLoadDataEx");
  auto* unload = lib.get<CUresult(void*)>("cuModuleUnload");
  auto* function = lib.get<CUresult(void**, void*, const char*)>("cuModuleGetFunction");
  auto* alloc = lib.get<CUresult(CUdeviceptr*, std::size_t)>("cuMemAlloc_v2");
  auto* free_memory = lib.get<CUresult(CUdeviceptr)>("cuMemFree_v2");
  auto* launch = lib.get<CUresult(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                                   void**, void**)>("cuLaunchKernel");
  auto* synchronize = lib.get<CUresult()>("cuCtxSynchronize");
  auto* copy_back = lib.get<CUresult(void*, CUdeviceptr, std::size_t)>("cuMemcpyDtoH_v2");
  if (!device_get || !retain || !release || !set_current || !load || !unload || !function || !alloc || !free_memory ||
      !launch || !synchronize || !copy_back) {
    line["step"] = "symbols";
    line["name"] = "this libcuda lacks a function the smoke test needs";
    return line;
  }
  const auto started = std::chrono::steady_clock::now();
  CUdevice device = 0;
  if (CUresult r = device_get(&device, index)) return fail("cuDeviceGet", r);
  void* context = nullptr;
  if (CUresult r = retain(&context, device)) return fail("cuDevicePrimaryCtxRetain", r);
  struct Release {
    decltype(release) call;
    CUdevice device;
    ~Release() { call(device); }
  } release_at_end{release, device};
  if (CUresult r = set_current(context)) return fail("cuCtxSetCurrent", r);
  char log[2048] = {};
  int option_keys[] = {k_jit_error_log_buffer, k_jit_error_log_buffer_size};
  void* option_values[] = {log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof log - 1))};
  void* module = nullptr;
  if (CUresult r = load(&module, k_smoke_ptx, 2, option_keys, option_values)) {
    fail("cuModuleLoadDataEx", r);
    if (log[0]) line["log"] = bounded(log, sizeof log);
    return line;
  }
  struct Unload {
    decltype(unload) call;
    void* module;
    ~Unload() { call(module); }
  } unload_at_end{unload, module};
  void* kernel = nullptr;
  if (CUresult r = function(&kernel, module, "gpudoctor_smoke")) return fail("cuModuleGetFunction", r);
  constexpr unsigned k_count = 1024;
  CUdeviceptr memory = 0;
  if (CUresult r = alloc(&memory, k_count * sizeof(std::uint32_t))) return fail("cuMemAlloc", r);
  struct Free {
    decltype(free_memory) call;
    CUdeviceptr memory;
    ~Free() { call(memory); }
  } free_at_end{free_memory, memory};
  unsigned count = k_count;
  void* params[] = {&memory, &count};
  if (CUresult r = launch(kernel, k_count / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr)) return fail("cuLaunchKernel", r);
  if (CUresult r = synchronize()) return fail("cuCtxSynchronize", r);
  std::uint32_t values[k_count] = {};
  if (CUresult r = copy_back(values, memory, sizeof values)) return fail("cuMemcpyDtoH", r);
  for (unsigned i = 0; i < k_count; ++i) {
    if (values[i] != 3 * i + 7) {
      line["step"] = "check";
      line["name"] = "element " + std::to_string(i) + " is " + std::to_string(values[i]) + ", not " + std::to_string(3 * i + 7);
      return line;
    }
  }
  line["passed"] = true;
  line["ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return line;
}

std::string uuid_text(const unsigned char bytes[16]) {
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

}  // namespace

int probe_cuda(bool smoke) {
  begin("dlopen libcuda.so.1");
  Library lib("libcuda.so.1");
  if (!lib) return 0;
  say_mapped();
  const Cuda cuda{lib};
  if (auto* get_version = lib.get<CUresult(int*)>("cuDriverGetVersion")) {
    int version = 0;
    auto line = cuda.result_line("cuDriverGetVersion", get_version(&version));
    if (line["result"].as_int64() == 0) line["value"] = version;
    say(line);
  }
  auto* init = lib.get<CUresult(unsigned)>("cuInit");
  if (!init) {
    say({{"call", "cuInit"}, {"missing", true}});
    return 0;
  }
  begin("cuInit");
  const CUresult initialised = init(0);
  say(cuda.result_line("cuInit", initialised));
  if (initialised != 0) return 0;
  int count = 0;
  if (auto* get_count = lib.get<CUresult(int*)>("cuDeviceGetCount")) {
    auto line = cuda.result_line("cuDeviceGetCount", get_count(&count));
    line["value"] = count;
    say(line);
  }
  auto* device_get = lib.get<CUresult(CUdevice*, int)>("cuDeviceGet");
  auto* get_name = lib.get<CUresult(char*, int, CUdevice)>("cuDeviceGetName");
  auto* get_uuid = lib.get<CUresult(unsigned char*, CUdevice)>("cuDeviceGetUuid");
  auto* get_bus = lib.get<CUresult(char*, int, CUdevice)>("cuDeviceGetPCIBusId");
  auto* get_attribute = lib.get<CUresult(int*, int, CUdevice)>("cuDeviceGetAttribute");
  auto* get_memory = lib.get<CUresult(std::size_t*, CUdevice)>("cuDeviceTotalMem_v2");
  for (int index = 0; index < count && index < 1024 && device_get; ++index) {
    CUdevice device = 0;
    json::object line{{"device", index}};
    if (device_get(&device, index) != 0) continue;
    char text[256] = {};
    if (get_name && get_name(text, sizeof text - 1, device) == 0) line["name"] = bounded(text, sizeof text);
    unsigned char uuid[16] = {};
    if (get_uuid && get_uuid(uuid, device) == 0) line["uuid"] = uuid_text(uuid);
    char bus[64] = {};
    if (get_bus && get_bus(bus, sizeof bus - 1, device) == 0) line["bus_id"] = bounded(bus, sizeof bus);
    int major = 0, minor = 0;
    if (get_attribute && get_attribute(&major, k_attribute_cc_major, device) == 0 &&
        get_attribute(&minor, k_attribute_cc_minor, device) == 0)
      line["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
    std::size_t bytes = 0;
    if (get_memory && get_memory(&bytes, device) == 0) line["memory_total_mib"] = static_cast<std::int64_t>(bytes >> 20);
    say(line);
  }
  for (int index = 0; smoke && index < count && index < 1024; ++index) {
    begin(("smoke " + std::to_string(index)).c_str());
    say(smoke_one(cuda, index));
  }
  return 0;
}

}  // namespace gd::driver_probe

#endif
