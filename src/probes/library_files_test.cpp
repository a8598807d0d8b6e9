#include "probes/library_files.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("a CUDA library's version from every source: file name, packaging, version.json, the toolkit directory") {
  gd::FakeHost host;
  const auto* cublas = gd::cuda_library_kind("libcublas.so.12");
  const auto* cudnn = gd::cuda_library_kind("libcudnn.so.9");
  const auto* nvjitlink = gd::cuda_library_kind("libnvJitLink.so.12");
  REQUIRE(cublas);
  REQUIRE(cudnn);
  REQUIRE(nvjitlink);
  SUBCASE("the real file's name") {
    CHECK(gd::cuda_library_version(host, *cublas, "/usr/local/cuda-12.1/lib64/libcublas.so.12.1.3.1") == "12.1.3.1");
  }
  SUBCASE("a toolkit's version.json, above targets/<arch>/lib") {
    host.file("/usr/local/cuda-12.4/version.json", R"({"libcublas": {"name": "CUDA cuBLAS", "version": "12.4.5.8"}})");
    CHECK(gd::cuda_library_version(host, *cublas, "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcublas.so.12") == "12.4.5.8");
  }
  SUBCASE("the toolkit directory, for libraries whose version is the toolkit's") {
    CHECK(gd::cuda_library_version(host, *nvjitlink, "/usr/local/cuda-12.1/lib64/libnvJitLink.so.12") == "12.1");
    CHECK(gd::cuda_library_version(host, *cublas, "/opt/cuda-12.2/lib64/libcublas.so.12") == "12.2");
    // cuDNN's version is its own, whatever toolkit it sits in.
    CHECK_FALSE(gd::cuda_library_version(host, *cudnn, "/usr/local/cuda-12.1/lib64/libcudnn.so.9"));
    CHECK_FALSE(gd::cuda_library_version(host, *cublas, "/opt/cuda-latest/lib64/libcublas.so.12"));
  }
  SUBCASE("nothing says: unknown") {
    CHECK_FALSE(gd::cuda_library_version(host, *cublas, "/opt/vendor/lib/libcublas.so.12"));
  }
}
