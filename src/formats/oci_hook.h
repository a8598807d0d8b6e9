#pragma once
// An OCI hook file (hooks.d/NAME.json) as podman, buildah and CRI-O read
// it (containers/common pkg/hooks: read.go, 1.0.0/hook.go, 0.1.0/hook.go).
// Go's encoding/json decides what is refused: keys match without regard to
// case, a null leaves a field unset, a value of the wrong type is an error.
// What needs the host or the engine (the program's existence, the stages
// an engine knows) is left to the caller, in the order hook.Validate checks it.

#include "util/checked.h"

#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct OciHook {
  std::string program;  // hook.path; 0.1.0: hook
  std::vector<std::string> stages;
  bool stages_written = false;  // 1.0.0 checks "missing required property: stages" after the program
  bool always = false;          // when.always is true
};

// The hook, or why the engines refuse the file, in their words.
Checked<OciHook> parse_oci_hook(std::string_view text);

// The stages every engine knows; podman adds precreate and poststop of its own.
bool oci_hook_stage_known(std::string_view stage, bool podman);

}  // namespace gd
