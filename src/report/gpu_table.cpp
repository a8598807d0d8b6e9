#include "report/gpu_table.h"

#include "model/gpu_list_source.h"
#include "model/layers.h"
#include "util/json_fields.h"
#include "util/json_pretty.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace gd {
namespace json = boost::json;

namespace {

const json::object* layer_facts(const Report& report, std::string_view id) {
  for (const auto& layer : report.layers)
    if (layer.facts.id == id) return &layer.facts.facts;
  return nullptr;
}

// Every value came from the diagnosed system: escaped, and cut to a width.
std::string text_at(const json::object& object, std::string_view key, std::size_t max = 60) {
  return printable(string_field(object, key), max);
}


std::vector<GpuRow> from_nvml(const json::array& devices, const std::string& driver) {
  std::vector<GpuRow> rows;
  for (const auto& entry : devices) {
    if (!entry.is_object()) continue;
    const auto& device = entry.get_object();
    GpuRow row{.index = int_field(device, "index"),
               .memory_used_mib = int_field(device, "memory_used_mib"),
               .memory_total_mib = int_field(device, "memory_total_mib"),
               .utilization_percent = int_field(device, "utilization_percent"),
               .temperature_c = int_field(device, "temperature_c"),
               .power_draw_w = number_field(device, "power_draw_w"),
               .power_limit_w = number_field(device, "power_limit_w"),
               .name = text_at(device, "name"),
               .bus_id = text_at(device, "bus_id"),
               .uuid = text_at(device, "uuid"),
               .compute_capability = text_at(device, "compute_capability"),
               .driver = driver,
               .mig = text_at(device, "mig_mode"),
               .source = "nvml"};
    if (const auto instances = int_field(device, "mig_devices"); instances && row.mig == "Enabled")
      row.mig += " (" + std::to_string(*instances) + " devices)";
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<GpuRow> from_smi(const json::array& gpus) {
  std::vector<GpuRow> rows;
  for (const auto& entry : gpus) {
    if (!entry.is_object()) continue;
    const auto& gpu = entry.get_object();
    GpuRow row;
    row.index = int_field(gpu, "index");
    row.name = text_at(gpu, "name");
    row.bus_id = text_at(gpu, "bus_id");
    row.uuid = text_at(gpu, "uuid");
    row.compute_capability = text_at(gpu, "compute_capability");
    row.driver = text_at(gpu, "driver_version");
    row.memory_used_mib = int_field(gpu, "memory_used_mib");
    row.memory_total_mib = int_field(gpu, "memory_total_mib");
    row.mig = text_at(gpu, "mig_mode");
    row.source = "nvidia-smi";
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<GpuRow> from_cuda(const json::array& devices, const std::string& driver) {
  std::vector<GpuRow> rows;
  for (const auto& entry : devices) {
    if (!entry.is_object()) continue;
    const auto& device = entry.get_object();
    GpuRow row;
    row.index = int_field(device, "index");
    row.name = text_at(device, "name");
    row.bus_id = text_at(device, "bus_id");
    row.uuid = text_at(device, "uuid");
    row.compute_capability = text_at(device, "compute_capability");
    row.memory_total_mib = int_field(device, "memory_total_mib");
    row.driver = driver;
    row.source = "cuda";
    rows.push_back(std::move(row));
  }
  return rows;
}

// The files: every NVIDIA GPU on the PCI bus, with what the driver's
// /proc/driver/nvidia/gpus says about the ones it claimed.
std::vector<GpuRow> from_files(const json::object* hardware, const json::object* module, const std::string& driver) {
  std::vector<GpuRow> rows;
  const auto* gpus = as_array(field(hardware, "gpus"));
  const auto* claimed = as_array(field(module, "claimed_gpus"));
  if (!gpus) return rows;
  for (const auto& entry : *gpus) {
    if (!entry.is_object()) continue;
    const auto& gpu = entry.get_object();
    GpuRow row;
    row.name = text_at(gpu, "name");
    row.bus_id = text_at(gpu, "bdf");
    row.compute_capability = text_at(gpu, "compute_capability");
    row.source = "files";
    for (const auto& other : claimed ? *claimed : json::array{}) {
      if (!other.is_object() || text_at(other.get_object(), "bdf") != row.bus_id) continue;
      row.uuid = text_at(other.get_object(), "uuid");
      row.index = int_field(other.get_object(), "minor");
      row.driver = driver;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

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

// CSV and JSON carry values only as they were escaped above; CSV quotes
// fields that hold its separators. A cell a spreadsheet would run as a
// formula (=, +, -, @, tab, CR first: OWASP's CSV injection) gets a leading
// ' and is quoted, so it is read as text.
std::string csv_field(const std::string& text) {
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  if (!formula && text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = formula ? "\"'" : "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::vector<GpuRow> gpu_rows(const Report& report) {
  const auto* libs = layer_facts(report, layer_id(LayerId::driver_libs));
  const auto* module = layer_facts(report, layer_id(LayerId::kernel_module));
  const auto* nvml = as_object(field(libs, "nvml_probe"));
  const auto* smi = as_object(field(libs, "nvidia_smi_run"));
  const auto* cuda = as_object(field(libs, "cuda_probe"));
  std::string driver;
  if (const auto version = as_string(field(module, "version"))) driver = printable(*version, 40);
  if (const auto version = as_string(field(nvml, "driver_version"))) driver = printable(*version, 40);
  // Which source to trust is the driver-libs probe's decision (gpu_list_source), not the table's.
  const auto source = enum_from_name<GpuListSource>(as_string(field(libs, "gpu_list_source")).value_or(""))
                          .value_or(GpuListSource::files);
  static const json::array none;
  const auto list = [&](const json::object* facts, std::string_view key) -> const json::array& {
    const auto* items = as_array(field(facts, key));
    return items ? *items : none;
  };
  switch (source) {
    case GpuListSource::nvml: return from_nvml(list(nvml, "devices"), driver);
    case GpuListSource::nvidia_smi: return from_smi(list(smi, "gpus"));
    case GpuListSource::cuda: return from_cuda(list(cuda, "devices"), driver);
    case GpuListSource::files: break;
  }
  return from_files(layer_facts(report, layer_id(LayerId::hardware)), module, driver);
}

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
