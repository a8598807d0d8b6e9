// libFuzzer target: the small text formats, one input for all of them —
// modinfo, mountinfo, the kernel log, nvidia-smi's CSV and banner, the
// container toolkit's variables, path lists, the driver probe's lines, and Dockerfiles.
#include "formats/modinfo.h"
#include "lint/dockerfile_lint.h"
#include "loader/search_path.h"
#include "probes/driver_probe.h"
#include "probes/kernel_log.h"
#include "probes/mountinfo.h"
#include "probes/nvidia_env.h"
#include "probes/nvidia_require.h"
#include "probes/nvidia_smi.h"
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const std::string text(reinterpret_cast<const char*>(data), size);
  gd::parse_modinfo(text);
  gd::parse_mountinfo(text);
  gd::parse_kernel_log(text, rules.cuda);
  gd::parse_smi_gpu_line(text, true);
  gd::cuda_version_in_header(text);
  gd::parse_visible_devices(text);
  gd::parse_driver_capabilities(text);
  gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", text}}, text, std::nullopt,
                            {std::string("550.54.15"), std::string("12.4"), {{"9.0", "tesla"}}});
  gd::parse_path_list(text, gd::PathListKind::ld_library_path, {std::string("/o"), "lib", "x86_64"});
  gd::ChildAnswer answer;
  answer.exit = 0;
  answer.output = text;
  gd::parse_cuda_probe(answer);
  gd::lint_dockerfile(gd::parse_dockerfile(text), rules);
  gd::parse_nvml_probe(answer);
  return 0;
}
