#include "report/gpu_table.h"

#include "util/json_pretty.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace gd {
namespace json = boost::json;

namespace {

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }
std::string or_dash(const std::optional<std::int64_t>& value) { return value ? std::to_string(*value) : "-"; }

std::string watts(const std::optional<double>& value) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", *value);
  return text;
}

std::string memory(const GpuRow& row) {
  if (!row.memory_total_mib) return "-";
  return (row.memory_used_mib ? std::to_string(*row.memory_used_mib) : std::string("?")) + " / " +
         std::to_string(*row.memory_total_mib) + " MiB";
}

// CSV and JSON carry values only as they were escaped when the rows were
// made (check/gpu_list); CSV quotes fields that hold its separators. A cell
// a spreadsheet would run as a formula (=, +, -, @, tab, CR first: OWASP's CSV injection) gets a leading
// ' and is quoted, so it is read as text.
std::string csv_field(const std::string& text) {
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  if (!formula && text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = formula ? "\"'" : "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string render_gpus_text(const std::vector<GpuRow>& rows) {
  if (rows.empty()) return "No NVIDIA GPU found (gpudoctor check says why).\n";
  const std::vector<std::string> header{"#", "name", "bus id", "uuid", "cc", "driver", "memory", "util", "temp", "power", "mig", "source"};
  std::vector<std::vector<std::string>> table{header};
  for (const auto& row : rows) {
    const std::string power = row.power_draw_w ? watts(row.power_draw_w) + " / " + watts(row.power_limit_w) + " W" : "-";
    table.push_back({or_dash(row.index), or_dash(row.name), or_dash(row.bus_id), or_dash(row.uuid),
                     or_dash(row.compute_capability), or_dash(row.driver), memory(row),
                     row.utilization_percent ? std::to_string(*row.utilization_percent) + "%" : "-",
                     row.temperature_c ? std::to_string(*row.temperature_c) + "C" : "-", power, or_dash(row.mig), row.source});
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& line : table)
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], line[i].size());
  std::string out;
  for (const auto& line : table) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      text += line[i];
      if (i + 1 < line.size()) text += std::string(widths[i] - line[i].size() + 2, ' ');
    }
    out += text + "\n";
  }
  return out;
}

std::string render_gpus_json(const std::vector<GpuRow>& rows, const GpuReading& reading) {
  json::array list;
  for (const auto& row : rows) {
    json::object item{{"name", row.name},   {"bus_id", row.bus_id}, {"uuid", row.uuid},
                      {"compute_capability", row.compute_capability}, {"driver", row.driver},
                      {"mig", row.mig},     {"source", row.source}};
    auto number = [&](const char* key, const auto& value) { item[key] = value ? json::value(*value) : json::value(nullptr); };
    number("index", row.index);
    number("memory_used_mib", row.memory_used_mib);
    number("memory_total_mib", row.memory_total_mib);
    number("utilization_percent", row.utilization_percent);
    number("temperature_c", row.temperature_c);
    number("power_draw_w", row.power_draw_w);
    number("power_limit_w", row.power_limit_w);
    list.push_back(std::move(item));
  }
  json::object document{{"schema", "gpudoctor-gpus/1"}};
  if (!reading.at.empty()) document["time"] = reading.at;
  document["gpus"] = std::move(list);
  return reading.at.empty() ? pretty_json(document) : compact_json(document);
}

std::string render_gpus_csv(const std::vector<GpuRow>& rows, const GpuReading& reading) {
  auto opt = [](const auto& value) { return value ? std::to_string(*value) : std::string(); };
  const std::string time = reading.at.empty() ? "" : "time,";
  std::string out;
  if (reading.header)
    out = time + "index,name,bus_id,uuid,compute_capability,driver,memory_used_mib,memory_total_mib,utilization_percent,"
                 "temperature_c,power_draw_w,power_limit_w,mig,source\n";
  for (const auto& row : rows) {
    out += (reading.at.empty() ? "" : reading.at + ",") + opt(row.index) + "," + csv_field(row.name) + "," + csv_field(row.bus_id) + "," + csv_field(row.uuid) + "," +
           csv_field(row.compute_capability) + "," + csv_field(row.driver) + "," + opt(row.memory_used_mib) + "," +
           opt(row.memory_total_mib) + "," + opt(row.utilization_percent) + "," + opt(row.temperature_c) + "," +
           (row.power_draw_w ? watts(row.power_draw_w) : "") + "," + (row.power_limit_w ? watts(row.power_limit_w) : "") +
           "," + csv_field(row.mig) + "," + row.source + "\n";
  }
  return out;
}

}  // namespace gd
