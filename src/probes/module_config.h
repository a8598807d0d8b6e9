#pragma once
// Why a module may not load, from the files that decide it: modprobe's
// configuration (blacklist, install, options in /etc/modprobe.d and friends)
// and the module files installed for the running kernel.

#include "facts/kernel_module_facts.h"
#include "host/host.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// Every line of modprobe's configuration (man 5 modprobe.d: /etc, /run,
// /usr/local/lib, /usr/lib, /lib), comment stripped and trimmed, with its file.
void each_modprobe_line(Host& host, const std::function<void(const std::string& path, std::string_view line)>& visit);

// Every "blacklist M", "install M /bin/false|true" and "options M ..." line
// for the NVIDIA and competing modules, with the file it is in.
ModprobeFacts read_modprobe_config(Host& host);

// nvidia.ko* under /lib/modules/RELEASE (DKMS's updates/dkms, extra,
// kernel/drivers/video, ...), each with its .modinfo when not compressed.
std::vector<InstalledModule> find_installed_modules(Host& host, const std::string& release);

}  // namespace gd
