#pragma once
// Secure Boot's side of a module that will not load: the keys DKMS, Ubuntu's
// shim-signed and akmods sign modules with, and whether the firmware trusts
// each (its certificate in shim's MokListRT or in the UEFI db), read from
// efivarfs without asking mokutil.

#include "facts/kernel_module_facts.h"
#include "host/host.h"

#include <vector>

namespace gd {

std::vector<SigningKey> find_signing_keys(Files& files);

// Whether some key is trusted: true if one is; false only when keys were found
// and every one was checked and is not (an unchecked key may be the module's).
std::optional<bool> some_key_enrolled(const std::vector<SigningKey>& keys);

}  // namespace gd
