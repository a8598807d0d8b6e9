// CuPy and JAX read from their own files: which libraries each really loads,
// and from where (CuPy 14 and JAX 0.6.2 take the wheels' copies first).

#include "probes/cupy_and_jax.h"
#include "probes/framework_libraries.h"
#include "test_support/binary_writer.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace {

const std::string k_site = "/venv/lib/python3.11/site-packages";
const std::string k_tag = ".cpython-311-x86_64-linux-gnu.so";

gd::FakeHost& module(gd::FakeHost& host, const std::string& path, std::vector<std::string> needed) {
  return host.file(k_site + "/" + path + k_tag, gd::tiny_elf({.soname = "", .needed = std::move(needed)}));
}

gd::FakeHost& library(gd::FakeHost& host, const std::string& path, std::vector<std::string> needed = {}) {
  const auto name = path.substr(path.rfind('/') + 1);
  return host.file(path, gd::tiny_elf({.soname = name, .needed = std::move(needed), .runpath = "$ORIGIN"}));
}

// CuPy 13's modules as its wheel ships them: the runtime linked, cuBLAS by the module that calls it.
gd::FakeHost cupy_host(const std::string& version) {
  gd::FakeHost host;
  const bool linked_runtime = version.starts_with("13");
  module(host, "cupy/_core/core", linked_runtime ? std::vector<std::string>{"libcudart.so.12"} : std::vector<std::string>{});
  module(host, "cupy_backends/cuda/libs/cublas", {"libcublas.so.12"});
  module(host, "cupy/cuda/cufft", {"libcufft.so.11"});
  host.file(k_site + "/cupy/_core/__init__.py", "");
  return host;
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

TEST_CASE("CuPy 13: its modules, the libraries they link, NVRTC by name, and no preloading") {
  auto host = cupy_host("13.3.0");
  library(host, k_site + "/nvidia/cuda_runtime/lib/libcudart.so.12");
  const auto found = gd::find_cupy(host, k_site, {{"cupy_cuda12x", "13.3.0"}});
  REQUIRE(found);
  CHECK(found->facts.name == "cupy");
  CHECK(found->facts.version == "13.3.0");
  CHECK(found->facts.cuda == "12");
  CHECK(found->loads_through == k_site + "/cupy/_core/core" + k_tag);
  CHECK(found->modules.size() == 2);
  // Linked, so not opened again by name; NVRTC is.
  CHECK(found->dlopens == std::vector<std::string>{"libnvrtc.so.12"});
  CHECK(found->loads_first.empty());  // CuPy 13 never looks in the wheels
  CHECK_FALSE(found->facts.distributions);  // one CuPy

  // Two CuPy wheels, their names as their dist-info folders happen to spell them: both are named.
  const auto mixed = gd::find_cupy(host, k_site, {{"cupy_cuda12x", "13.3.0"}, {"CuPy-CUDA13x", "13.6.0"}});
  REQUIRE(mixed);
  REQUIRE(mixed->facts.distributions);
  CHECK(*mixed->facts.distributions == std::vector<std::string>{"cupy_cuda12x 13.3.0", "CuPy-CUDA13x 13.6.0"});
  CHECK(mixed->facts.cuda == "12");
  // Listed first, the CUDA 13 wheel's name does not decide: the core on disk links CUDA 12's runtime.
  const auto listed_first = gd::find_cupy(host, k_site, {{"CuPy-CUDA13x", "13.6.0"}, {"cupy_cuda12x", "13.3.0"}});
  REQUIRE(listed_first);
  CHECK(listed_first->facts.cuda == "12");
  CHECK(listed_first->facts.version == "13.3.0");
  CHECK(listed_first->facts.cuda_source.value_or("").find("core links") != std::string::npos);
  CHECK(listed_first->dlopens == std::vector<std::string>{"libnvrtc.so.12"});
}

TEST_CASE("CuPy 14: cuda-pathfinder takes the wheels' copies first, the runtime and NVRTC included") {
  auto host = cupy_host("14.0.1");
  library(host, k_site + "/nvidia/cuda_runtime/lib/libcudart.so.12");
  library(host, k_site + "/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  library(host, k_site + "/nvidia/cublas/lib/libcublas.so.12");
  const auto found = gd::find_cupy(host, k_site, {{"cupy-cuda12x", "14.0.1"}});
  REQUIRE(found);
  CHECK(found->dlopens == std::vector<std::string>{"libcudart.so.12", "libnvrtc.so.12"});
  CHECK(found->loads_first.size() == 3);
  CHECK(contains(found->loads_first, k_site + "/nvidia/cublas/lib/libcublas.so.12"));
  CHECK_FALSE(contains(found->loads_first, k_site + "/nvidia/cufft/lib/libcufft.so.11"));  // not installed

  // Resolved: the preloaded copies answer the names asked for; cuFFT is found nowhere.
  std::vector<gd::FrameworkLibrary> libraries;
  gd::LoaderConfig config;
  config.default_dirs = {"/lib", "/usr/lib"};
  gd::CondaRecords conda;
  gd::resolve_framework_libraries(host, conda, config,
                                  {"cupy 14.0.1", found->loads_through, found->dlopens, {}, {}, k_site, "hint", found->modules, found->loads_first},
                                  libraries);
  const auto named = [&](const std::string& name) {
    return std::find_if(libraries.begin(), libraries.end(), [&](const auto& entry) { return entry.library == name; });
  };
  REQUIRE(named("libcudart.so.12") != libraries.end());
  CHECK(named("libcudart.so.12")->found);
  CHECK(named("libcudart.so.12")->via == "already-loaded");
  REQUIRE(named("libcublas.so.12") != libraries.end());
  CHECK(named("libcublas.so.12")->found);
  REQUIRE(named("libcufft.so.11") != libraries.end());
  CHECK_FALSE(named("libcufft.so.11")->found);
}

TEST_CASE("CuPy without CUDA libraries in its modules (cupy-rocm) or without its core module is not a CUDA framework") {
  gd::FakeHost rocm;
  module(rocm, "cupy/_core/core", {"libamdhip64.so.6"});
  CHECK_FALSE(gd::find_cupy(rocm, k_site, {{"cupy_rocm_6_0", "13.3.0"}}));
  gd::FakeHost partial;
  module(partial, "cupy_backends/cuda/libs/cublas", {"libcublas.so.12"});
  CHECK_FALSE(gd::find_cupy(partial, k_site, {{"cupy_cuda12x", "13.3.0"}}));
}

TEST_CASE("CuPy from source or conda: its CUDA major from the libraries it links") {
  gd::FakeHost host;
  module(host, "cupy/_core/core", {"libcudart.so.11.0", "libcublas.so.11"});
  const auto found = gd::find_cupy(host, k_site, {{"cupy", "12.3.0"}});
  REQUIRE(found);
  CHECK(found->facts.cuda == "11");
  CHECK(found->dlopens == std::vector<std::string>{"libnvrtc.so.11.2"});
}

TEST_CASE("JAX's plugin: the libraries its version check loads, preloaded from the wheels from 0.6.2 on") {
  gd::FakeHost host;
  host.file(k_site + "/jax_plugins/xla_cuda12/xla_cuda_plugin.so", gd::tiny_elf({.soname = "xla_cuda_plugin.so"}));
  library(host, k_site + "/nvidia/cudnn/lib/libcudnn.so.9");
  library(host, k_site + "/nvidia/cuda_runtime/lib/libcudart.so.12");
  const auto recent = gd::find_jax_plugin(host, k_site, {{"jax_cuda12_plugin", "0.7.1"}});
  REQUIRE(recent);
  CHECK(recent->facts.name == "jax");
  CHECK(recent->facts.cuda == "12");
  CHECK(recent->loads_through == k_site + "/jax_plugins/xla_cuda12/xla_cuda_plugin.so");
  CHECK(recent->dlopens.size() == 6);
  CHECK(contains(recent->dlopens, "libcudnn.so.9"));
  CHECK(recent->loads_first == std::vector<std::string>{k_site + "/nvidia/cuda_runtime/lib/libcudart.so.12",
                                                     k_site + "/nvidia/cudnn/lib/libcudnn.so.9"});
  // Before 0.6.2 the plugin's own RUNPATH finds the wheels: nothing preloaded.
  const auto older = gd::find_jax_plugin(host, k_site, {{"jax_cuda12_plugin", "0.5.3"}});
  REQUIRE(older);
  CHECK(older->loads_first.empty());
  // Before 0.4.31 its cuDNN could be 8.9: not asked for by a major we would guess.
  const auto oldest = gd::find_jax_plugin(host, k_site, {{"jax_cuda12_plugin", "0.4.30"}});
  REQUIRE(oldest);
  CHECK_FALSE(contains(oldest->dlopens, "libcudnn.so.9"));
}

TEST_CASE("JAX imports the CUDA 13 plugin before the CUDA 12 one; a plugin without its library is not judged") {
  gd::FakeHost host;
  host.file(k_site + "/jax_plugins/xla_cuda12/xla_cuda_plugin.so", gd::tiny_elf({.soname = "xla_cuda_plugin.so"}));
  host.file(k_site + "/jax_cuda13_plugin/_versions" + k_tag, gd::tiny_elf({.soname = "_versions.so"}));
  const auto both = gd::find_jax_plugin(host, k_site, {{"jax_cuda12_plugin", "0.7.1"}, {"jax_cuda13_plugin", "0.7.1"}});
  REQUIRE(both);
  CHECK(both->facts.cuda == "13");
  CHECK(contains(both->dlopens, "libcudart.so.13"));
  gd::FakeHost bare;
  CHECK_FALSE(gd::find_jax_plugin(bare, k_site, {{"jax_cuda12_plugin", "0.7.1"}}));
}
