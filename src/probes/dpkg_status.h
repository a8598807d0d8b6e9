#pragma once
// What dpkg says is installed, from its status file (/var/lib/dpkg/status):
// a package's name and version, where the name is one a probe wants. Only
// Debian and Ubuntu keep one; rpm's database (SQLite since RHEL 9) is not read.

#include "host/host.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

struct InstalledPackage {
  std::string name;              // nvidia-fabricmanager-550
  std::string version;           // as dpkg has it: 550.90.07-1
  std::string upstream_version;  // without its epoch and Debian revision: 550.90.07
};

inline constexpr std::string_view k_dpkg_status = "/var/lib/dpkg/status";

// The first package installed ("Status: install ok installed") whose name
// `wanted` accepts; nothing where none is, or the file cannot be read.
std::optional<InstalledPackage> find_installed_deb(Host& host, bool (*wanted)(std::string_view name));

// dpkg's version without "EPOCH:" and "-REVISION": the upstream release.
std::string upstream_version(std::string_view version);

}  // namespace gd
