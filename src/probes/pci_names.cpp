#include "probes/pci_names.h"

#include "gpudoctor_config.h"

#if GPUDOCTOR_HAVE_LIBPCI
extern "C" {
#include <pci/pci.h>
}
#include <csetjmp>
#include <cstdarg>
#endif

namespace gd {

#if GPUDOCTOR_HAVE_LIBPCI
namespace {

// libpci's default error handler calls exit(1); ours jumps back instead, so
// a broken pci.ids costs a name, not the whole diagnosis. Names come from
// pci.ids only: udev's hwdb adds nothing for NVIDIA and leaks in libudev.
std::jmp_buf g_pci_error_jump;

// libpci declares the handler with GNU noreturn, which clang holds to be part of the type.
__attribute__((noreturn)) void on_pci_error(char*, ...) { std::longjmp(g_pci_error_jump, 1); }
void on_pci_warning(char*, ...) {}

pci_access* names_access() {
  static pci_access* access = [] {
    pci_access* created = pci_alloc();
    if (!created) return created;
    created->error = on_pci_error;
    created->warning = on_pci_warning;
    created->debug = on_pci_warning;
    created->id_lookup_mode = 0;  // no DNS lookups, and so no ~/.pciids-cache written
    return created;
  }();
  return access;
}

}  // namespace

std::optional<std::string> pci_device_name(std::uint32_t vendor, std::uint32_t device) {
  pci_access* access = names_access();
  if (!access) return std::nullopt;
  char buffer[256];
  if (setjmp(g_pci_error_jump) != 0) return std::nullopt;
  const char* name = pci_lookup_name(access, buffer, sizeof buffer, PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB,
                                     static_cast<int>(vendor), static_cast<int>(device));
  if (!name || name[0] == '\0') return std::nullopt;
  return std::string(name);
}
#else
std::optional<std::string> pci_device_name(std::uint32_t, std::uint32_t) { return std::nullopt; }
#endif

}  // namespace gd
