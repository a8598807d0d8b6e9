#pragma once
// How a scenario is checked: the "options" object of its expected.json
// ({"image", "gpu", "host_driver", "smoke", "no_probe"}), read in one place, as the probe
// options a replay takes and as the command line that asks the same.

#include "probes/probe_context.h"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace gd {

ProbeOptions scenario_probe_options(const boost::json::object& expected);
std::vector<std::string> scenario_cli_args(const boost::json::object& expected);

}  // namespace gd
