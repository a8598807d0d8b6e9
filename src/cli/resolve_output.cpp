#include "cli/resolve_output.h"

#include "util/json_pretty.h"

namespace gd {
namespace json = boost::json;

json::object resolution_to_json(const Resolution& resolution) {
  json::array tried;
  for (const auto& attempt : resolution.tried) tried.push_back(json::object{{"path", attempt.path}, {"outcome", attempt.outcome}});
  json::object object{{"name", resolution.name}};
  object["path"] = resolution.path ? json::value(*resolution.path) : json::value(nullptr);
  object["via"] = resolution.path ? json::value(enum_name(resolution.via)) : json::value(nullptr);
  object["via_detail"] = resolution.via_detail;
  object["requested_by"] = resolution.requested_by;
  object["tried"] = std::move(tried);
  if (resolution.fatal) object["fatal"] = *resolution.fatal;
  return object;
}

json::object resolutions_to_json(const std::string& file, const LoadSimulation& simulation) {
  json::array libraries;
  for (const auto& resolution : simulation.resolutions()) libraries.push_back(resolution_to_json(resolution));
  const auto& config = simulation.config();
  json::array defaults;
  for (const auto& dir : config.default_dirs) defaults.push_back(json::string(dir));
  return {{"file", file},
          {"loader", json::object{{"libc", config.libc == Libc::glibc ? "glibc" : "musl"},
                                  {"default_dirs", std::move(defaults)},
                                  {"ld_so_cache", config.cache ? json::value(config.cache->layout) : json::value(nullptr)}}},
          {"libraries", std::move(libraries)}};
}

std::string render_resolutions_text(const std::string& file, const LoadSimulation& simulation, bool verbose) {
  std::string out = file + "\n";
  for (const auto& resolution : simulation.resolutions()) {
    if (resolution.via == LoadVia::already_loaded && !verbose) continue;
    out += "  " + resolution.name + " => ";
    if (resolution.path) {
      out += *resolution.path + "  [" + enum_name(resolution.via) + (resolution.via_detail.empty() ? "" : ": " + resolution.via_detail) + "]";
      if (verbose) out += "  (needed by " + resolution.requested_by + ")";
      out += "\n";
    } else {
      out += std::string(resolution.fatal ? "loader aborts" : "not found") + "  (needed by " + resolution.requested_by + ")\n";
      if (resolution.fatal) out += "      " + *resolution.fatal + "\n";
    }
    if (!resolution.path || verbose) {
      out += "      paths considered, in order:\n";
      int step = 0;
      for (const auto& attempt : resolution.tried)
        out += "        " + std::to_string(++step) + ". " + attempt.path + ": " + attempt.outcome + "\n";
      if (resolution.tried.empty()) out += "        (none)\n";
    }
  }
  return out;
}

}  // namespace gd
