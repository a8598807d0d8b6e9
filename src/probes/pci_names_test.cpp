#include "probes/pci_names.h"

#include "gpudoctor_config.h"

#include <doctest/doctest.h>

#include <dlfcn.h>
#include <sys/stat.h>

// That the binary does not link libpci is checked on the binary itself (ldd, in tools/quickstart.sh test).
TEST_CASE("a GPU is named from pci.ids through libpci, opened when a name is asked for") {
  struct stat info {};
  if (!GPUDOCTOR_HAVE_LIBPCI || ::stat("/usr/share/misc/pci.ids", &info) != 0) {
    CHECK_FALSE(gd::pci_device_name(0x10de, 0x2330));
    MESSAGE("built without libpci, or no pci.ids here: names come from rules/tables");
    return;
  }
  const auto name = gd::pci_device_name(0x10de, 0x2330);
  REQUIRE(name);
  CHECK(name->find("H100") != std::string::npos);
  CHECK(dlopen("libpci.so.3", RTLD_NOW | RTLD_NOLOAD) != nullptr);  // opened by the lookup, so already loaded
  CHECK_FALSE(gd::pci_device_name(0x10de, 0xfffe));  // an id pci.ids does not list: no name, no exit(1)
}
