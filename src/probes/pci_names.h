#pragma once
// Human names for PCI ids from the system's pci.ids, through libpci. Names
// are a courtesy: without libpci or pci.ids, callers fall back to the chip
// table and the raw ids.

#include <cstdint>
#include <optional>
#include <string>

namespace gd {

std::optional<std::string> pci_device_name(std::uint32_t vendor, std::uint32_t device);

}  // namespace gd
