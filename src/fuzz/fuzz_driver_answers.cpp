// libFuzzer target: what children answer — nvidia-smi's CSV and banner, the
// driver probe's JSON lines (a library may print anything), and what answers
// on a dockerd socket (anything may listen there) with the docker-api child's
// line, a containerd's gRPC answer with the cri-status child's, and crio's
// GET /config with the crio-config child's lines.
#include "child/cri_status_child.h"
#include "child/crio_config_child.h"
#include "child/docker_api_child.h"
#include "child/http_get.h"
#include "probes/containerd_daemon.h"
#include "probes/crio_daemon.h"
#include "probes/docker_daemon.h"
#include "probes/driver_probe.h"
#include "probes/nvidia_smi.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gd::parse_smi_gpu_line(text, true);
  gd::parse_smi_gpu_line(text, false);
  gd::cuda_version_in_header(text);
  gd::ChildAnswer answer;
  answer.exit = 0;
  answer.output = text;
  gd::parse_cuda_probe(answer);
  gd::parse_nvml_probe(answer);
  gd::parse_docker_info(answer);
  if (const auto response = gd::parse_http_response(text)) gd::docker_info_fields(response->body);
  gd::docker_info_fields(text);
  gd::parse_cri_status(answer);
  if (const auto message = gd::grpc_first_message(text))
    if (const auto config = gd::protobuf_map_value(*message, 2, "config")) gd::cri_config_fields(*config, "runtime.v1");
  gd::cri_config_fields(text, "runtime.v1");
  gd::parse_crio_config(answer);
  if (const auto lines = gd::crio_config_lines(text)) {
    answer.output = *lines;
    gd::parse_crio_config(answer);
  }
  answer.signal = 11;
  gd::parse_cuda_probe(answer);
  return 0;
}
