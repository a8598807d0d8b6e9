// Reading what frameworks write about their own build, as their releases
// write it: TensorFlow's build_info.py (a dict on older releases, an
// OrderedDict of pairs since), ONNX Runtime's build_and_package_info.py,
// METADATA pins with and without parentheses.

#include "probes/install_hints.h"
#include "probes/python_envs.h"
#include "test_support/probe_fixture.h"
#include "probes/python_frameworks.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

const std::string k_site = "/venv/lib/python3.11/site-packages";

gd::FoundFramework only(const std::vector<gd::FoundFramework>& found) {
  REQUIRE(found.size() == 1);
  return found.front();
}

}  // namespace

TEST_CASE("TensorFlow's build info: CUDA, cuDNN and architectures, in both generated forms") {
  gd::FakeHost host;
  host.file("/a.py", "build_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/gcc'), ('cuda_compute_capabilities', "
                     "['sm_52', 'sm_60', 'sm_90a', 'compute_90']), ('cuda_version', '12.1'), ('cudnn_version', '8'), "
                     "('is_cuda_build', True), ('is_rocm_build', False)])\n");
  host.file("/b.py", "build_info = {'cuda_version': '11.2', 'cudnn_version': '8.1', 'cuda_compute_capabilities': ['sm_35', "
                     "'compute_80'], 'is_cuda_build': True}\n");
  host.file("/cpu.py", "build_info = collections.OrderedDict([('is_cuda_build', False), ('is_rocm_build', False)])\n");
  const auto a = gd::read_tensorflow_build_info(host, "/a.py");
  REQUIRE(a);
  CHECK(a->cuda == "12.1");
  CHECK(a->cudnn == "8");
  CHECK(a->is_cuda_build == true);
  CHECK(a->compute_capabilities == std::vector<std::string>{"sm_52", "sm_60", "sm_90a", "compute_90"});
  const auto b = gd::read_tensorflow_build_info(host, "/b.py");
  REQUIRE(b);
  CHECK(b->cuda == "11.2");
  CHECK(b->cudnn == "8.1");
  CHECK(b->compute_capabilities == std::vector<std::string>{"sm_35", "compute_80"});
  const auto cpu = gd::read_tensorflow_build_info(host, "/cpu.py");
  REQUIRE(cpu);
  CHECK(cpu->is_cuda_build == false);
  CHECK_FALSE(cpu->cuda);
  CHECK_FALSE(gd::read_tensorflow_build_info(host, "/missing.py"));
}

TEST_CASE("garbage in a build info gives no values, never a crash") {
  gd::FakeHost host;
  host.file("/g.py", "build_info = {'cuda_version': 'twelve', 'cudnn_version':, 'cuda_compute_capabilities': ['sm_x', 'sm_1234', "
                     "'compute_'\n'is_cuda_build' 'True'");
  const auto info = gd::read_tensorflow_build_info(host, "/g.py");
  REQUIRE(info);
  CHECK_FALSE(info->cuda);
  CHECK_FALSE(info->cudnn);
  CHECK_FALSE(info->is_cuda_build);
}

TEST_CASE("a generated module's plain string assignments") {
  gd::FakeHost host;
  host.file("/info.py", "package_name = 'onnxruntime-gpu'\n__version__ = '1.20.1'\ncuda_version = '12.2'\ncudart_version = 12020\n"
                        "if x == 'y': pass\nrocm_version = None\n");
  const auto values = gd::read_python_strings(host, "/info.py");
  CHECK(values.at("package_name") == "onnxruntime-gpu");
  CHECK(values.at("__version__") == "1.20.1");
  CHECK(values.at("cuda_version") == "12.2");
  CHECK_FALSE(values.contains("cudart_version"));  // not a string
  CHECK_FALSE(values.contains("rocm_version"));
  CHECK(values.size() == 3);
}

TEST_CASE("METADATA pins as pip writes them: plain, in parentheses, with extras and markers") {
  gd::FakeHost host;
  host.file("/METADATA", "Name: vllm\nRequires-Dist: torch (==2.5.1)\nRequires-Dist: xformers[x]==0.0.28.post3; sys_platform == \"linux\"\n"
                         "Requires-Dist: numpy<2.0\nRequires-Dist: ray==2.*\n\nRequires-Dist: after-the-headers==1\n");
  const auto pins = gd::pinned_requirements(host, "/METADATA");
  REQUIRE(pins.size() == 2);
  CHECK(pins[0] == std::pair<std::string, std::string>{"torch", "2.5.1"});
  CHECK(pins[1] == std::pair<std::string, std::string>{"xformers", "0.0.28.post3"});
  CHECK(gd::pin_relation("8.9.2.26", "9.1.0.70") == gd::VersionRelation::older);
  CHECK(gd::pin_relation("12.4.5.9", "12.4.5.8") == gd::VersionRelation::newer);
  CHECK(gd::pin_relation("0.0.28.post3", "0.0.28.post3") == gd::VersionRelation::same);  // no dotted version: equal texts
  CHECK(gd::pin_relation("0.0.28.post2", "0.0.28.post3") == gd::VersionRelation::unknown);
}

TEST_CASE("each framework found from its own files") {
  gd::FakeHost host;
  host.file(k_site + "/tensorflow/python/platform/build_info.py",
            "build_info = {'cuda_version': '12.3', 'cudnn_version': '8', 'cuda_compute_capabilities': ['sm_80'], 'is_cuda_build': True}\n");
  host.file(k_site + "/tensorflow/libtensorflow_framework.so.2", "");
  const gd::InstalledPackages tensorflow{{"tensorflow", "2.16.1"}};
  const auto tf = only(gd::find_python_frameworks(host, k_site, tensorflow));
  CHECK(tf.facts.name == "tensorflow");
  CHECK(tf.facts.version == "2.16.1");
  CHECK(tf.facts.cuda == "12.3");
  CHECK(tf.built_against.at("cuDNN") == "8");
  CHECK(tf.loads_through == k_site + "/tensorflow/libtensorflow_framework.so.2");
  CHECK(tf.gpu_code.empty());  // no kernel library: the build info's list stands in
  CHECK(tf.build_archs == std::vector<std::string>{"sm_80"});
  CHECK(std::find(tf.dlopens.begin(), tf.dlopens.end(), "libcudnn.so.8") != tf.dlopens.end());
  CHECK(std::find(tf.dlopens.begin(), tf.dlopens.end(), "libcusparse.so.12") != tf.dlopens.end());

  gd::FakeHost vllm_host;
  vllm_host.file(k_site + "/vllm/_C.abi3.so", "not an ELF");
  vllm_host.file(k_site + "/torch/lib/libtorch_cuda.so", "");
  const auto vllm = only(gd::find_python_frameworks(vllm_host, k_site, {{"vllm", "0.6.3+cu118"}}));
  CHECK(vllm.facts.cuda == "11.8");  // from the local version label
  CHECK(vllm.preloads == std::vector<std::string>{k_site + "/torch/lib/libtorch_cuda.so"});

  gd::FakeHost ort_host;
  ort_host.file(k_site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so", "");
  ort_host.file(k_site + "/onnxruntime/capi/build_and_package_info.py", "__version__ = '1.19.2'\ncuda_version = '12.2'\n");
  const auto ort = only(gd::find_python_frameworks(ort_host, k_site, {}));
  CHECK(ort.facts.name == "onnxruntime-gpu");
  CHECK(ort.facts.version == "1.19.2");
  CHECK(ort.facts.cuda == "12.2");
  // Its install sentence is the framework-installs table's, filled with its facts.
  const auto& tables = gd::builtin_tables();
  CHECK(gd::libraries_install_hint(tables.cuda, ort.facts).find("preload_dlls") != std::string::npos);
  CHECK(gd::libraries_install_hint(tables.cuda, tf.facts) ==
        "`pip install \"tensorflow[and-cuda]==2.16.1\"` brings the NVIDIA wheels it was built with; or a CUDA 12.3 toolkit and cuDNN 8 the "
        "loader finds");
  CHECK(gd::libraries_install_hint(tables.cuda, vllm.facts).find("pip install --force-reinstall vllm==0.6.3`") != std::string::npos);
}

TEST_CASE("torch built with pinned NVIDIA wheels expects those library versions") {
  gd::FakeHost host;
  host.file(k_site + "/torch/version.py", "__version__ = '2.5.1+cu124'\ncuda: Optional[str] = '12.4'\n");
  host.file(k_site + "/torch-2.5.1+cu124.dist-info/METADATA",
            "Name: torch\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\"\n"
            "Requires-Dist: nvidia-cublas-cu12==12.4.5.8\nRequires-Dist: nvidia-nccl-cu12==2.21.5\n"
            "Requires-Dist: nvidia-cuda-nvrtc-cu12==12.4.127\n");
  const auto torch = only(gd::find_python_frameworks(host, k_site, {{"torch", "2.5.1+cu124"}}));
  CHECK(torch.built_against.at("cuDNN") == "9.1.0.70");
  CHECK(torch.built_against.at("cuBLAS") == "12.4.5.8");
  CHECK(torch.built_against.at("cuBLASLt") == "12.4.5.8");
  CHECK(torch.built_against.at("NCCL") == "2.21.5");
  CHECK(torch.built_against.at("NVRTC") == "12.4.127");
  CHECK(torch.facts.cudnn == "9.1.0.70");
  const auto& tables = gd::builtin_tables();
  CHECK(gd::libraries_install_hint(tables.cuda, torch.facts) ==
        "`pip install --force-reinstall torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124` (brings its nvidia-* wheels)");
}

TEST_CASE("a package's torch pin against the torch installed, ignoring the local +cuXYZ label") {
  gd::FakeHost host;
  host.file(k_site + "/torchvision-0.20.1.dist-info/METADATA", "Name: torchvision\nRequires-Dist: torch==2.5.1\n");
  host.file(k_site + "/torchaudio-2.4.0.dist-info/METADATA", "Name: torchaudio\nRequires-Dist: torch==2.4.0\n");
  host.file(k_site + "/somepkg-1.0.dist-info/METADATA", "Name: somepkg\nRequires-Dist: torch==1.0\n");  // not a torch extension
  const gd::InstalledPackages installed{{"torch", "2.5.1+cu124"}, {"torchvision", "0.20.1"}, {"torchaudio", "2.4.0"}, {"somepkg", "1.0"}};
  const auto pins = gd::torch_pins(host, {{k_site, installed}});
  REQUIRE(pins.size() == 2);
  CHECK(pins[0].framework == "torchvision 0.20.1");
  CHECK(pins[0].relation == gd::VersionRelation::same);
  CHECK(pins[1].framework == "torchaudio 2.4.0");
  CHECK(pins[1].relation == gd::VersionRelation::newer);  // torch 2.5.1 is newer than the 2.4.0 it was built for
  const auto without_torch = gd::torch_pins(host, {{k_site, {{"torchvision", "0.20.1"}}}});
  REQUIRE(without_torch.size() == 1);
  CHECK(without_torch[0].relation == gd::VersionRelation::missing);
  // torch from a later site on the path (a venv that sees the system's site-packages)
  const auto across = gd::torch_pins(host, {{k_site, {{"torchvision", "0.20.1"}}}, {"/usr/lib/python3/dist-packages", {{"torch", "2.5.1"}}}});
  REQUIRE(across.size() == 1);
  CHECK(across[0].relation == gd::VersionRelation::same);
}

TEST_CASE("NVIDIA wheels of one library for two CUDA majors overlap only where their RECORDs share library files") {
  gd::FakeHost host;
  host.file(k_site + "/nvidia_cudnn_cu11-8.9.6.50.dist-info/RECORD", "nvidia/cudnn/lib/libcudnn.so.8,sha256=a,1\nnvidia/cudnn/include/x.h,,\n");
  host.file(k_site + "/nvidia_cudnn_cu12-8.9.2.26.dist-info/RECORD", "nvidia/cudnn/lib/libcudnn.so.8,sha256=b,1\nnvidia/cudnn/include/x.h,,\n");
  // libcudart.so.11.0 and libcudart.so.12 share a directory but no file
  host.file(k_site + "/nvidia_cuda_runtime_cu11-11.8.89.dist-info/RECORD", "nvidia/cuda_runtime/lib/libcudart.so.11.0,,\n");
  host.file(k_site + "/nvidia_cuda_runtime_cu12-12.4.127.dist-info/RECORD", "nvidia/cuda_runtime/lib/libcudart.so.12,,\n");
  const gd::InstalledPackages installed{{"nvidia_cudnn_cu11", "8.9.6.50"}, {"nvidia_cudnn_cu12", "8.9.2.26"},
                                        {"nvidia_cuda_runtime_cu11", "11.8.89"}, {"nvidia_cuda_runtime_cu12", "12.4.127"}};
  const auto overlaps = gd::overlapping_wheels(host, k_site, installed);
  REQUIRE(overlaps.size() == 1);
  CHECK(overlaps[0].first == "nvidia_cudnn_cu11 8.9.6.50");
  CHECK(overlaps[0].second == "nvidia_cudnn_cu12 8.9.2.26");
  CHECK(overlaps[0].file == "nvidia/cudnn/lib/libcudnn.so.8");
  CHECK(overlaps[0].shared == 1);  // the header is not a library file
}

TEST_CASE("many wheels of one library: each RECORD is read once, not once per pair") {
  gd::FakeHost host;
  gd::InstalledPackages installed;
  for (int i = 0; i < 40; ++i) {
    const std::string name = "nvidia_cublas_cu" + std::to_string(11 + i % 2), version = "12.0." + std::to_string(i);
    host.file(k_site + "/" + name + "-" + version + ".dist-info/RECORD", "nvidia/cublas/lib/libcublas.so." + std::to_string(i) + ",,\n");
    installed.emplace_back(name, version);
  }
  CHECK(gd::overlapping_wheels(host, k_site, installed).empty());
  for (const auto& [path, count] : host.reads)
    if (path.ends_with("/RECORD")) CHECK_MESSAGE(count == 1, path);
}

TEST_CASE("JAX's checks: the plugin equals jaxlib by dotted numeric prefix; jaxlib within [minimum, jax]") {
  gd::FakeHost host;
  host.file(k_site + "/jax/version.py", "_version: str = \"0.4.38\"\n_minimum_jaxlib_version: str = \"0.4.36\"\n");
  const auto same = gd::jax_checks(host, {{k_site, {{"jax", "0.4.38"}, {"jaxlib", "0.4.38"}, {"jax_cuda12_plugin", "0.4.38.dev20260317"}}}});
  REQUIRE(same.plugins.size() == 1);
  CHECK(same.plugins[0].relation == gd::VersionRelation::same);  // .dev20260317 is past the numeric prefix
  REQUIRE(same.jaxlib_ranges.size() == 1);
  CHECK(same.jaxlib_ranges[0].required == "0.4.36 to 0.4.38");
  CHECK(same.jaxlib_ranges[0].relation == gd::VersionRelation::same);
  const auto skewed = gd::jax_checks(host, {{k_site, {{"jax", "0.4.38"}, {"jaxlib", "0.4.39"}, {"jax-cuda12-plugin", "0.4.38"}}}});
  CHECK(skewed.plugins[0].relation == gd::VersionRelation::newer);        // jaxlib newer than the plugin
  CHECK(skewed.jaxlib_ranges[0].relation == gd::VersionRelation::newer);  // and newer than jax
  const auto old = gd::jax_checks(host, {{k_site, {{"jax", "0.4.38"}, {"jaxlib", "0.4.30"}}}});
  CHECK(old.plugins.empty());
  CHECK(old.jaxlib_ranges[0].relation == gd::VersionRelation::older);
}

TEST_CASE("the Python environments an application would run in, without VIRTUAL_ENV") {
  const auto has = [](const std::vector<std::string>& sites, const std::string& site) {
    return std::find(sites.begin(), sites.end(), site) != sites.end();
  };
  // ENV PATH=/opt/venv/bin:$PATH in an image: the venv, found by its pyvenv.cfg.
  gd::FakeHost venv;
  venv.env_var("PATH", "/opt/venv/bin:/usr/bin").env_var("HOME", "/root");
  venv.file("/opt/venv/pyvenv.cfg", "home = /usr/bin\n").file("/usr/bin/python3.11", "").link("/opt/venv/bin/python3", "/usr/bin/python3.11");
  venv.file("/opt/venv/lib/python3.11/site-packages/x", "").file("/root/.local/lib/python3.11/site-packages/y", "");
  const auto venv_sites = gd::python_site_dirs(venv);
  CHECK(venv_sites.front() == "/opt/venv/lib/python3.11/site-packages");
  CHECK(has(venv_sites, "/root/.local/lib/python3.11/site-packages"));  // the user site, outside an activated venv
  // /opt/conda/bin on PATH, as conda images set it, without CONDA_PREFIX.
  gd::FakeHost conda;
  conda.env_var("PATH", "/opt/conda/bin:/usr/bin").file("/opt/conda/bin/python3.11", "").link("/opt/conda/bin/python3", "python3.11");
  conda.file("/opt/conda/lib/python3.11/site-packages/z", "");
  CHECK(gd::python_site_dirs(conda).front() == "/opt/conda/lib/python3.11/site-packages");
  // A pyenv shim: the version its version file selects.
  gd::FakeHost pyenv;
  pyenv.env_var("PATH", "/root/.pyenv/shims:/usr/bin").file("/root/.pyenv/shims/python3", "#!/usr/bin/env bash\n");
  pyenv.file("/root/.pyenv/version", "3.11.7\n").file("/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/w", "");
  CHECK(gd::python_site_dirs(pyenv).front() == "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages");
  // VIRTUAL_ENV and the same venv on PATH: listed once; no user site inside a venv.
  venv.env_var("VIRTUAL_ENV", "/opt/venv");
  const auto active = gd::python_site_dirs(venv);
  CHECK(std::count(active.begin(), active.end(), "/opt/venv/lib/python3.11/site-packages") == 1);
  CHECK_FALSE(has(active, "/root/.local/lib/python3.11/site-packages"));
}

TEST_CASE("a GPU package's CUDA major, from the name its wheel is published under") {
  CHECK(gd::package_cuda_major("cupy_cuda12x") == 12);
  CHECK(gd::package_cuda_major("cupy-cuda117") == 11);
  CHECK(gd::package_cuda_major("cupy_cuda102") == 10);
  CHECK(gd::package_cuda_major("jax_cuda12_plugin") == 12);
  CHECK(gd::package_cuda_major("jax-cuda13-pjrt") == 13);
  CHECK(gd::package_cuda_major("nvidia_cublas_cu12") == 12);
  CHECK(gd::package_cuda_major("nvidia_cuda_runtime") == std::nullopt);  // CUDA 13's wheels drop the suffix
  CHECK(gd::package_cuda_major("nvidia_nccl_cu1") == std::nullopt);
  CHECK(gd::package_cuda_major("cupy") == std::nullopt);
  CHECK(gd::package_cuda_major("tensorflow") == std::nullopt);
  CHECK(gd::package_cuda_major("nvidia_cu12x") == std::nullopt);
}
