#include "probes/dpkg_status.h"

#include "util/text.h"

namespace gd {

namespace {

// dpkg's own status files run to a few MiB on a full server; past this the
// rest is not read.
constexpr std::size_t k_status_max = 32u << 20;

// One stanza's fields that matter, read line by line; continuation lines
// (a leading space) belong to the field above and are skipped.
struct Stanza {
  std::string_view package, status, version;
};

void take_field(Stanza& stanza, std::string_view line) {
  const auto field = [&line](std::string_view name) -> std::optional<std::string_view> {
    if (!line.starts_with(name) || line.size() <= name.size() || line[name.size()] != ':') return std::nullopt;
    return trim(line.substr(name.size() + 1));
  };
  if (auto value = field("Package")) stanza.package = *value;
  else if (auto value = field("Status")) stanza.status = *value;
  else if (auto value = field("Version")) stanza.version = *value;
}

}  // namespace

std::string upstream_version(std::string_view version) {
  if (const auto colon = version.find(':'); colon != std::string_view::npos) version.remove_prefix(colon + 1);
  if (const auto dash = version.rfind('-'); dash != std::string_view::npos) version = version.substr(0, dash);
  return std::string(version);
}

std::optional<InstalledPackage> find_installed_deb(Host& host, bool (*wanted)(std::string_view name)) {
  const auto text = host.read_file(k_dpkg_status, k_status_max);
  if (!text) return std::nullopt;
  Stanza stanza;
  const auto finish = [&]() -> std::optional<InstalledPackage> {
    std::optional<InstalledPackage> found;
    if (!stanza.package.empty() && !stanza.version.empty() && stanza.status == "install ok installed" && wanted(stanza.package))
      found = InstalledPackage{printable(stanza.package, 80), printable(stanza.version, 80), printable(upstream_version(stanza.version), 80)};
    stanza = {};
    return found;
  };
  for (const auto line : lines(*text)) {
    if (line.empty()) {
      if (auto found = finish()) return found;
    } else if (line.front() != ' ' && line.front() != '\t') {
      take_field(stanza, line);
    }
  }
  return finish();
}

}  // namespace gd
