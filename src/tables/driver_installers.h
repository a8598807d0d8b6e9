#pragma once
// The driver-installers table (rules/tables/driver-installers.json): the
// package names and installer commands that put the driver's user space
// into an image, each with its source. Patterns are globs ('*' only, the
// whole word), so that a rules override cannot bring a costly expression.

#include "util/checked.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct DriverPackageRow {
  std::string name;                // "Ubuntu's driver libraries"
  std::vector<std::string> match;  // "libnvidia-compute-*"
  // What a recipe installs in its place (a first "from" in the name becomes "to"):
  // the cuda meta-package -> cuda-toolkit; none: the package is dropped.
  std::optional<std::pair<std::string, std::string>> instead;
  std::string source;
  bool operator==(const DriverPackageRow&) const = default;
};

struct DriverInstallerRow {
  std::string name;                 // "the CUDA runfile"
  std::string command;              // a word of the command: "*cuda_*_linux*.run"
  std::vector<std::string> with;    // one of these must be another word too (empty: none needed)
  std::vector<std::string> exempt;  // any of these words means it installs no driver ...
  std::vector<std::string> unless;  // ... unless one of these is there too
  std::optional<std::string> add;   // the flag that makes it install no driver
  std::string source;
  bool operator==(const DriverInstallerRow&) const = default;
};

// A package a command installs, with the row that names it.
struct DriverPackageMatch {
  const DriverPackageRow* row;
  std::string word;  // as written: "nvidia-driver-550=550.54.15-0ubuntu1"
};

bool glob_matches(std::string_view pattern, std::string_view text);

class DriverInstallerTable {
 public:
  Checked<> load(const boost::json::object& table);
  // The row whose pattern names this package word (apt's "=version" and
  // "/suite" and dnf's module ":stream" are not part of the name).
  const DriverPackageRow* package(std::string_view word) const;
  // The installer a command's words run, if one installs the driver.
  const DriverInstallerRow* installer(const std::vector<std::string_view>& words) const;

  // What the rule set compiled at build time stores of it (util/binary_form.h);
  // == compares every member, so the build's check finds one left out here.
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_packages, self.m_installers);
  }
  bool operator==(const DriverInstallerTable&) const = default;

 private:
  std::vector<DriverPackageRow> m_packages;
  std::vector<DriverInstallerRow> m_installers;
};

}  // namespace gd
