#include "probes/infiniband.h"

#include "util/text.h"

namespace gd {
namespace {

constexpr std::size_t k_max_ib_ports = 64;
constexpr const char* k_class = "/sys/class/infiniband";

// "4: ACTIVE" -> "ACTIVE", "5: LinkUp" -> "LinkUp": the name, without the number.
std::optional<std::string> state_name(Host& host, const std::string& path) {
  const auto text = host.read_file(path, 256);
  if (!text) return std::nullopt;
  std::string_view value = trim(*text);
  if (const auto colon = value.find(':'); colon != std::string_view::npos) value = trim(value.substr(colon + 1));
  if (value.empty()) return std::nullopt;
  return printable(value, 40);
}

// A port counter: a decimal number, which some adapters cannot give (an error on read).
std::optional<std::int64_t> counter(Host& host, const std::string& path) {
  const auto text = host.read_file(path, 64);
  if (!text) return std::nullopt;
  const auto value = parse_int(trim(*text));
  if (!value || *value < 0) return std::nullopt;
  return value;
}

}  // namespace

IbPortsRead read_ib_ports(Host& host) {
  IbPortsRead read;
  auto& ports = read.ports;
  const auto devices = host.list_dir(k_class);
  if (!devices) return read;
  for (const auto& device : *devices) {
    const std::string dir = std::string(k_class) + "/" + device + "/ports";
    const auto numbers = host.list_dir(dir);
    if (!numbers) continue;
    for (const auto& number : *numbers) {
      if (ports.size() >= k_max_ib_ports) {
        read.cut = true;
        return read;
      }
      const auto port = parse_int(number);
      if (!port) continue;
      IbPort entry;
      entry.device = printable(device, 40);
      entry.port = *port;
      const std::string base = dir + "/" + number + "/";
      entry.state = state_name(host, base + "state");
      entry.phys_state = state_name(host, base + "phys_state");
      if (const auto rate = host.read_file(base + "rate", 256)) entry.rate = printable(trim(*rate), 60);
      if (const auto layer = host.read_file(base + "link_layer", 256)) entry.link_layer = printable(trim(*layer), 20);
      entry.link_downed = counter(host, base + "counters/link_downed");
      entry.link_error_recovery = counter(host, base + "counters/link_error_recovery");
      ports.push_back(std::move(entry));
    }
  }
  return read;
}

}  // namespace gd
