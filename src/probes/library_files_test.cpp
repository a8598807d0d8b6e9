#include "probes/library_files.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("a CUDA library's version from every source: file name, packaging, version.json, the toolkit directory") {
  gd::FakeHost host;
  gd::CondaRecords conda;
  const auto* cublas = gd::cuda_library_kind("libcublas.so.12");
  const auto* cudnn = gd::cuda_library_kind("libcudnn.so.9");
  const auto* nvjitlink = gd::cuda_library_kind("libnvJitLink.so.12");
  REQUIRE(cublas);
  REQUIRE(cudnn);
  REQUIRE(nvjitlink);
  SUBCASE("the real file's name") {
    CHECK(gd::cuda_library_version(host, conda, *cublas, "/usr/local/cuda-12.1/lib64/libcublas.so.12.1.3.1") == "12.1.3.1");
  }
  SUBCASE("a toolkit's version.json, above targets/<arch>/lib") {
    host.file("/usr/local/cuda-12.4/version.json", R"({"libcublas": {"name": "CUDA cuBLAS", "version": "12.4.5.8"}})");
    CHECK(gd::cuda_library_version(host, conda, *cublas, "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcublas.so.12") == "12.4.5.8");
  }
  SUBCASE("the toolkit directory, for libraries whose version is the toolkit's") {
    CHECK(gd::cuda_library_version(host, conda, *nvjitlink, "/usr/local/cuda-12.1/lib64/libnvJitLink.so.12") == "12.1");
    CHECK(gd::cuda_library_version(host, conda, *cublas, "/opt/cuda-12.2/lib64/libcublas.so.12") == "12.2");
    // cuDNN's version is its own, whatever toolkit it sits in.
    CHECK_FALSE(gd::cuda_library_version(host, conda, *cudnn, "/usr/local/cuda-12.1/lib64/libcudnn.so.9"));
    CHECK_FALSE(gd::cuda_library_version(host, conda, *cublas, "/opt/cuda-latest/lib64/libcublas.so.12"));
  }
  SUBCASE("nothing says: unknown") {
    CHECK_FALSE(gd::cuda_library_version(host, conda, *cublas, "/opt/vendor/lib/libcublas.so.12"));
  }
}

TEST_CASE("conda-meta: each record is read once per run, however many libraries and paths ask") {
  gd::FakeHost host;
  gd::CondaRecords conda;
  const std::string meta = "/opt/conda/conda-meta/";
  for (const auto& [record, file] : {std::pair{"libcublas-12.4.5.8-0", "libcublas.so.12"}, std::pair{"cuda-cudart-12.4.127-0", "libcudart.so.12"},
                                     std::pair{"libcufft-11.2.1.3-0", "libcufft.so.11"}})
    host.file(meta + record + ".json", std::string(R"({"files": ["lib/)") + file + R"("]})");
  host.file(meta + "python-3.11.9-0.json", R"({"files": ["lib/libcublas.so.12"]})");  // not a CUDA package: never read
  const auto* cublas = gd::cuda_library_kind("libcublas.so.12");
  const auto* cufft = gd::cuda_library_kind("libcufft.so.11");
  REQUIRE(cublas);
  REQUIRE(cufft);
  for (int round = 0; round < 5; ++round) {
    CHECK(gd::cuda_library_version(host, conda, *cublas, "/opt/conda/lib/libcublas.so.12") == "12.4.5.8");
    CHECK(gd::cuda_library_version(host, conda, *cufft, "/opt/conda/lib/libcufft.so.11") == "11.2.1.3");
    const auto runtime = gd::package_version(host, conda, "/opt/conda/lib/libcudart.so.12", "nvidia_cuda_runtime", "");
    REQUIRE(runtime);
    CHECK(runtime->package == "cuda-cudart");
    CHECK(runtime->source == meta + "cuda-cudart-12.4.127-0.json");
  }
  for (const auto& [path, count] : host.reads)
    if (path.starts_with(meta)) CHECK_MESSAGE(count == 1, path);
  CHECK(host.reads.count(meta + "python-3.11.9-0.json") == 0);
}
