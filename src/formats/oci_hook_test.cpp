#include "formats/oci_hook.h"

#include <doctest/doctest.h>

namespace {

// The file nvidia-ctk writes (pkg/config/ocihook) and the toolkit's packages ship.
constexpr const char* k_nvidia_hook = R"({
  "version": "1.0.0",
  "hook": {
    "path": "/usr/bin/nvidia-container-runtime-hook",
    "args": ["nvidia-container-runtime-hook", "prestart"],
    "env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
  },
  "when": {"always": true, "commands": [".*"]},
  "stages": ["prestart"]
})";

std::string refusal(std::string_view text) {
  const auto hook = gd::parse_oci_hook(text);
  return hook ? std::string() : hook.error();
}

}  // namespace

TEST_CASE("an OCI hook: NVIDIA's file loads, with its program, stage and always") {
  const auto hook = gd::parse_oci_hook(k_nvidia_hook);
  REQUIRE(hook);
  CHECK(hook->program == "/usr/bin/nvidia-container-runtime-hook");
  CHECK(hook->stages == std::vector<std::string>{"prestart"});
  CHECK(hook->stages_written);
  CHECK(hook->always);
}

TEST_CASE("an OCI hook: keys match without regard to case, null leaves a field unset, the last key wins") {
  const auto hook = gd::parse_oci_hook(R"({"VERSION": "1.0.0", "Hook": {"Path": "/a", "path": "/b", "timeout": null},
                                           "when": {"Always": false, "always": true}, "stages": ["prestart"]})");
  REQUIRE(hook);
  CHECK(hook->program == "/b");
  CHECK(hook->always);
  // Stages left out are checked later (after the program), so the file itself reads.
  const auto unstaged = gd::parse_oci_hook(R"({"version": "1.0.0", "hook": {"path": "/a"}})");
  REQUIRE(unstaged);
  CHECK_FALSE(unstaged->stages_written);
  // An empty list is written: a hook that runs at no stage.
  CHECK(gd::parse_oci_hook(R"({"version": "1.0.0", "hook": {"path": "/a"}, "stages": []})")->stages_written);
}

TEST_CASE("an OCI hook: what encoding/json and the readers refuse, in their words") {
  CHECK(refusal("").starts_with("version check: "));
  CHECK(refusal(R"({"version": "1.0.0",})").starts_with("version check: "));
  CHECK(refusal("[]") == "version check: json: cannot unmarshal array into Go value of type hooks.version");
  CHECK(refusal(R"({"version": 1})") == "version check: json: cannot unmarshal number into Go struct field version.version of type string");
  CHECK(refusal(R"({"version": "2.0.0"})") == "unrecognized hook version: \"2.0.0\"");
  CHECK(refusal(R"({"version": "1.0.0", "hook": {"path": "/a"}, "stages": "prestart"})") ==
        "1.0.0: json: cannot unmarshal string into Go struct field Hook.stages of type []string");
  CHECK(refusal(R"({"version": "1.0.0", "hook": {"path": "/a", "timeout": 1.5}, "stages": []})") ==
        "1.0.0: json: cannot unmarshal number 1.5 into Go struct field Hook.hook.timeout of type int");
  CHECK(refusal(R"({"version": "1.0.0", "hook": {"path": "/a"}, "when": {"always": "true"}, "stages": []})") ==
        "1.0.0: json: cannot unmarshal string into Go struct field Hook.when.always of type bool");
  CHECK(refusal(R"({"version": "1.0.0", "hook": "/a", "stages": []})") ==
        "1.0.0: json: cannot unmarshal string into Go struct field Hook.hook of type Hook.hook");
  CHECK(refusal(R"({"version": "1.0.0", "stages": ["prestart"]})") == "missing required property: hook.path");
}

TEST_CASE("an OCI hook: 0.1.0, and a file without a version, read as 0.1.0") {
  const auto old = gd::parse_oci_hook(R"({"hook": "/usr/libexec/oci/hooks.d/oci-nvidia-hook", "stage": ["prestart"], "cmds": [".*"]})");
  REQUIRE(old);
  CHECK(old->program == "/usr/libexec/oci/hooks.d/oci-nvidia-hook");
  CHECK(old->stages == std::vector<std::string>{"prestart"});
  CHECK_FALSE(old->always);
  CHECK(refusal(R"({"version": "0.1.0", "stages": ["prestart"]})") == "0.1.0: missing required property: hook");
  CHECK(refusal(R"({"hook": "/a"})") == ": missing required property: stages");
  CHECK(refusal(R"({"hook": "/a", "stage": ["prestart"], "stages": ["prestart"]})") == ": cannot set both 'stage' and 'stages'");
  CHECK(refusal(R"({"hook": "", "stages": ["prestart"]})") == "missing required property: hook.path");
  CHECK(refusal("null") == ": missing required property: hook");
}

TEST_CASE("an OCI hook's stages: the runtime spec's for every engine, precreate for podman alone") {
  CHECK(gd::oci_hook_stage_known("prestart", false));
  CHECK(gd::oci_hook_stage_known("createRuntime", false));
  CHECK(gd::oci_hook_stage_known("precreate", true));
  CHECK_FALSE(gd::oci_hook_stage_known("precreate", false));
  CHECK_FALSE(gd::oci_hook_stage_known("Prestart", true));
}
