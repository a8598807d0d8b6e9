#include "probes/security_module.h"

#include "util/text.h"

namespace gd {

namespace {

// The kernel ends the label with a newline (AppArmor) or a NUL (SELinux).
std::string_view trimmed(std::string_view label) {
  while (!label.empty() && (label.back() == '\0' || label.back() == '\n' || label.back() == ' ')) label.remove_suffix(1);
  return label;
}

std::optional<bool> selinux_flag(Host& host, std::string_view path) {
  // "1" (enforce), or "1 1" (a boolean's current and pending value).
  auto text = host.read_file(path, 64);
  if (!text || text->empty() || ((*text)[0] != '0' && (*text)[0] != '1')) return std::nullopt;
  return (*text)[0] == '1';
}

}  // namespace

std::optional<SecurityFacts> parse_security_label(std::string_view raw) {
  const auto label = trimmed(raw);
  if (label.empty() || label == "unconfined") return std::nullopt;
  SecurityFacts facts;
  facts.label = printable(label, 200);
  // AppArmor: "PROFILE (MODE)", the mode enforce, complain, kill, user or unconfined.
  if (label.back() == ')') {
    const auto open = label.rfind(" (");
    if (open == std::string_view::npos) return std::nullopt;
    const auto mode = label.substr(open + 2, label.size() - open - 3);
    if (mode == "unconfined") return std::nullopt;
    facts.module = SecurityModule::apparmor;
    facts.enforcing = mode == "enforce" || mode == "kill";
    return facts;
  }
  // SELinux: "user:role:type:level", with no space.
  if (label.find(' ') == std::string_view::npos && label.find(':') != label.rfind(':')) {
    facts.module = SecurityModule::selinux;
    return facts;
  }
  return std::nullopt;
}

std::optional<SecurityFacts> read_security_module(Host& host) {
  auto label = host.read_file("/proc/self/attr/current", 4096);
  // With modules stacked, AppArmor's label is also in its own directory.
  if (!label || trimmed(*label).empty()) label = host.read_file("/proc/self/attr/apparmor/current", 4096);
  if (!label) return std::nullopt;
  auto facts = parse_security_label(*label);
  if (facts && facts->module == SecurityModule::selinux) {
    // selinuxfs, which engines leave out of containers: there, both stay unknown.
    facts->enforcing = selinux_flag(host, "/sys/fs/selinux/enforce");
    facts->container_use_devices = selinux_flag(host, "/sys/fs/selinux/booleans/container_use_devices");
  }
  return facts;
}

}  // namespace gd
