#include "formats/cdi_spec.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("CDI spec: devices and every host path its edits need, from YAML or JSON") {
  const char* yaml = R"(cdiVersion: 0.5.0
kind: nvidia.com/gpu
containerEdits:
  deviceNodes:
  - path: /dev/nvidiactl
  hooks:
  - hookName: createContainer
    path: /usr/bin/nvidia-cdi-hook
  mounts:
  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15
    containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15
devices:
- name: "0"
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
      hostPath: /dev/nvidia3
)";
  const auto yaml_spec = gd::parse_cdi_spec(yaml);
  REQUIRE(yaml_spec);
  CHECK(yaml_spec->kind == "nvidia.com/gpu");
  CHECK(yaml_spec->devices == std::vector<std::string>{"0"});
  CHECK(yaml_spec->host_paths == std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "/dev/nvidiactl",
                                                               "/usr/bin/nvidia-cdi-hook", "/dev/nvidia3"});
  // What every device's container gets: the spec's own mounts, where they land inside.
  CHECK(yaml_spec->common_mounts == std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"});
  const auto json_spec = gd::parse_cdi_spec(
      R"({"cdiVersion": "0.6.0", "kind": "nvidia.com/gpu", "devices": [{"name": "all", "containerEdits": {"deviceNodes": [{"path": "/dev/nvidia0"}]}}]})");
  REQUIRE(json_spec);
  CHECK(json_spec->devices == std::vector<std::string>{"all"});
}

TEST_CASE("CDI spec: junk, a truncated file, deep nesting and no cdiVersion are problems, not specs") {
  CHECK(gd::parse_cdi_spec("cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n  - name: [unclosed\n").error().starts_with("not YAML"));
  CHECK(gd::parse_cdi_spec("kind: nvidia.com/gpu\n").error() == "not a CDI spec (no cdiVersion or kind)");
  CHECK(gd::parse_cdi_spec("- a\n- b\n").error().starts_with("not a CDI spec"));
  CHECK(gd::parse_cdi_spec(std::string(100000, '[')).error() == "nested deeper than any CDI spec");
  CHECK(gd::parse_cdi_spec(std::string(5 << 20, ' ')).error().starts_with("larger than"));
}
