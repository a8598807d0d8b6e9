// Real messages, as users pasted them into public issues (the threads are
// the signatures' sources), each mapped to the signature and a cause rule.

#include "rules/error_signatures.h"

#include "rules/rule_set.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace {

struct Pasted {
  const char* text;
  const char* signature;
  const char* rule;  // a candidate cause it must name; "" where no rule applies yet
};

constexpr Pasted k_pasted[] = {
    {"RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver",
     "torch-driver-too-old", "driver-too-old-for-runtime"},
    {"UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11000).",
     "torch-driver-too-old", "driver-too-old-for-runtime"},
    {"cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version", "cuda-insufficient-driver",
     "driver-too-old-for-runtime"},
    {"CUDA error: CUDA driver version is insufficient for CUDA runtime version", "cuda-insufficient-driver",
     "cuda-init-insufficient-driver"},
    {"nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.0, please update your driver to a newer "
     "version, or use an earlier cuda container",
     "toolkit-require-unsatisfied", "require-unsatisfied"},
    {"unsatisfied condition: cuda>=13.2", "toolkit-require-unsatisfied", "require-unsatisfied-but-minor-compatible"},
    {"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
     "docker-no-gpu-driver", ""},
    {"error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory",
     "libcuda-missing", "container-gpu-not-requested"},
    {"ImportError: libcuda.so.1: cannot open shared object file: No such file or directory", "libcuda-missing",
     "container-capability-compute-missing"},
    {"RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver",
     "torch-no-driver", "libcuda-not-found"},
    {"Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144", "nvml-version-mismatch",
     "driver-library-version-mismatch"},
    {"nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", "nvml-driver-not-loaded",
     "nvidia-module-not-loaded"},
    {"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file",
     "toolkit-load-library-failed", "libcuda-not-found"},
    {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.",
     "smi-cannot-reach-driver", "nvidia-module-not-built-for-kernel"},
    {"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", "module-key-rejected",
     "kernel-log-module-key-rejected"},
    {"NVRM: The NVIDIA probe routine was not called for 1 device(s).", "other-driver-owns-gpu", "gpu-bound-to-other-driver"},
    {"NVRM: GPU 0000:01:00.0 is already bound to NovaCore", "other-driver-owns-gpu", "gpu-bound-to-other-driver"},
    {"Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error", "gpu-fell-off-bus", "device-open-failed"},
    {"NVRM: Xid (PCI:0000:0b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", "gpu-fell-off-bus",
     "kernel-log-gpu-fell-off-bus"},
    {"RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable "
     "CUDA_VISIBLE_DEVICES after program start.",
     "cuda-unknown-error", "nvidia-uvm-not-loaded"},
    {"[ERROR] Kernel module nvidia_uvm is not loaded. Make sure the NVIDIA device driver is installed and loaded.",
     "uvm-not-loaded", "nvidia-uvm-node-missing"},
    {"Failed to initialize NVML: Unknown Error", "nvml-unknown-error", "device-open-denied"},
    {"Failed to initialize NVML: Insufficient Permissions", "nvml-insufficient-permissions", "device-node-permission-denied"},
    {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 802: system not yet initialized",
     "system-not-ready", "cuda-init-system-not-ready"},
    {"fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03",
     "fabric-manager-version", "cuda-init-system-not-ready"},
    {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on non "
     "supported HW",
     "compat-not-supported", "compat-on-unsupported-gpu"},
    {"CUDA error: Error 803: system has unsupported display driver / cuda driver combination", "driver-mismatch",
     "compat-older-than-host-driver"},
    {"numba.cuda.cudadrv.driver.CudaAPIError: [34] Call to cuInit results in CUDA_ERROR_STUB_LIBRARY", "stub-library",
     "libcuda-is-stub"},
    {"RuntimeError: CUDA driver is a stub library", "stub-library", "cuda-init-stub-library"},
    {"ImportError: .../nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version "
     "libnvJitLink.so.12",
     "nvjitlink-symbol", "cuda-library-shadowed"},
    {"Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file",
     "cudnn-missing", "application-cuda-library-missing"},
    {"RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2). "
     "PyTorch already comes bundled with cuDNN.",
     "cudnn-older-than-built", "application-wheel-older-than-pinned"},
    {"/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 12 "
     "are not supported!",
     "nvcc-host-compiler-unsupported", "extension-build-host-compiler-unsupported"},
    {"CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, which is newer.",
     "cudnn-older-than-built", "cuda-library-shadowed"},
    {"Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file",
     "cudart-missing", "cuda-runtime-off-loader-path"},
    {"RuntimeError: CUDA error: no kernel image is available for execution on the device", "no-kernel-image",
     "runtime-cannot-target-gpu"},
    {"NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
     "no-kernel-image", "runtime-cannot-target-gpu"},
    {"Found GPU0 GeForce GT 720 which is of cuda capability 3.5. PyTorch no longer supports this GPU because it is too old.",
     "gpu-too-old-for-build", "runtime-cannot-target-gpu"},
    {"AssertionError: Torch not compiled with CUDA enabled", "torch-cpu-build", ""},
    {"RuntimeError: No CUDA GPUs are available", "no-cuda-device", "cuda-visible-devices-selects-nothing"},
    {"THCudaCheck FAIL file=... error=38 : no CUDA-capable device is detected", "no-cuda-device", "container-gpu-not-requested"},
    {"RuntimeError: CUDA error: invalid device ordinal", "invalid-device-ordinal", "cuda-visible-devices-several-mig"},
    {"Failed to initialize NVML: could not load NVML library.\nIf this is a GPU node, did you set the docker default "
     "runtime to `nvidia`?",
     "device-plugin-no-nvml", "container-gpu-not-injected"},
    {"nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory", "toolkit-ldconfig", ""},
    {"nvidia-container-cli: initialization error: WSL environment detected but no adapters were found", "wsl-no-adapters",
     "wsl-dxg-missing"},
    {"/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link", "wsl-ldconfig-warning",
     "wsl-libcuda-not-a-symlink-is-harmless"},
    {"OSError: libcuda.so: cannot open shared object file: No such file or directory", "libcuda-unversioned-missing",
     "libcuda-unversioned-missing"},
    {"bash: nvidia-smi: command not found", "smi-not-found", "container-capability-utility-missing"},
    {"RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable", "devices-busy", "gpu-compute-mode-prohibited"},
    {"nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/.../usr/lib/x86_64-linux-gnu/"
     "libnvidia-ml.so.1: file exists",
     "toolkit-mount-file-exists", "driver-library-version-mismatch"},
    {"NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:667)", "rm-init-failed", "kernel-log-rm-init-failed"},
    {"NVRM: API mismatch: the client has the version 550.54.15, but this kernel module has the version 550.54.14.",
     "nvrm-api-mismatch", "kernel-log-api-mismatch"},
};

}  // namespace

TEST_CASE("at least 40 real messages map to their signature and a cause rule") {
  const auto rules = gd::load_embedded_rules();
  CHECK(std::size(k_pasted) >= 40);
  for (const auto& pasted : k_pasted) {
    CAPTURE(pasted.text);
    const auto matches = gd::match_signatures(rules.signatures, pasted.text);
    REQUIRE_FALSE(matches.empty());
    const auto it = std::find_if(matches.begin(), matches.end(), [&](const auto* s) { return s->id == pasted.signature; });
    REQUIRE_MESSAGE(it != matches.end(), "best match: " << matches.front()->id);
    CHECK_MESSAGE(matches.front()->id == pasted.signature, "the longest match should be the signature meant");
    if (*pasted.rule)
      CHECK(std::find((*it)->rules.begin(), (*it)->rules.end(), pasted.rule) != (*it)->rules.end());
  }
}

TEST_CASE("text with no known message matches nothing, and matching ignores case") {
  const auto rules = gd::load_embedded_rules();
  CHECK(gd::match_signatures(rules.signatures, "hello world, all is fine").empty());
  CHECK(gd::match_signatures(rules.signatures, "ERROR 804")[0]->id == "compat-not-supported");
}
