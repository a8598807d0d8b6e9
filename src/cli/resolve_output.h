#pragma once
// `gpudoctor resolve FILE`: the libraries a program would load, like ldd but
// without running anything, as text or JSON.

#include "loader/load_simulation.h"

#include <boost/json.hpp>

#include <string>

namespace gd {

boost::json::object resolution_to_json(const Resolution& resolution);
boost::json::object resolutions_to_json(const std::string& file, const LoadSimulation& simulation);
std::string render_resolutions_text(const std::string& file, const LoadSimulation& simulation, bool verbose);

}  // namespace gd
