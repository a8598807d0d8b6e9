// libFuzzer target: what Python packages write about themselves and the
// application layer reads — torch/version.py, TensorFlow's build_info.py,
// ONNX Runtime's build_and_package_info.py, dist-info METADATA pins.
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
  return 0;
}
