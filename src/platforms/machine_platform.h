#pragma once
// Machine platforms as a method table, as container engines are
// (container_engine.h): one file per platform says whether this machine is
// it and what says so. Plain Linux is what no method claims. A new platform
// is its file (defining `extern const PlatformMethod NAME_platform`), its
// place in platform_table.cpp, its name in Platform, its rules and its scenarios.

#include "facts/system_facts.h"
#include "host/host.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gd {

// What every method looks at, read once.
struct PlatformClues {
  Host& host;
  std::string release;  // uname -r, in lower case
};

struct PlatformMethod {
  Platform platform;
  // What says this machine is this platform; nothing where it is not.
  std::optional<std::string> (*detect)(const PlatformClues& clues);
};

// Every platform, in the order they are asked: the first that claims the machine names it.
std::span<const PlatformMethod* const> machine_platforms();

struct PlatformDetection {
  Platform platform = Platform::native_linux;
  std::optional<std::string> evidence;  // nothing for plain Linux
};

PlatformDetection detect_machine_platform(Host& host, std::string_view release);

}  // namespace gd
