#include "child/driver_probe_child.h"

#include "child/driver_probe_parts.h"
#include "gpudoctor_config.h"

#include <algorithm>
#include <iostream>
#include <string_view>

namespace gd {

int driver_probe_child(const std::vector<std::string>& args) {
  using driver_probe::say;
  driver_probe::take_protocol_channel();
  const std::string which = args.empty() ? "" : args[0];
  if (which != "cuda" && which != "nvml") {
    std::cerr << "driver-probe: cuda [smoke] | nvml [table] [repeat]\n";
    return 2;
  }
#if GPUDOCTOR_STATIC
  // A static binary has no dynamic loader to bring libcuda in with.
  say({{"unavailable", "this gpudoctor is a static build, which cannot load the driver's libraries"}});
  return 0;
#else
  const auto has = [&](std::string_view word) { return std::find(args.begin() + 1, args.end(), word) != args.end(); };
  const int status = which == "cuda" ? driver_probe::probe_cuda(has("smoke"))
                                     : driver_probe::probe_nvml({.table = has("table"), .repeat = has("repeat")});
  say({{"done", true}});
  return status;
#endif
}

}  // namespace gd
