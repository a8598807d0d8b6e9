"""Images, checked with --image against the host named by --gpu and --host-driver."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    # Images, checked with --image against the host named by --gpu and --host-driver.
    def image(name, description, runtime="12.4.131", major="12"):
        s = Snapshot(name, description)
        s.uname["release"] = "6.8.0-1015-aws"  # the build machine's, not the image's
        toolkit = "/usr/local/cuda-" + ".".join(runtime.split(".")[:2])
        s.file(f"{toolkit}/lib64/libcudart.so.{runtime}", tiny_elf(f"libcudart.so.{major}"))
        s.link(f"{toolkit}/lib64/libcudart.so.{major}", f"libcudart.so.{runtime}")
        s.link("/usr/local/cuda", toolkit.rsplit("/", 1)[1])
        s.file("/etc/ld.so.conf.d/000_cuda.conf", toolkit + "/lib64\n")
        s.file("/etc/ld.so.cache", ld_cache([(f"libcudart.so.{major}", f"{toolkit}/lib64/libcudart.so.{major}")]))
        s.env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
                      "CUDA_VERSION": runtime})
        return s

    host_550_h100 = {"image": True, "gpu": "2330", "host_driver": "550.54.15"}
    yield image("image-healthy-on-its-host", "A CUDA 12.4 image judged for an H100 host with driver 550.54.15: it will run.").expect(
        "ok", None, [], options=host_550_h100)

    yield image("image-runtime-newer-than-host", "A CUDA 13.0 image judged for a host with driver 550 (CUDA 12.4): it will not run.",
                runtime="13.0.48", major="13").expect(
        "fail", "image-config", ["require-unsatisfied", "driver-too-old-for-runtime"], options=host_550_h100, headline="require-unsatisfied")

    # In a RUN step of `docker build`, /.dockerenv is the build sandbox's, not the image's: an image whose
    # base sets no NVIDIA_VISIBLE_DEVICES (python:3.12 with a CUDA runtime) is not "a container started without a GPU".
    s = image("image-in-build-sandbox", "A CUDA runtime on a plain base image (no NVIDIA_* variables), judged inside a "
              "RUN step where /.dockerenv exists: healthy, the GPU is asked for at run time.")
    for variable in ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "CUDA_VERSION"):
        del s.env[variable]
    s.file("/.dockerenv", "")
    yield s.expect("ok", None, [], absent=["container-gpu-not-requested", "container-gpu-not-injected"],
                   options=host_550_h100)

    s = compat_container("image-compat-on-geforce", "A CUDA 12.6 image with cuda-compat, judged for an RTX 4090 host with driver 535.", "535.183.01")
    # What the host and the toolkit would provide at run time is not in an image.
    host_only = ("/proc", "/sys", "/usr/lib/x86_64-linux-gnu/libcuda", "/usr/lib/x86_64-linux-gnu/libnvidia", "/usr/bin/nvidia")
    for path in [p for p in s.files if p.startswith(host_only)]:
        s.files.pop(path)
    s.links = {path: target for path, target in s.links.items() if not path.startswith(host_only)}
    s.devices.clear()
    yield s.expect("fail", "driver-libs", ["compat-on-unsupported-gpu"],
                   options={"image": True, "gpu": "2684", "host_driver": "535.183.01"}, headline="compat-on-unsupported-gpu")

    s = image("image-bakes-driver-libraries", "An image that installed libnvidia-compute-565: its own libcuda 565.57.01 is baked in.")
    s.driver_userspace("565.57.01", smi=False)
    yield s.expect("warn", None, ["image-carries-driver-libraries"], options={"image": True},
                   absent=["libcuda-not-found", "nvidia-smi-not-on-path"], headline="image-carries-driver-libraries")

    # `docker commit` of a WSL2 container (or a copy that failed) leaves the
    # driver's names as empty regular files: at run time the toolkit mounts
    # the host's library beside them, but ldconfig never replaces a regular
    # file, so the loader stops at the empty libcuda.so.1 ('file too short').
    s = image("image-empty-driver-library", "An image committed from a WSL2 container: libcuda.so.1 and libnvidia-ml.so.1 are empty regular files.")
    s.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "")
    s.file("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "")
    yield s.expect("fail", "driver-libs", ["image-driver-library-damaged"], options={"image": True}, headline="image-driver-library-damaged")

    s = image("image-baked-driver-on-other-host", "The same image judged for a host with driver 535.183.01: Driver/library version mismatch.")
    s.driver_userspace("565.57.01", smi=False)
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch", "image-carries-driver-libraries",
                                           "runtime-relies-on-minor-version-compatibility", "require-unsatisfied-but-minor-compatible"],
                   options={"image": True, "gpu": "2330", "host_driver": "535.183.01"}, headline="driver-library-version-mismatch")

    s = image("image-require-contradicts-runtime", "A CUDA 12.4 image whose NVIDIA_REQUIRE_CUDA still says cuda>=11.8.")
    s.env["NVIDIA_REQUIRE_CUDA"] = "cuda>=11.8"
    yield s.expect("warn", None, ["image-require-contradicts-runtime"], options={"image": True}, headline="image-require-contradicts-runtime")

    s = image("image-require-refused-by-host", "A CUDA 12.4 image (cuda>=12.4) judged for a host with driver 470: refused at start.")
    s.env["NVIDIA_REQUIRE_CUDA"] = "cuda>=12.4"
    yield s.expect("fail", "image-config", ["require-unsatisfied", "driver-too-old-for-runtime"],
                   options={"image": True, "gpu": "2330", "host_driver": "470.256.02"}, headline="require-unsatisfied")

    s = image("image-stub-on-loader-path", "A CUDA image whose ENV LD_LIBRARY_PATH holds the toolkit's stubs (with a libcuda.so.1).")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1")).link(stubs + "/libcuda.so.1", "libcuda.so")
    s.env["LD_LIBRARY_PATH"] = stubs
    yield s.expect("fail", "driver-libs", ["libcuda-is-stub", "libcuda-unversioned-is-stub"], options={"image": True}, headline="libcuda-is-stub")

    s = image("image-torch-for-rtx5090", "An image with torch cu124, judged for an RTX 5090 host on driver 570: no kernel image.")
    torch_archs = [(2, arch, 1, 7) for arch in (50, 60, 70, 75, 80, 86, 90)]
    yield s.torch_venv(fatbin=torch_archs).expect("fail", "application", ["application-no-kernel-image"],
                                                  options={"image": True, "gpu": "2b85", "host_driver": "570.133.20"}, headline="application-no-kernel-image")
