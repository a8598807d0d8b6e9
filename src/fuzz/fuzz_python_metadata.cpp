// libFuzzer target: what Python packages write about themselves and the
// application layer reads — torch/version.py, TensorFlow's build_info.py,
// ONNX Runtime's build_and_package_info.py, dist-info METADATA pins, and a
// conda-meta record (its "files" indexed within the run's budget).
#include "probes/conda_meta.h"
#include "probes/python_envs.h"
#include "test_support/fake_host.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gd::FakeHost host;
  host.file("/f", std::string(reinterpret_cast<const char*>(data), size));
  gd::read_torch_version(host, "/f");
  gd::read_tensorflow_build_info(host, "/f");
  gd::read_python_strings(host, "/f");
  gd::pinned_requirements(host, "/f");
  host.file("/opt/conda/conda-meta/cuda-cudart-12.4.127-0.json", std::string(reinterpret_cast<const char*>(data), size));
  gd::CondaRecords records;
  records.owner_of(host, "/opt/conda", "/opt/conda/lib/libcudart.so.12");
  return 0;
}
