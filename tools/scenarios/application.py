"""The application layer: torch, TensorFlow, ONNX Runtime, vLLM, CuPy and
JAX against the GPUs, the driver and the CUDA libraries they load; toolchains."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    # The application layer: frameworks' GPU code against the GPUs.
    torch_cu124_archs = [(2, arch, 1, 7) for arch in (50, 60, 70, 75, 80, 86, 90)]
    s = h100_host("host-torch-matches-gpu", "An H100 with a PyTorch cu124 wheel in a venv: SASS for sm_90 is there.")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("ok", None, [])

    # The CUDA libraries torch really loads, from its own libtorch_cuda.so.
    s = h100_host("host-torch-wheel-libraries", "torch cu124 in a venv with its nvidia-* wheels: every CUDA library it "
                  "needs is found through its RUNPATH.")
    pins = {"nvidia-cudnn-cu12": "9.1.0.70", "nvidia-cublas-cu12": "12.4.5.8"}
    s.torch_venv(pins=pins).torch_wheel_libraries()
    s.package("nvidia_cudnn_cu12", "9.1.0.70").package("nvidia_cublas_cu12", "12.4.5.8")
    yield s.expect("ok", None, [], absent=["application-cuda-library-missing", "application-cuda-library-shadowed",
                                           "application-wheel-older-than-pinned"])

    s = h100_host("host-torch-cudnn-older-than-pinned", "torch 2.5.1 pins nvidia-cudnn-cu12==9.1.0.70 but 8.9.2.26 was "
                  "installed over it: 'cuDNN version incompatibility' at first use, a failure. A newer cuBLAS than pinned is fine.")
    s.torch_venv(pins=pins).torch_wheel_libraries()
    s.package("nvidia_cudnn_cu12", "8.9.2.26").package("nvidia_cublas_cu12", "12.4.5.9")
    yield s.expect("fail", "application", ["application-wheel-older-than-pinned"], headline="application-wheel-older-than-pinned")

    s = h100_host("host-torch-cudnn-wheel-missing", "torch cu124 whose nvidia-cudnn-cu12 wheel is gone: libcudnn.so.9 "
                  "is found nowhere, so `import torch` fails.")
    yield s.torch_venv().torch_wheel_libraries(wheels=("cuda_runtime", "cublas")).expect(
        "fail", "application", ["application-cuda-library-missing"], headline="application-cuda-library-missing")

    def cublas_first_on_ld_library_path(name, description, directory):
        """torch cu124 built with the cuBLAS 12.4.5.8 wheel, and a libcublas.so.12 named by its major alone in
        directory, which LD_LIBRARY_PATH puts first (it is searched before RUNPATH)."""
        s = h100_host(name, description)
        s.env["LD_LIBRARY_PATH"] = directory
        s.file(f"{directory}/libcublas.so.12", tiny_elf("libcublas.so.12", needed=["libcublasLt.so.12"]))
        s.file(f"{directory}/libcublasLt.so.12", tiny_elf("libcublasLt.so.12"))
        return s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})

    yield cublas_first_on_ld_library_path(
        "host-torch-ld-library-path-shadows-wheel", "LD_LIBRARY_PATH names an older CUDA 12.1 whose libcublas (its file "
        "named by the major alone; the toolkit directory says 12.1) wins over the wheel's 12.4.5.8 that torch was built "
        "with: 'undefined symbol'.", "/usr/local/cuda-12.1/lib64").expect(
        "fail", "application", ["application-cuda-library-older-than-build"], absent=["application-cuda-library-shadowed"],
        headline="application-cuda-library-older-than-build")
    yield cublas_first_on_ld_library_path(
        "host-torch-ld-library-path-shadows-wheel-version-unknown", "LD_LIBRARY_PATH names a vendor directory whose "
        "libcublas.so.12 carries no version anywhere (no full file name, no packaging, no toolkit directory): which copy "
        "is older cannot be known, so it warns and says so.", "/opt/vendor/lib").expect(
        "warn", None, ["application-cuda-library-shadowed"], absent=["application-cuda-library-older-than-build"],
        headline="application-cuda-library-shadowed")

    # The libraries a framework loads against the versions it was built with.
    s = h100_host("host-torch-cudnn-older-on-ld-library-path", "torch 2.5.1 was built against cuDNN 9.1.0.70 (its pinned "
                  "wheel is there), but LD_LIBRARY_PATH puts a system cuDNN 9.0.0 first: 'cuDNN version incompatibility'.")
    s.env["LD_LIBRARY_PATH"] = "/opt/cudnn/lib"
    s.file("/opt/cudnn/lib/libcudnn.so.9.0.0", tiny_elf("libcudnn.so.9")).link("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.0.0")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    yield s.expect("fail", "application", ["application-cuda-library-older-than-build"],
                   absent=["application-cuda-library-shadowed", "application-cuda-library-shadowed-by-older"],
                   headline="application-cuda-library-older-than-build")

    # nvJitLink: torch does not load it, cuSPARSE does, and cuSPARSE 12.N needs nvJitLink 12.N's symbols.
    def torch_with_cusparse(name, description, on_path_version):
        s = h100_host(name, description)
        if on_path_version:
            s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.1/lib64"
            s.file(f"/usr/local/cuda-12.1/lib64/libnvJitLink.so.{on_path_version}", tiny_elf("libnvJitLink.so.12"))
            s.link("/usr/local/cuda-12.1/lib64/libnvJitLink.so.12", f"libnvJitLink.so.{on_path_version}")
        s.torch_venv(pins=pins).torch_wheel_libraries(
            wheels=("cuda_runtime", "cublas", "cudnn", "cusparse", "nvjitlink"),
            versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8", "cusparse": "12.3.1.170", "nvjitlink": "12.4.127"})
        return s

    s = torch_with_cusparse("host-torch-cusparse-nvjitlink-wheels", "torch 2.5.1 whose cuSPARSE 12.3 finds the "
                            "nvidia-nvjitlink-cu12 12.4.127 wheel through its own RUNPATH: nothing shadows it.", None)
    yield s.expect("ok", None, [], absent=["application-cuda-library-shadowed", "application-cuda-library-shadowed-by-older"])

    s = torch_with_cusparse("host-torch-nvjitlink-shadowed-by-older", "LD_LIBRARY_PATH puts CUDA 12.1's libnvJitLink "
                            "12.1.105 before the nvidia-nvjitlink-cu12 12.4.127 wheel that torch's cuSPARSE 12.3 came with: "
                            "'libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_4' at import (pytorch#111469).", "12.1.105")
    yield s.expect("fail", "application", ["application-cuda-library-shadowed-by-older"],
                   absent=["application-cuda-library-shadowed"], headline="application-cuda-library-shadowed-by-older")

    s = torch_with_cusparse("host-torch-nvjitlink-shadowed-by-newer", "LD_LIBRARY_PATH puts a CUDA 12.6 libnvJitLink "
                            "12.6.77 before the wheel's 12.4.127: newer keeps every 12.4 symbol, so the program works (healthy).",
                            "12.6.77")
    yield s.expect("ok", None, [], absent=["application-cuda-library-shadowed", "application-cuda-library-shadowed-by-older"])

    s = h100_host("host-torch-cublas-older-on-ld-library-path", "torch 2.5.1 pins cuBLAS 12.4.5.8; LD_LIBRARY_PATH puts CUDA "
                  "12.1's cuBLAS 12.1.3.1 first: the functions newer than 12.1 that torch calls are missing (undefined symbol).")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.1/lib64"
    s.file("/usr/local/cuda-12.1/lib64/libcublas.so.12.1.3.1", tiny_elf("libcublas.so.12", needed=["libcublasLt.so.12"]))
    s.link("/usr/local/cuda-12.1/lib64/libcublas.so.12", "libcublas.so.12.1.3.1")
    s.file("/usr/local/cuda-12.1/lib64/libcublasLt.so.12.1.3.1", tiny_elf("libcublasLt.so.12"))
    s.link("/usr/local/cuda-12.1/lib64/libcublasLt.so.12", "libcublasLt.so.12.1.3.1")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    yield s.expect("fail", "application", ["application-cuda-library-older-than-build"],
                   absent=["application-cuda-library-shadowed"], headline="application-cuda-library-older-than-build")

    s = h100_host("host-cudnn-wheels-of-two-majors", "torch cu124 with nvidia-cudnn-cu12 9.1.0.70, and nvidia-cudnn-cu11 "
                  "9.1.0.70 installed later by another package: both install nvidia/cudnn/lib/libcudnn.so.9.")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    s.file("/opt/venv/lib/python3.11/site-packages/nvidia_cudnn_cu11-9.1.0.70.dist-info/RECORD",
           "nvidia/cudnn/lib/libcudnn.so.9,sha256=y,1\nnvidia/cudnn/include/cudnn.h,sha256=y,1\n")
    yield s.expect("warn", None, ["application-nvidia-wheels-overwrite"], headline="application-nvidia-wheels-overwrite")

    # Triton, torch.compile's compiler: libcuda.so.1 through ldconfig -p, -lcuda, a C compiler.
    def torch_with_triton(name, description, cache=True, link=True, gcc=True):
        s = h100_host(name, description)
        lib = "/usr/lib/x86_64-linux-gnu"
        if cache:
            s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", f"{lib}/libcuda.so.1"), ("libnvidia-ml.so.1", f"{lib}/libnvidia-ml.so.1"),
                                                ("libc.so.6", f"{lib}/libc.so.6")]))
        if link:
            s.link(f"{lib}/libcuda.so", "libcuda.so.1")
        if gcc:
            s.file("/usr/bin/gcc-12", "").link("/usr/bin/gcc", "gcc-12")
        s.torch_venv(fatbin=torch_cu124_archs).package("triton", "3.1.0")
        return s

    s = torch_with_triton("host-triton-ready", "torch 2.5.1 with triton 3.1.0: libcuda.so.1 in ld.so.cache, libcuda.so beside "
                          "it, gcc on PATH: torch.compile can build its launcher.")
    yield s.expect("ok", None, [], absent=["application-triton-cannot-find-libcuda", "application-triton-cannot-link-libcuda",
                                           "application-triton-no-c-compiler"])

    s = torch_with_triton("host-triton-libcuda-not-in-cache", "The driver's libraries were copied in without running ldconfig: "
                          "the loader finds libcuda.so.1 in a default directory, Triton's `ldconfig -p` does not.", cache=False)
    yield s.expect("warn", None, ["application-triton-cannot-find-libcuda"], headline="application-triton-cannot-find-libcuda")

    s = torch_with_triton("host-triton-cannot-link-libcuda", "libcuda.so.1 is in the cache but there is no libcuda.so "
                          "anywhere the linker looks: Triton's `cc ... -lcuda` fails.", link=False)
    yield s.expect("warn", None, ["application-triton-cannot-link-libcuda"], absent=["application-triton-cannot-find-libcuda"], headline="application-triton-cannot-link-libcuda")

    s = torch_with_triton("host-triton-no-c-compiler", "A slim image's Python with torch and triton and no gcc or clang: "
                          "torch.compile stops at 'Failed to find C compiler'.", gcc=False)
    yield s.expect("warn", None, ["application-triton-no-c-compiler"], headline="application-triton-no-c-compiler")

    s = h100_host("host-torch-nccl-older-on-ld-library-path", "torch 2.5.1 pins NCCL 2.21.5; LD_LIBRARY_PATH puts a system "
                  "NCCL 2.18.3 first: newer NCCL symbols are missing at import.")
    s.env["LD_LIBRARY_PATH"] = "/opt/nccl/lib"
    s.file("/opt/nccl/lib/libnccl.so.2.18.3", tiny_elf("libnccl.so.2")).link("/opt/nccl/lib/libnccl.so.2", "libnccl.so.2.18.3")
    s.torch_venv(pins=dict(pins, **{"nvidia-nccl-cu12": "2.21.5"})).torch_wheel_libraries(
        wheels=("cuda_runtime", "cublas", "cudnn", "nccl"), versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8", "nccl": "2.21.5"})
    yield s.expect("fail", "application", ["application-cuda-library-older-than-build"],
                   absent=["application-cuda-library-shadowed"], headline="application-cuda-library-older-than-build")

    # A framework built for a newer CUDA major than the driver: both ways out.
    def a100_on_470(name, description):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
        s.nvidia_driver("470.256.02").claimed("0000:07:00.0", "NVIDIA A100-SXM4-40GB", 0)
        return s.driver_nodes([0], version="470.256.02")

    s = a100_on_470("host-torch-cu124-on-470", "torch 2.5.1+cu124 on an A100 with driver 470 (CUDA 11.4): upgrade the "
                    "driver to a CUDA 12 one, or install torch 2.5.1 from the cu118 index.")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("fail", "application", ["application-built-for-newer-cuda"], headline="application-built-for-newer-cuda")

    s = a100_on_470("host-torch-cu124-runtime-on-470", "The same with the nvidia-cuda-runtime-cu12 wheel beside it: the "
                    "runtime's finding is the cause, the framework's is listed under it.")
    s.torch_venv(fatbin=torch_cu124_archs).cuda_wheel("/opt/venv/lib/python3.11/site-packages", cudnn=None)
    yield s.expect("fail", "cuda-runtime", ["driver-too-old-for-runtime", "application-built-for-newer-cuda"], headline="driver-too-old-for-runtime")

    s = a100_on_470("host-tensorflow-cu12-on-470", "TensorFlow 2.16 (built for CUDA 12.3) with its [and-cuda] wheels on "
                    "an A100 with driver 470 (CUDA 11.4): the runtime wheel's finding is the cause; the framework's, "
                    "listed under it, offers a driver for CUDA 12 or a TensorFlow built for CUDA 11.")
    yield s.tensorflow_venv().tensorflow_wheels().expect("fail", "cuda-runtime", ["driver-too-old-for-runtime", "application-built-for-newer-cuda"],
                                                       headline="driver-too-old-for-runtime")

    # TensorFlow: its build info, and the libraries it dlopen-s by name.
    s = h100_host("host-tensorflow-and-cuda", "TensorFlow 2.16 with its [and-cuda] wheels on its RUNPATH, on an H100: its "
                  "build carries SASS up to sm_89 and compute_90 PTX (CUDA 12.3), which the 550 driver JIT-compiles.")
    yield s.tensorflow_venv().tensorflow_wheels().expect("ok", None, [], info=["application-runs-by-ptx-jit"])

    s = h100_host("host-tensorflow-runpath-on-pywrap", "TensorFlow whose RUNPATH into its wheels is on "
                  "python/_pywrap_tensorflow_internal.so, not libtensorflow_framework.so.2: the libraries are found from there.")
    yield s.tensorflow_venv(runpath_on_pywrap=True).tensorflow_wheels().expect(
        "ok", None, [], info=["application-runs-by-ptx-jit"], absent=["application-cuda-library-only-in-wheels"])

    s = h100_host("host-tensorflow-cudnn-missing", "TensorFlow 2.16 whose nvidia-cudnn-cu12 wheel is missing: "
                  "'Could not load dynamic library libcudnn.so.8', and the GPU is skipped.")
    yield s.tensorflow_venv().tensorflow_wheels(skip=("cudnn",)).expect("fail", "application", ["application-cuda-library-missing"], headline="application-cuda-library-missing")

    s = h100_host("host-tensorflow-wheels-off-runpath", "TensorFlow 2.16.1 with its [and-cuda] wheels installed, but no "
                  "RUNPATH into them and no LD_LIBRARY_PATH: 'Cannot dlopen some GPU libraries' (tensorflow#65842).")
    yield s.tensorflow_venv(wheels_on_runpath=False).tensorflow_wheels().expect(
        "fail", "application", ["tensorflow-cuda-libraries-not-found"],
        absent=["application-cuda-library-missing", "application-cuda-library-only-in-wheels"], headline="tensorflow-cuda-libraries-not-found")

    # ONNX Runtime GPU: its CUDA provider links CUDA libraries it does not search wheels for.
    s = h100_host("host-onnxruntime-wheels-need-preload", "onnxruntime-gpu 1.20 with the NVIDIA wheels installed but not on "
                  "the loader's path: the provider fails to load unless they are preloaded.")
    s.onnxruntime_venv()
    for wheel, package, version, sonames in (("cublas", "nvidia_cublas_cu12", "12.6.4.1", ["libcublas.so.12", "libcublasLt.so.12"]),
                                              ("cudnn", "nvidia_cudnn_cu12", "9.5.1.17", ["libcudnn.so.9"]),
                                              ("curand", "nvidia_curand_cu12", "10.3.7.77", ["libcurand.so.10"]),
                                              ("cufft", "nvidia_cufft_cu12", "11.3.0.4", ["libcufft.so.11"]),
                                              ("cuda_runtime", "nvidia_cuda_runtime_cu12", "12.4.127", ["libcudart.so.12"])):
        s.nvidia_wheel(wheel, package, version, sonames)
    yield s.expect("warn", None, ["application-cuda-library-only-in-wheels"], absent=["application-cuda-library-missing"], headline="application-cuda-library-only-in-wheels")

    s = h100_host("host-onnxruntime-toolkit-on-path", "onnxruntime-gpu 1.20 with a CUDA 12.6 toolkit and cuDNN 9 on "
                  "LD_LIBRARY_PATH: every library its CUDA provider links is found.")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.6/lib64:/usr/lib/x86_64-linux-gnu/cudnn9"
    for name in ("libcublas.so.12", "libcublasLt.so.12", "libcurand.so.10", "libcufft.so.11", "libcudart.so.12"):
        s.file(f"/usr/local/cuda-12.6/lib64/{name}", tiny_elf(name))
    s.file("/usr/lib/x86_64-linux-gnu/cudnn9/libcudnn.so.9", tiny_elf("libcudnn.so.9"))
    yield s.onnxruntime_venv().expect("ok", None, [], absent=["application-cuda-library-only-in-wheels", "application-cuda-library-missing"])

    s = h100_host("host-onnxruntime-no-cuda-libraries", "onnxruntime-gpu 1.20 and no CUDA libraries anywhere: its CUDA "
                  "provider cannot load, and sessions fall back to the CPU.")
    yield s.onnxruntime_venv().expect("fail", "application", ["application-cuda-library-missing"], headline="application-cuda-library-missing")

    # Packages compiled for exactly one torch release.
    def torch_with_extensions(name, description, torch_version):
        s = h100_host(name, description)
        s.torch_venv(version=torch_version + "+cu124", pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
        s.package("torchvision", "0.20.1", requires=["numpy", "torch==2.5.1", "pillow!=8.3.*,>=5.3.0"])
        s.package("vllm", "0.6.4.post1", requires=["torch (==2.5.1)", "xformers==0.0.28.post3; platform_system == \"Linux\""])
        s.file("/opt/venv/lib/python3.11/site-packages/vllm/_C.abi3.so",
               tiny_elf("_C.abi3.so", needed=["libcudart.so.12"], fatbin=[(2, arch, 1, 7) for arch in (70, 75, 80, 86, 89, 90)]))
        return s

    s = torch_with_extensions("host-vllm-torchvision-match-torch", "vllm 0.6.4 and torchvision 0.20.1 beside the torch 2.5.1 "
                              "they pin: vLLM's kernels carry sm_90, its libcudart is torch's, already loaded.", "2.5.1")
    yield s.expect("ok", None, [], absent=["application-torch-version-mismatch", "application-cuda-library-missing",
                                           "application-cuda-library-older-than-build"])

    s = h100_host("host-torchvision-in-venv-torch-in-system", "A venv created with --system-site-packages holds torchvision "
                  "0.20.1; the torch 2.5.1 it imports is the system's, in /usr/local/lib/python3.11/site-packages: fine.")
    s.torch_venv(fatbin=torch_cu124_archs, prefix="/usr/local")
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    s.package("torchvision", "0.20.1", requires=["torch==2.5.1"])
    yield s.expect("ok", None, [], absent=["application-torch-version-mismatch"])

    s = torch_with_extensions("host-torch-upgraded-under-torchvision", "torch upgraded to 2.6.0 under torchvision 0.20.1 and "
                              "vllm 0.6.4, which pin torch 2.5.1: 'operator torchvision::nms does not exist'.", "2.6.0")
    yield s.expect("fail", "application", ["application-torch-version-mismatch"], headline="application-torch-version-mismatch")

    s = Snapshot("host-rtx5090-torch-cu124", "An RTX 5090 (sm_120) on driver 570 with a torch cu124 wheel: no SASS or PTX for it (FC-34).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
    s.nvidia_driver("570.133.20", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
    s.driver_nodes([0], version="570.133.20").file("/usr/bin/nvidia-modprobe", "")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("fail", "application", ["application-no-kernel-image"], headline="application-no-kernel-image")

    s = Snapshot("host-venv-on-path-rtx5090", "A machine (or image) whose /opt/venv/bin is on PATH without VIRTUAL_ENV, as Dockerfiles set it: "
                 "the venv's torch cu124 is found through python3 and pyvenv.cfg, and has no code for the RTX 5090.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
    s.nvidia_driver("570.133.20", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
    s.driver_nodes([0], version="570.133.20").file("/usr/bin/nvidia-modprobe", "")
    s.torch_venv(fatbin=torch_cu124_archs)
    del s.env["VIRTUAL_ENV"]
    s.env["PATH"] = "/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    s.file("/opt/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    s.file("/usr/bin/python3.11", "").link("/opt/venv/bin/python3", "/usr/bin/python3.11")
    yield s.expect("fail", "application", ["application-no-kernel-image"], headline="application-no-kernel-image")

    s = h100_host("host-ptx-newer-than-driver", "An H100 on driver 550 (CUDA 12.4) with a build carrying only compute_90 PTX from CUDA 12.8 (PTX ISA 8.7).")
    yield s.torch_venv(version="2.7.0+cu128", cuda="12.8", fatbin=[(1, 90, 8, 7)]).expect(
        "fail", "application", ["application-ptx-needs-newer-driver"], absent=["application-no-kernel-image"], headline="application-ptx-needs-newer-driver")

    s = h100_host("host-torch-ptx-jit", "An H100 with a build that has SASS only up to sm_86 and PTX compute_86 (ISA 8.4): it JIT-compiles.")
    yield s.torch_venv(fatbin=[(2, 80, 1, 7), (2, 86, 1, 7), (1, 86, 8, 4)]).expect("ok", None, [], info=["application-runs-by-ptx-jit"])

    s = h100_host("host-torch-fatbin-damaged", "An H100 whose libtorch_cuda.so has a damaged fatbin header: said, and no false 'no kernel image'.")
    yield s.torch_venv(fatbin=torch_cu124_archs, damaged=True).expect(
        "ok", None, [], info=["application-gpu-code-unreadable"], absent=["application-no-kernel-image"])

    s = h100_host("host-nvcc-13-torch-cu124", "torch cu124 in a venv and CUDA 13.0's nvcc first on PATH: extension builds fail.")
    s.file("/usr/local/cuda-13.0/bin/nvcc", "").file("/usr/local/cuda-13.0/version.json",
                                                    '{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}, "cuda_nvcc": {"name": "CUDA NVCC", "version": "13.0.88"}}\n')
    s.file("/usr/local/cuda-12.4/bin/nvcc", "").file("/usr/local/cuda-12.4/version.json", '{"cuda_nvcc": {"version": "12.4.131"}}\n')
    s.env["PATH"] = "/usr/local/cuda-13.0/bin:/usr/local/cuda-12.4/bin:/usr/bin:/bin"
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("warn", None, ["extension-build-cuda-major-differs"], headline="extension-build-cuda-major-differs")

    s = h100_host("host-nvcc-126-torch-cu124", "torch cu124 with CUDA 12.6's nvcc on PATH (a pip-style toolkit, versions in dist-info): fine, noted.")
    s.file("/usr/local/cuda-12.6/bin/nvcc", "").directory("/usr/local/cuda-12.6/dist-info/nvidia_cuda_nvcc-12.6.85.dist-info")
    s.file("/usr/local/cuda-12.6/dist-info/nvidia_cuda_nvcc-12.6.85.dist-info/RECORD", "bin/nvcc,,\n")
    s.env["PATH"] = "/usr/local/cuda-12.6/bin:/usr/bin:/bin"
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("ok", None, [], info=["extension-build-cuda-minor-differs"])

    # The host compiler nvcc would run, against the range its host_config.h enforces.
    def toolkit_with_gcc(name, description, gcc, ccbin=None):
        s = h100_host(name, description)
        s.file("/usr/local/cuda-12.4/bin/nvcc", "").file("/usr/local/cuda-12.4/version.json", '{"cuda_nvcc": {"version": "12.4.131"}}\n')
        s.file("/usr/local/cuda-12.4/include/crt/host_config.h",
               "#if defined(__GNUC__)\n\n#if __GNUC__ > 13\n\n#error -- unsupported GNU version! gcc versions later than 13 "
               "are not supported!\n\n#endif /* __GNUC__ > 13 */\n")
        for version in ("13", "14"):
            s.file(f"/usr/bin/gcc-{version}", "").file(f"/usr/bin/g++-{version}", "")
        s.link("/usr/bin/gcc", f"gcc-{gcc}")
        s.env["PATH"] = "/usr/local/cuda-12.4/bin:/usr/bin:/bin"
        if ccbin:
            s.env["NVCC_CCBIN"] = ccbin
        return s

    yield toolkit_with_gcc("host-nvcc-gcc-too-new", "CUDA 12.4's nvcc with gcc 14 as the default compiler: host_config.h "
                           "stops every build ('gcc versions later than 13 are not supported').", "14").expect(
        "warn", None, ["extension-build-host-compiler-unsupported"], headline="extension-build-host-compiler-unsupported")
    yield toolkit_with_gcc("host-nvcc-ccbin-supported", "gcc 14 is the default, but NVCC_CCBIN points nvcc at g++-13: "
                           "builds work.", "14", ccbin="/usr/bin/g++-13").expect(
        "ok", None, [], absent=["extension-build-host-compiler-unsupported"])

    # CuPy and JAX load CUDA at run time: the runtime of their major must be there.
    site = "/opt/venv/lib/python3.11/site-packages"
    s = h100_host("host-cupy-jax-with-cuda-wheels", "cupy-cuda12x and jax[cuda12] in a venv with the nvidia-*-cu12 wheels: "
                  "their CUDA 12 runtime is there.")
    s.package("cupy_cuda12x", "13.3.0").package("jax_cuda12_plugin", "0.4.35").package("jax_cuda12_pjrt", "0.4.35")
    yield s.cuda_wheel(site, cudnn=None).expect("ok", None, [], absent=["application-package-cuda-runtime-missing"])

    s = h100_host("host-cupy-cuda11x-among-cu12-wheels", "cupy-cuda11x in a venv whose NVIDIA wheels are all for CUDA 12, "
                  "with no CUDA 11 toolkit: its first GPU call fails to load libcudart.so.11.0, a failure of the program.")
    s.package("cupy_cuda11x", "13.3.0")
    yield s.cuda_wheel(site, cudnn=None).expect("fail", "application", ["application-package-cuda-runtime-missing"],
                                                headline="application-package-cuda-runtime-missing")

    # JAX's own version checks: plugin == jaxlib, minimum <= jaxlib <= jax.
    def jax_venv(name, description, jax="0.4.35", jaxlib="0.4.35", plugin="0.4.35", minimum="0.4.35"):
        s = h100_host(name, description)
        s.package("jax", jax).package("jaxlib", jaxlib).package("jax_cuda12_plugin", plugin).package("jax_cuda12_pjrt", plugin)
        s.file(f"{site}/jax/version.py", f'_version: str = "{jax}"\n_minimum_jaxlib_version: str = "{minimum}"\n')
        return s.cuda_wheel(site, cudnn=None)

    yield jax_venv("host-jax-cuda12-matched", "jax, jaxlib and the CUDA 12 plugin of one release (0.4.35): JAX uses the GPU.").expect(
        "ok", None, [], absent=["application-jax-plugin-version-mismatch", "application-jaxlib-outside-jax-range"])
    yield jax_venv("host-jax-plugin-behind-jaxlib", "The CUDA plugin at 0.7.2 with jax and jaxlib at 0.7.1 "
                   "('JAX plugin ... will not be used'): JAX runs on the CPU.",
                   jax="0.7.1", jaxlib="0.7.1", plugin="0.7.2", minimum="0.7.1").expect(
        "fail", "application", ["application-jax-plugin-version-mismatch"], headline="application-jax-plugin-version-mismatch")
    yield jax_venv("host-jaxlib-too-old-for-jax", "jax 0.4.35 needs jaxlib >= 0.4.34; jaxlib 0.4.30 is installed: "
                   "`import jax` fails.", jaxlib="0.4.30", plugin="0.4.30", minimum="0.4.34").expect(
        "fail", "application", ["application-jaxlib-outside-jax-range"], headline="application-jaxlib-outside-jax-range")

    # CuPy and JAX judged by the libraries they really load, from their own modules.
    ctk12 = ("cuda_runtime", "cuda_nvrtc", "cublas", "cufft", "curand", "cusparse", "nvjitlink")
    s = h100_host("host-cupy13-with-toolkit", "cupy-cuda12x 13.3.0 with a CUDA 12.4 toolkit on LD_LIBRARY_PATH: every "
                  "library its modules link, and NVRTC, is found.")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.4/lib64"
    yield s.cuda12_toolkit_libraries().cupy_wheel().expect(
        "ok", None, [], absent=["application-cuda-library-missing", "application-cuda-library-only-in-wheels",
                                "application-package-cuda-runtime-missing", "application-cupy-packages-mixed"])

    s = h100_host("host-cupy13-only-cuda-wheels", "cupy-cuda12x 13.3.0 beside the nvidia-*-cu12 wheels and no toolkit: "
                  "CuPy 13 links libcudart.so.12 without a RUNPATH into the wheels, so `import cupy` fails "
                  "('libcudart.so.12: cannot open shared object file') unless something loaded them first.")
    yield s.cuda12_wheels(ctk12).cupy_wheel().expect(
        "warn", None, ["application-cuda-library-only-in-wheels"], absent=["application-cuda-library-missing"],
        headline="application-cuda-library-only-in-wheels")

    # Two CuPy wheels write one cupy/ directory (gpustack/gpustack#5459).
    s = h100_host("host-cupy-two-wheels-mixed", "cupy-cuda12x and cupy-cuda13x installed together (two dependencies "
                  "each pulled one): cupy/ is a mix of both.")
    s.cuda12_toolkit_libraries().cupy_wheel().package("cupy_cuda13x", "13.6.0")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.4/lib64"
    yield s.expect("warn", None, ["application-cupy-packages-mixed"], headline="application-cupy-packages-mixed")
    # An older installer kept the project's own spelling in the folder name; pip matches it as cupy_cuda13x.
    s = h100_host("host-cupy-two-wheels-mixed-spelling", "cupy-cuda12x and a CuPy-CUDA13x whose dist-info keeps "
                  "the project's capitals: the same two wheels in one cupy/.")
    s.cuda12_toolkit_libraries().cupy_wheel().package("CuPy_CUDA13x", "13.6.0")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.4/lib64"
    yield s.expect("warn", None, ["application-cupy-packages-mixed"], headline="application-cupy-packages-mixed")

    s = h100_host("host-cupy14-ctk-wheels", "cupy-cuda12x[ctk] 14.0.1: the CUDA 12 wheels, found by cuda-pathfinder "
                  "before the loader is asked; no toolkit, no LD_LIBRARY_PATH.")
    yield s.cuda12_wheels(ctk12).cupy_wheel(version="14.0.1").expect(
        "ok", None, [], absent=["application-cuda-library-missing", "application-cuda-library-only-in-wheels"])

    s = h100_host("host-cupy14-no-cuda-libraries", "cupy-cuda12x 14.0.1 installed without [ctk] and without a toolkit: "
                  "its CUDA 12 libraries are nowhere.")
    yield s.cupy_wheel(version="14.0.1").expect(
        "fail", "application", ["application-cuda-library-missing"], absent=["application-package-cuda-runtime-missing"],
        headline="application-cuda-library-missing")

    jax12 = ("cuda_runtime", "cudnn", "cufft", "cuda_cupti", "cublas", "cusparse", "nvjitlink")
    s = h100_host("host-jax-cuda12-wheels", "jax[cuda12] 0.7.1: the plugin loads its nvidia-*-cu12 wheels by path.")
    yield s.cuda12_wheels(jax12).jax_cuda_plugin().expect(
        "ok", None, [], absent=["application-cuda-library-missing", "application-cuda-library-only-in-wheels",
                                "application-jax-plugin-version-mismatch"])

    s = h100_host("host-jax-older-cudnn-on-ld-library-path", "jax[cuda12] 0.7.1 with a system cuDNN 9.0 first on "
                  "LD_LIBRARY_PATH: JAX loads the wheel's cuDNN by path before XLA asks by name, so the older one never wins.")
    s.env["LD_LIBRARY_PATH"] = "/opt/cudnn/lib"
    s.file("/opt/cudnn/lib/libcudnn.so.9.0.0", tiny_elf("libcudnn.so.9")).link("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.0.0")
    yield s.cuda12_wheels(jax12).jax_cuda_plugin().expect(
        "ok", None, [], absent=["application-cuda-library-shadowed", "application-cuda-library-shadowed-by-older",
                                "application-cuda-library-older-than-build"])

    s = h100_host("host-jax-ld-library-path-old-nvjitlink", "jax[cuda12] 0.7.1 with the HPC SDK's CUDA 12.4 on "
                  "LD_LIBRARY_PATH (jax-ml/jax#30050): JAX loads the wheel's cuSPARSE 12.5 by path, but the nvJitLink it "
                  "needs is found on LD_LIBRARY_PATH first, 12.4 against the wheel's 12.9: 'Unable to load cuSPARSE', CPU.")
    sdk = "/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64"
    s.env["LD_LIBRARY_PATH"] = sdk
    s.file(f"{sdk}/libnvJitLink.so.12.4.127", tiny_elf("libnvJitLink.so.12")).link(f"{sdk}/libnvJitLink.so.12", "libnvJitLink.so.12.4.127")
    yield s.cuda12_wheels(jax12, versions={"cusparse": "12.5.10.65", "nvjitlink": "12.9.86"}).jax_cuda_plugin().expect(
        "fail", "application", ["application-cuda-library-shadowed-by-older"],
        headline="application-cuda-library-shadowed-by-older")

    s = h100_host("host-jax-cudnn-wheel-missing", "jax[cuda12] 0.7.1 whose nvidia-cudnn-cu12 wheel was removed: "
                  "'Unable to load cuDNN. Is it installed?', and JAX runs on the CPU.")
    yield s.cuda12_wheels([w for w in jax12 if w != "cudnn"]).jax_cuda_plugin().expect(
        "fail", "application", ["application-cuda-library-missing"], headline="application-cuda-library-missing")

    s = h100_host("host-torch-cpu-build", "An H100 whose venv holds torch 2.5.1+cpu: 'Torch not compiled with CUDA enabled' (FC-36).")
    yield s.torch_venv(version="2.5.1+cpu", cuda=None).expect("warn", None, ["application-cpu-only-build"], headline="application-cpu-only-build")
