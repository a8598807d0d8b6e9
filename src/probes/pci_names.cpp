#include "probes/pci_names.h"

#include "gpudoctor_config.h"

#if GPUDOCTOR_HAVE_LIBPCI
extern "C" {
#include <pci/pci.h>
}
#include <dlfcn.h>

#include <csetjmp>
#include <cstdarg>
#endif

namespace gd {

#if GPUDOCTOR_HAVE_LIBPCI
namespace {

// libpci is opened the first time a device is named, not linked: resolve,
// lint, explain and a replay without GPUs never pay for mapping it and the
// libudev and libz it brings (a third of the plain build's start-up), and a
// copy of the binary on a system without libpci3 still runs, naming GPUs
// from rules/tables as the static build does. Only the two calls below are used.
using PciAlloc = pci_access* (*)();
using PciLookupName = char* (*)(pci_access*, char*, int, int, ...);

struct Libpci {
  PciLookupName lookup_name = nullptr;
  pci_access* access = nullptr;  // set up once, with our handlers
};

// libpci's default error handler calls exit(1); ours jumps back instead, so
// a broken pci.ids costs a name, not the whole diagnosis. Names come from
// pci.ids only: udev's hwdb adds nothing for NVIDIA and leaks in libudev.
std::jmp_buf g_pci_error_jump;

// libpci declares the handler with GNU noreturn, which clang holds to be part of the type.
__attribute__((noreturn)) void on_pci_error(char*, ...) { std::longjmp(g_pci_error_jump, 1); }
void on_pci_warning(char*, ...) {}

const Libpci& libpci() {
  static const Libpci loaded = [] {
    Libpci lib;
    // The soname libpci has kept since 3.0; its ABI is what <pci/pci.h> describes.
    void* handle = dlopen("libpci.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return lib;
    const auto alloc = reinterpret_cast<PciAlloc>(dlsym(handle, "pci_alloc"));
    lib.lookup_name = reinterpret_cast<PciLookupName>(dlsym(handle, "pci_lookup_name"));
    if (!alloc || !lib.lookup_name) return Libpci{};
    lib.access = alloc();
    if (!lib.access) return Libpci{};
    lib.access->error = on_pci_error;
    lib.access->warning = on_pci_warning;
    lib.access->debug = on_pci_warning;
    lib.access->id_lookup_mode = 0;  // no DNS lookups, and so no ~/.pciids-cache written
    return lib;
  }();
  return loaded;
}

}  // namespace

std::optional<std::string> pci_device_name(std::uint32_t vendor, std::uint32_t device) {
  const Libpci& lib = libpci();
  if (!lib.access) return std::nullopt;
  char buffer[256];
  if (setjmp(g_pci_error_jump) != 0) return std::nullopt;
  const char* name = lib.lookup_name(lib.access, buffer, sizeof buffer, PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB,
                                     static_cast<int>(vendor), static_cast<int>(device));
  if (!name || name[0] == '\0') return std::nullopt;
  return std::string(name);
}
#else
std::optional<std::string> pci_device_name(std::uint32_t, std::uint32_t) { return std::nullopt; }
#endif

}  // namespace gd
