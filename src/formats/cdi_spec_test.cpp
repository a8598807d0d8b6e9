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
  // Scalars where maps belong: read as nothing, never thrown from.
  const auto scalars = gd::parse_cdi_spec("cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ncontainerEdits: {mounts: [a, b], deviceNodes: [c], hooks: [d]}\ndevices: [x, y]\n");
  REQUIRE(scalars);
  CHECK(scalars->devices == std::vector<std::string>{"", ""});
  CHECK(scalars->host_paths.empty());
}

TEST_CASE("CDI spec: what yaml-cpp would keep is bounded, and aliases are walked only to the caps") {
  // 4 MiB of one-character scalars: two million nodes, which yaml-cpp kept at 961 MB.
  std::string scalars = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\nx: [";
  while (scalars.size() < (4 << 20) - 16) scalars += "1,";
  scalars += "1]\n";
  CHECK(gd::parse_cdi_spec(scalars).error() == "more than 100000 nodes, more than any CDI spec");
  // Every device aliases one mount list: read until the paths' cap, then no further.
  std::string aliased = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\nmounts: &m\n";
  for (int i = 0; i < 5000; ++i) aliased += "  - {hostPath: /usr/lib/l" + std::to_string(i) + ".so}\n";
  aliased += "devices:\n";
  for (int i = 0; i < 256; ++i) aliased += "  - {name: \"" + std::to_string(i) + "\", containerEdits: {mounts: *m}}\n";
  const auto spec = gd::parse_cdi_spec(aliased);
  REQUIRE(spec);
  CHECK(spec->truncated);
  CHECK(spec->host_paths.size() == 4096);
  CHECK(spec->devices.size() == 1);  // the first device filled the caps; the rest were not walked
  // A list of scalars under the node bound, aliased by every device: walked to a bound, not 256 times.
  std::string scalars_aliased = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\nmounts: &m [";
  for (int i = 0; i < 90000; ++i) scalars_aliased += "a,";
  scalars_aliased += "a]\ndevices:\n";
  for (int i = 0; i < 256; ++i) scalars_aliased += "  - {name: \"" + std::to_string(i) + "\", containerEdits: {mounts: *m}}\n";
  const auto walked = gd::parse_cdi_spec(scalars_aliased);
  REQUIRE(walked);
  CHECK(walked->truncated);
  CHECK(walked->host_paths.empty());
  CHECK(walked->devices.size() == 3);  // 90,001 entries a device: the third went past 200,000
}

TEST_CASE("a CDI spec's top-level YAML kind is read without loading the document") {
  CHECK(gd::cdi_spec_yaml_kind("---\ncdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices: []\n") == "nvidia.com/gpu");
  CHECK(gd::cdi_spec_yaml_kind("cdiVersion: 0.6.0\nkind: 'management.nvidia.com/gpu'\n") == "management.nvidia.com/gpu");
  // Nested kinds are not the spec's, and JSON has no kind line: the caller parses those.
  CHECK(gd::cdi_spec_yaml_kind("devices:\n  - kind: other\n").empty());
  CHECK(gd::cdi_spec_yaml_kind("{\"kind\": \"nvidia.com/gpu\"}").empty());
}

TEST_CASE("a CDI spec's deviceNodes that pin a major are kept with it; the rest, and junk numbers, are not") {
  const auto spec = gd::parse_cdi_spec(
      "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ncontainerEdits:\n  deviceNodes:\n"
      "  - path: /dev/nvidia-uvm\n    major: 509\n    minor: 0\n"
      "  - path: /dev/nvidia-uvm-tools\n    hostPath: /dev/nvidia-uvm-tools\n    major: 509\n"
      "  - path: /dev/nvidiactl\n"
      "  - path: /dev/nvidia-modeset\n    major: lots\n"
      "devices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n      major: 195\n      minor: 0\n");
  REQUIRE(spec);
  REQUIRE(spec->pinned_nodes.size() == 3);
  CHECK(spec->pinned_nodes[0].path == "/dev/nvidia-uvm");
  CHECK(spec->pinned_nodes[0].major == 509);
  CHECK(spec->pinned_nodes[0].minor == 0);
  CHECK(spec->pinned_nodes[1].path == "/dev/nvidia-uvm-tools");
  CHECK_FALSE(spec->pinned_nodes[1].minor);
  CHECK(spec->pinned_nodes[2].path == "/dev/nvidia0");
  CHECK(spec->pinned_nodes[2].major == 195);
}
