#include "probes/crio_daemon.h"

#include "probes/engine_configs.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using gd::child_answer;

// The toolkit's drop-in for RuntimeClasses, crun the default.
constexpr std::string_view k_drop_in = R"([crio.runtime.runtimes.nvidia]
runtime_path = "/usr/bin/nvidia-container-runtime"
runtime_type = "oci"
[crio.runtime.runtimes.nvidia-legacy]
runtime_path = "/usr/bin/nvidia-container-runtime.legacy"
)";

gd::CrioEngineFacts read_crio(gd::ProbeFixture& f) {
  gd::ProbeNotes notes;
  auto facts = gd::read_crio_engine(f.host, notes);
  REQUIRE(facts);
  return *facts;
}

}  // namespace

TEST_CASE("GET /config: the runtimes and default crio runs with, or why there is no answer") {
  const auto facts = gd::parse_crio_config(child_answer(
      "[crio.runtime]\ndefault_runtime = \"nvidia\"\n[crio.runtime.runtimes.crun]\nruntime_path = \"/usr/libexec/crio/crun\"\n"
      "[crio.runtime.runtimes.nvidia]\nruntime_path = \"/usr/bin/nvidia-container-runtime\"\n"));
  CHECK(facts.answered);
  CHECK(facts.default_runtime == "nvidia");
  CHECK(facts.runtimes == std::vector<std::string>{"crun", "nvidia"});
  const auto denied = gd::parse_crio_config(child_answer("", 1, "cannot connect to crio at /var/run/crio/crio.sock: permission denied (EACCES)\n"));
  CHECK_FALSE(denied.answered);
  CHECK(denied.problem == "cannot connect to crio at /var/run/crio/crio.sock: permission denied (EACCES)");
  gd::ChildAnswer late;
  late.timed_out = true;
  CHECK(gd::parse_crio_config(late).problem == "crio did not answer GET /config within 3 s");
  // Whatever else the child printed is no answer.
  for (const char* odd : {"", "[crio.runtime]\n", "[crio.runtime]\ndefault_runtime = \"\"\n", "[crio.runtime\n", "default_runtime = 7\n"})
    CHECK_FALSE(gd::parse_crio_config(child_answer(odd)).answered);
  // More than 32 runtimes: the rest are not listed.
  std::string many = "[crio.runtime]\ndefault_runtime = \"crun\"\n";
  for (int i = 0; i < 40; ++i) many += "[crio.runtime.runtimes.r" + std::to_string(i) + "]\n";
  const auto cut = gd::parse_crio_config(child_answer(many));
  CHECK(cut.runtimes.size() == 32);
  CHECK(cut.runtimes_cut);
}

TEST_CASE("crio is asked on its socket where the socket is there: the flag's, CONTAINER_LISTEN, the files' listen, or the default") {
  gd::ProbeFixture f;
  f.host.file("/usr/bin/crio", "");
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", std::string(k_drop_in));
  CHECK_FALSE(read_crio(f).socket);  // no socket: not running, nothing asked
  f.host.file("/var/run/crio/crio.sock", "");
  CHECK(read_crio(f).socket == "/var/run/crio/crio.sock");
  f.host.file("/etc/crio/crio.conf.d/50-api.conf", "[crio.api]\nlisten = \"/run/site/crio.sock\"\n");
  CHECK_FALSE(read_crio(f).socket);
  f.host.file("/run/site/crio.sock", "");
  CHECK(read_crio(f).socket == "/run/site/crio.sock");
  // crio.service's variable outranks the files, its flag the variable.
  f.host.file("/usr/lib/systemd/system/crio.service", "[Service]\nEnvironment=CONTAINER_LISTEN=/run/env.sock\nExecStart=/usr/bin/crio\n");
  f.host.file("/run/env.sock", "");
  CHECK(read_crio(f).socket == "/run/env.sock");
  f.host.file("/usr/lib/systemd/system/crio.service", "[Service]\nEnvironment=CONTAINER_LISTEN=/run/env.sock\nExecStart=/usr/bin/crio --listen /run/flag.sock\n");
  f.host.file("/run/flag.sock", "");
  CHECK(read_crio(f).socket == "/run/flag.sock");
  // A --root tree's socket is not this machine's daemon.
  f.host.host_mode = gd::HostMode::root;
  CHECK_FALSE(read_crio(f).socket);
}

TEST_CASE("the runtimes the files define, with their program here, that the running crio does not have") {
  gd::ProbeFixture f;
  f.host.file("/usr/bin/crio", "");
  f.host.file("/usr/bin/nvidia-container-runtime", "");
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", std::string(k_drop_in));
  f.host.file("/var/run/crio/crio.sock", "");
  auto facts = read_crio(f);
  const auto request = gd::crio_config_request(facts.socket);
  REQUIRE(request);
  f.host.answers[request->key()] = child_answer("[crio.runtime]\ndefault_runtime = \"crun\"\n[crio.runtime.runtimes.crun]\n");
  gd::ask_crio_daemon(f.host, facts);
  REQUIRE(facts.daemon);
  // nvidia-legacy's program is not here: crio drops it at every start and reload, so it is not missed.
  CHECK(facts.daemon->runtimes_not_loaded == std::vector<std::string>{"nvidia"});
  // Files gpudoctor could not read: nothing is said to be missing.
  f.host.file("/etc/crio/crio.conf.d/50-broken.conf", "[crio.runtime\n");
  auto broken = read_crio(f);
  gd::ask_crio_daemon(f.host, broken);
  CHECK(broken.daemon->answered);
  CHECK(broken.daemon->runtimes_not_loaded.empty());
  // No socket: not asked at all.
  gd::CrioEngineFacts absent;
  gd::ask_crio_daemon(f.host, absent);
  CHECK_FALSE(absent.daemon);
}
