#include "probes/system_probe.h"

#include "platforms/machine_platform.h"
#include "probes/security_module.h"
#include "util/text.h"

namespace gd {

SystemFacts probe_system(Host& host) {
  const Uname uname = host.uname();
  const UserIds user = host.user();
  SystemFacts facts;
  auto platform = detect_machine_platform(host, uname.release);
  facts.platform = platform.platform;
  facts.platform_evidence = std::move(platform.evidence);
  facts.kernel_release = printable(uname.release, 120);
  facts.machine = printable(uname.machine, 40);
  facts.uid = user.uid;
  facts.gid = user.gid;
  facts.groups.assign(user.groups.begin(), user.groups.end());
  facts.security = read_security_module(host);
  return facts;
}

}  // namespace gd
