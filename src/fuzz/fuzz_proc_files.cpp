// libFuzzer target: the /proc and /sys text the kernel-module and container
// layers read — modinfo, mountinfo, and the "Key: value" files of
// /proc/driver/nvidia/gpus/*/information.
#include "formats/modinfo.h"
#include "probes/mountinfo.h"
#include "util/text.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::parse_modinfo(text);
  gd::parse_mountinfo(text);
  gd::parse_colon_fields(text);
  return 0;
}
