// libFuzzer target: what `gpudoctor snapshot` redacts, on any bytes: a PCI
// device's VPD (its resources and fields walked for serials), a file, a
// variable and a command's output. Placeholders keep every length, so a
// redacted file is as long as the original, whatever it holds.
#include "redact/redactor.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::Redactor redactor;
  redactor.add_user("alice");
  redactor.add_host_name("gpu-node-17");
  if (redactor.redact(text, gd::TextOrigin::file, "/sys/bus/pci/devices/0000:05:00.0/vpd").size() != size) std::abort();
  if (redactor.redact(text, gd::TextOrigin::file, "/etc/hostname").size() != size) std::abort();
  redactor.redact(text, gd::TextOrigin::command_output);
  redactor.redact_variable("LD_LIBRARY_PATH", text);
  return 0;
}
