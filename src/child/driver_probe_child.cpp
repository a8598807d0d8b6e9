#include "child/driver_probe_child.h"

#include "child/driver_probe_parts.h"
#include "gpudoctor_config.h"

#include <iostream>

namespace gd {

int driver_probe_child(const std::vector<std::string>& args) {
  using driver_probe::say;
  driver_probe::take_protocol_channel();
  const std::string which = args.empty() ? "" : args[0];
  if (which != "cuda" && which != "nvml") {
    std::cerr << "driver-probe: cuda [smoke] | nvml [table]\n";
    return 2;
  }
#if GPUDOCTOR_STATIC
  // A static binary has no dynamic loader to bring libcuda in with.
  say({{"unavailable", "this gpudoctor is a static build, which cannot load the driver's libraries"}});
  return 0;
#else
  const int status = which == "cuda" ? driver_probe::probe_cuda(args.size() > 1 && args[1] == "smoke")
                                     : driver_probe::probe_nvml(args.size() > 1 && args[1] == "table");
  say({{"done", true}});
  return status;
#endif
}

}  // namespace gd
