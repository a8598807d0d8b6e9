#pragma once
// Layer 7, application: the frameworks and programs that would use the GPU,
// and whether the GPU code they carry runs on this machine's GPUs.

#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// Whether a GPU gets code from a framework: sass (machine code for it),
// ptx-jit (PTX the driver compiles at first use), ptx-needs-newer-driver
// (PTX newer than the driver understands), none ('no kernel image is
// available'), unknown (a damaged fatbin).
enum class KernelImage { sass, ptx_jit, ptx_needs_newer_driver, none, unknown };
template <>
struct EnumTable<KernelImage> {
  static constexpr std::array names{"sass", "ptx-jit", "ptx-needs-newer-driver", "none", "unknown"};
};

// A framework's CUDA major against the driver's.
// A found version against the one wanted (a pin, a build's own, a range).
enum class VersionRelation { same, older, newer, missing, unknown };
template <>
struct EnumTable<VersionRelation> {
  static constexpr std::array names{"same", "older", "newer", "missing", "unknown"};
};

// The CUDA a framework was built with against the nvcc that builds its extensions.
enum class BuildRelation { same, minor_differs, major_differs };
template <>
struct EnumTable<BuildRelation> {
  static constexpr std::array names{"same", "minor-differs", "major-differs"};
};

enum class DriverRelation { same_major, older_major, needs_newer_driver };
template <>
struct EnumTable<DriverRelation> {
  static constexpr std::array names{"same-major", "older-major", "needs-newer-driver"};
};

// One framework (or --target file) against one GPU.
struct GpuCodeCheck {
  std::string framework, gpu, compute_capability;
  KernelImage kernel_image = KernelImage::none;
  std::string sass, ptx;  // what the framework carries, as a list for the message
  std::optional<std::string> version, ptx_needs_cuda, driver_cuda;
  // What to install or build instead, ready to paste: for torch, the newest
  // wheel index whose builds carry this GPU's code and that this driver runs.
  std::string install_hint;
  std::optional<std::string> suggested_index;

  template <class F>
  void fields(F& f) const {
    f("framework", framework, "torch 2.5.1+cu124, a --target file's name, ...");
    f("version", version, "its version");
    f("gpu", gpu, "the GPU: PCI address, or CUDA's bus id where PCI is hidden");
    f("compute_capability", compute_capability, "the GPU's, 9.0");
    f("kernel_image", kernel_image, "whether the GPU gets code: none is 'no kernel image is available', unknown a damaged fatbin");
    f("sass", sass, "the SASS architectures it carries, sm_80 sm_90");
    f("ptx", ptx, "the PTX it carries, compute_90 (PTX ISA 8.4)");
    f("ptx_needs_cuda", ptx_needs_cuda, "ptx-needs-newer-driver: the CUDA version its PTX ISA came with");
    f("driver_cuda", driver_cuda, "the CUDA version the driver supports");
    f("suggested_index", suggested_index, "torch: the newest PyTorch wheel index (cu128) with SASS for this GPU that this driver runs");
    f("install_hint", install_hint, "the command or build setting that gives code for this GPU");
  }
};

struct FrameworkFacts {
  std::string name{};  // torch, tensorflow, onnxruntime-gpu, vllm, cupy, jax, or the file's name
  std::optional<std::string> version{}, cuda{}, cuda_source{}, cudnn{}, path{}, library{}, code_source{};
  bool cpu_only = false;
  std::optional<std::vector<std::string>> sass{}, ptx{};
  std::optional<std::int64_t> compressed_entries{};
  std::vector<std::string> problems{};
  std::optional<std::vector<std::string>> distributions{};
  // Its CUDA build against the driver here: same-major (it runs, perhaps
  // through minor-version compatibility) or needs-newer-driver, with both
  // ways out: the driver it needs, and a build of it that this driver runs.
  std::optional<std::string> driver_cuda{};
  std::optional<DriverRelation> driver_relation{};
  std::optional<std::string> driver_needed{}, alternative_build{}, alternative_hint{};
  std::optional<std::int64_t> driver_cuda_major{};

  template <class F>
  void fields(F& f) const {
    f("name", name, "torch, tensorflow, onnxruntime-gpu, vllm, cupy, jax (its CUDA plugin), or a --target file's name");
    f("version", version, "its version: torch/version.py, else its dist-info");
    f("cuda", cuda, "the CUDA version it was built for (torch.version.cuda, TensorFlow's build_info, ...)");
    f("cuda_source", cuda_source, "where that was read: version.py, build_info.py, build_and_package_info.py, the +cuXYZ version label, or the major of the libcudart/libcublas it links");
    f("cudnn", cudnn, "the cuDNN version it was built against, where it records one (TensorFlow's build_info, torch's pinned wheel)");
    f("cpu_only", cpu_only, "a build without CUDA (torch.version.cuda is None, is_cuda_build False)");
    f("path", path, "where it is installed");
    f("library", library, "the file whose GPU code was read (torch/lib/libtorch_cuda.so)");
    f("code_source", code_source, "where the architecture list came from: the library's .nv_fatbin, or the build info it records (TensorFlow)");
    f("sass", sass, "SASS architectures in its .nv_fatbin, as compute capabilities");
    f("ptx", ptx, "PTX in its .nv_fatbin: compute capability and PTX ISA version");
    f("compressed_entries", compressed_entries, "fatbin entries stored compressed (listed, not decompressed)");
    f("problems", problems, "damaged or capped fatbin headers");
    f("distributions", distributions,
      "CuPy: where more than one of its distributions is installed (cupy-cuda12x and cupy-cuda13x), each with its version: they share one cupy/ directory");
    f("driver_cuda", driver_cuda, "the CUDA version the driver here supports");
    f("driver_relation", driver_relation, "its CUDA major against the driver's: same-major runs (within a major through minor-version compatibility), needs-newer-driver does not");
    f("driver_needed", driver_needed, "needs-newer-driver: the oldest driver that runs its CUDA major");
    f("alternative_build", alternative_build, "needs-newer-driver, torch: the build of the same release this driver runs ('torch 2.5.1+cu118')");
    f("driver_cuda_major", driver_cuda_major, "needs-newer-driver: the driver's CUDA major, which a build it runs must not exceed");
    f("alternative_hint", alternative_hint, "the command that installs that build");
  }
};

// "torch 2.5.1+cu124": how findings name a framework.
inline std::string framework_label(const FrameworkFacts& framework) {
  return framework.name + (framework.version ? " " + *framework.version : std::string());
}

// One CUDA library a framework (or --target file) loads, found as the
// loader would find it from the framework's own library: its RUNPATH (the
// NVIDIA wheels beside it), LD_LIBRARY_PATH (searched first), the cache.
struct FrameworkLibrary {
  std::string framework, library, requested_by;
  bool found = false;
  std::optional<std::string> path, via, via_detail;
  // Where the requesting library's own RUNPATH holds a copy that lost to
  // LD_LIBRARY_PATH (an older CUDA's libnvJitLink shadowing the wheel's).
  std::optional<std::string> shadowed_copy, shadowed_version;
  std::optional<VersionRelation> shadowed_relation;
  // What it is and which version wins, against the version the framework
  // was built with (torch's wheel pins, TensorFlow's build info).
  std::optional<std::string> label, version, built_against;
  std::optional<VersionRelation> relation;
  // Not found by the loader, but in this environment's NVIDIA wheels,
  // which the framework does not search by itself (ONNX Runtime).
  std::optional<std::string> wheel_copy;
  std::string install_hint;

  template <class F>
  void fields(F& f) const {
    f("framework", framework, "torch 2.5.1+cu124, or a --target file's name");
    f("library", library, "the library asked for (DT_NEEDED): libcudnn.so.9");
    f("requested_by", requested_by, "the object that needs it");
    f("found", found, "whether the loader would find it");
    f("path", path, "where it is found");
    f("via", via, "how: runpath, rpath, ld_library_path, ld.so.cache, default, already-loaded");
    f("via_detail", via_detail, "the RUNPATH or LD_LIBRARY_PATH entry that found it");
    f("shadowed_copy", shadowed_copy, "a copy in the requester's own RUNPATH that LD_LIBRARY_PATH overrode");
    f("shadowed_version", shadowed_version, "that copy's version (its real file name, else its wheel's dist-info): what the requester was installed with");
    f("shadowed_relation", shadowed_relation,
      "the copy found against that copy, over the parts of the version both say: older, same, newer; absent when either is unknown");
    f("label", label, "cuDNN, NCCL, cuBLAS, nvJitLink, ...");
    f("version", version,
      "the version of the copy found: its real file name (the symlink's target), else its packaging (a wheel's dist-info, a "
      "toolkit's version.json, conda-meta), else for cuBLAS, nvJitLink and NVRTC the toolkit directory it is in (cuda-12.1)");
    f("built_against", built_against, "the version the framework was built with: its pinned wheel (torch), its build info (TensorFlow: cuDNN major)");
    f("relation", relation, "the found copy against built_against: same, older, newer (unknown: not comparable)");
    f("wheel_copy", wheel_copy, "not found: a copy in this environment's nvidia/*/lib wheels that the loader does not search");
    f("install_hint", install_hint, "what installs it for this framework");
  }
};

// A library wheel a framework pins exactly (torch's METADATA:
// nvidia-cudnn-cu12==9.1.0.70) against the one installed beside it.
struct WheelPin {
  std::string framework{}, package{}, required{};
  std::optional<std::string> installed{};
  VersionRelation relation = VersionRelation::missing;

  template <class F>
  void fields(F& f) const {
    f("framework", framework, "torch 2.5.1+cu124");
    f("package", package, "the pinned wheel, as its dist-info spells it: nvidia_cudnn_cu12");
    f("required", required, "the version the framework's METADATA pins");
    f("installed", installed, "the version installed in the same site directory");
    f("relation", relation, "same, older (than the pin), newer, missing, or unknown (not comparable)");
  }
};

// A CUDA toolkit's compiler, for people who build CUDA code or framework extensions here.
struct ToolchainFacts {
  std::string nvcc;  // its path
  std::optional<std::string> version, version_source;
  bool on_path = false;  // the first nvcc on PATH: what a build runs
  // The host compiler's range, as the toolkit's include/crt/host_config.h enforces it.
  std::optional<std::int64_t> max_gcc;
  std::optional<std::string> host_compiler;  // the gcc nvcc would run: NVCC_CCBIN, else gcc on PATH
  std::optional<std::int64_t> host_compiler_major;
  std::optional<bool> host_compiler_supported;  // derived; the rule compares the two numbers itself

  template <class F>
  void fields(F& f) const {
    f("nvcc", nvcc, "an nvcc: on PATH, under CUDA_HOME/CUDA_PATH, or /usr/local/cuda*/bin");
    f("version", version, "its CUDA version, 12.4.131");
    f("version_source", version_source, "version.json, or the toolkit's nvidia_cuda_nvcc dist-info");
    f("on_path", on_path, "the first nvcc on PATH: the one a build runs");
    f("max_gcc", max_gcc, "the newest gcc major its include/crt/host_config.h accepts ('#if __GNUC__ > 13' -> 13)");
    f("host_compiler", host_compiler, "the gcc it would run (NVCC_CCBIN, else gcc on PATH), its real path");
    f("host_compiler_major", host_compiler_major, "that gcc's major version, from its file name (gcc-12) or /usr/lib/gcc/TRIPLET/N");
    f("host_compiler_supported", host_compiler_supported,
      "host_compiler_major <= max_gcc, for readers of the report (gpudoctor-report/1 keeps it); rules compare the two themselves");
  }
};

// A framework against the nvcc a build here would use (torch.utils.cpp_extension's check).
struct ExtensionBuild {
  std::string framework{}, framework_cuda{}, nvcc{}, nvcc_version{};
  BuildRelation relation = BuildRelation::same;

  template <class F>
  void fields(F& f) const {
    f("framework", framework, "torch 2.5.1+cu124");
    f("framework_cuda", framework_cuda, "the CUDA it was built with");
    f("nvcc", nvcc, "the nvcc first on PATH");
    f("nvcc_version", nvcc_version, "its version");
    f("relation", relation, "same, minor-differs (a warning from torch) or major-differs (extension builds fail)");
  }
};

struct PackageFacts {
  std::string name, version, site;
  std::optional<std::int64_t> cuda_major;

  template <class F>
  void fields(F& f) const {
    f("name", name, "the distribution name, as in its .dist-info");
    f("version", version, "its version");
    f("site", site, "the site-packages directory");
    f("cuda_major", cuda_major, "the CUDA major its name says it is built for (cupy_cuda12x, jax_cuda12_plugin, nvidia_*_cu12)");
  }
};

// A framework that loads CUDA at run time (CuPy, JAX's CUDA plugin) and the
// CUDA runtime of its major: in the environment's NVIDIA wheels, or where
// the loader finds it.
struct PackageRuntime {
  std::string package{}, version{}, runtime{};
  std::int64_t cuda_major = 0;
  bool found = false;
  std::optional<std::string> found_at{};

  template <class F>
  void fields(F& f) const {
    f("package", package, "cupy_cuda12x, jax_cuda12_plugin, ...");
    f("version", version, "its version");
    f("cuda_major", cuda_major, "the CUDA major it is built for");
    f("runtime", runtime, "the CUDA runtime it needs: libcudart.so.12 (libcudart.so.11.0 for CUDA 11)");
    f("found", found, "whether that runtime is there: an NVIDIA wheel in the same environment, or on the loader's path");
    f("found_at", found_at, "where");
  }
};

// Two NVIDIA wheels of one library for different CUDA majors
// (nvidia-cudnn-cu11 and nvidia-cudnn-cu12) that install the same files:
// the one installed last replaced the other's.
struct WheelOverlap {
  std::string first, second, file, site;
  std::int64_t shared = 0;

  template <class F>
  void fields(F& f) const {
    f("first", first, "one wheel, with its version: nvidia_cudnn_cu11 8.9.6.50");
    f("second", second, "the other, for another CUDA major");
    f("file", file, "a library file both RECORDs list: nvidia/cudnn/lib/libcudnn.so.8");
    f("shared", shared, "how many library files both list");
    f("site", site, "the site-packages directory");
  }
};

// Triton, the compiler behind torch.compile and vLLM's kernels, builds a
// small C launcher on first use: it finds libcuda.so.1 through `ldconfig -p`
// (else LD_LIBRARY_PATH, or TRITON_LIBCUDA_PATH), then runs the C compiler
// with -lcuda, which needs the unversioned libcuda.so.
struct TritonFacts {
  std::string version, site;
  std::vector<std::string> libcuda_dirs;  // as its libcuda_dirs() returns them
  std::string libcuda_dirs_source;        // TRITON_LIBCUDA_PATH, ld.so.cache, LD_LIBRARY_PATH, none
  bool finds_libcuda = false;             // its assertion passes
  std::optional<std::string> driver_dir;  // where libcuda.so.1 really is (the driver-libs layer's)
  std::optional<bool> links_libcuda;      // -lcuda finds a libcuda.so (asked only when libcuda.so.1 is found)
  std::optional<std::string> link_libcuda;
  std::optional<std::string> c_compiler;  // CC, else gcc, else clang on PATH

  template <class F>
  void fields(F& f) const {
    f("version", version, "the triton (or pytorch_triton) wheel's version");
    f("site", site, "the site-packages directory");
    f("libcuda_dirs", libcuda_dirs, "the directories Triton's libcuda_dirs() returns: ldconfig -p lines naming libcuda.so.1, else LD_LIBRARY_PATH entries holding it");
    f("libcuda_dirs_source", libcuda_dirs_source, "TRITON_LIBCUDA_PATH, ld.so.cache, LD_LIBRARY_PATH, or none");
    f("finds_libcuda", finds_libcuda, "one of those directories holds libcuda.so.1 (else 'AssertionError: libcuda.so cannot found!')");
    f("driver_dir", driver_dir, "the directory the loader finds libcuda.so.1 in");
    f("links_libcuda", links_libcuda, "-lcuda finds libcuda.so in those directories, LIBRARY_PATH or the linker's default directories");
    f("link_libcuda", link_libcuda, "the libcuda.so it links against");
    f("c_compiler", c_compiler, "the compiler it runs: CC, else gcc, else clang on PATH");
  }
};

struct ApplicationFacts {
  std::vector<std::string> examined;  // site dirs and --target paths
  std::vector<FrameworkFacts> frameworks;
  std::vector<PackageFacts> gpu_packages;
  std::vector<GpuCodeCheck> checks;
  std::vector<ToolchainFacts> toolchains;
  std::vector<ExtensionBuild> extension_builds;
  std::vector<FrameworkLibrary> libraries;
  std::vector<PackageRuntime> package_runtimes;
  std::vector<WheelPin> wheel_pins;
  std::vector<WheelPin> torch_pins;
  std::vector<WheelOverlap> wheel_overlaps;
  std::vector<TritonFacts> triton;
  std::vector<WheelPin> jax_plugins, jaxlib_ranges;

  template <class F>
  void fields(F& f) const {
    f("examined", examined, "Python site directories and --target paths looked at");
    f("frameworks", frameworks, "frameworks and programs with GPU code");
    f("gpu_packages", gpu_packages, "installed GPU packages: NVIDIA wheels, jax plugins, CuPy, TensorFlow, vLLM, ONNX Runtime GPU, numba, cuda-python");
    f("checks", checks, "each framework against each GPU: does it carry code that runs there");
    f("toolchains", toolchains, "CUDA compilers here: every nvcc on PATH, under CUDA_HOME/CUDA_PATH and /usr/local/cuda*");
    f("extension_builds", extension_builds, "each CUDA framework against the nvcc a build here would use");
    f("libraries", libraries, "the CUDA libraries each framework loads (cuDNN, cuBLAS, NCCL, nvJitLink, ...) and where from");
    f("package_runtimes", package_runtimes, "CuPy and JAX CUDA plugins against the CUDA runtime of their major, where their own modules were not there to read (else they are frameworks, their libraries judged one by one)");
    f("jax_plugins", jax_plugins, "JAX's CUDA plugin (jax_cuda12_plugin) against jaxlib: their versions must be equal, or JAX ignores the plugin");
    f("jaxlib_ranges", jaxlib_ranges, "jax against jaxlib: jaxlib at least jax's _minimum_jaxlib_version and not newer than jax (required is 'MIN to JAX')");
    f("triton", triton, "Triton (torch.compile, vLLM kernels): can it find and link libcuda, and is there a C compiler");
    f("wheel_overlaps", wheel_overlaps, "NVIDIA wheels of one library for two CUDA majors that install the same files");
    f("torch_pins", torch_pins, "packages with compiled code for one torch release (torchvision, torchaudio, xformers, vllm) against the torch installed");
    f("wheel_pins", wheel_pins, "the NVIDIA wheels a framework pins in its METADATA (cuDNN, cuBLAS, NCCL, ...) against those installed");
  }
};

}  // namespace gd
