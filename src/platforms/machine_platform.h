#pragma once
// Machine platforms as a method table, as container engines are
// (container_engine.h): one file per platform says whether this machine is
// it, what says so, and how a GPU is reached there, which is all the layers
// below the driver's libraries ask of a platform. Plain Linux (linux.cpp) is
// what no other method claims. A new platform is its file (defining `extern
// const PlatformMethod NAME_platform`), its place in platform_table.cpp, its
// name in Platform, its rules and its scenarios.

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

// Where /dev/nvidia* should exist: where the nvidia module is loaded (or a
// container should have them injected), always (a sandbox that forwards
// them to the host's driver), or never (the GPU is reached another way).
enum class NodesExpected { where_loaded, always, never };

struct PlatformMethod {
  Platform platform;
  // What says this machine is this platform; nothing where it is not.
  std::optional<std::string> (*detect)(const PlatformClues& clues);
  // The hardware layer's summary where the platform hides the PCI bus;
  // nullptr where the bus is the machine's to list.
  const char* pci_hidden = nullptr;
  // The kernel-module layer's summary where the module that serves the GPU
  // is not in this kernel (and none is loaded here); nullptr where it is.
  const char* module_elsewhere = nullptr;
  // The machine's own kernel loads nvidia.ko: its log, its installed
  // modules, their signing and firmware are there to read.
  bool own_kernel = false;
  NodesExpected nodes = NodesExpected::where_loaded;
  // The GPU is reached through /dev/dxg, Windows' paravirtual device, and
  // the driver's libraries come from the host's share (WSL2).
  bool through_dxg = false;
  // The host driver's read-only share (WSL2's /usr/lib/wsl/lib): one driver
  // as copies (libcuda.so, .so.1 and .so.1.1 alike) and its nvidia-smi, which
  // only the platform's login shells put on PATH (not sudo, not ssh).
  const char* driver_share = nullptr;
};

// Every platform but plain Linux, in the order they are asked: the first that claims the machine names it.
std::span<const PlatformMethod* const> machine_platforms();

// A platform's method; plain Linux's for native_linux.
const PlatformMethod& platform_method(Platform platform);

struct PlatformDetection {
  Platform platform = Platform::native_linux;
  std::optional<std::string> evidence;  // nothing for plain Linux
};

PlatformDetection detect_machine_platform(Host& host, std::string_view release);

}  // namespace gd
