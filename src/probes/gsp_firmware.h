#pragma once
// The GSP firmware files of a driver version, looked for where the kernel's
// firmware loader looks (drivers/base/firmware_loader/main.c: the
// firmware_class.path parameter, then /lib/firmware/updates/RELEASE,
// /lib/firmware/updates, /lib/firmware/RELEASE, /lib/firmware).

#include "facts/kernel_module_facts.h"
#include "host/host.h"

namespace gd {

GspFirmware find_gsp_firmware(Host& host, const std::string& version);

}  // namespace gd
