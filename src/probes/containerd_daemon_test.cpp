#include "probes/containerd_daemon.h"

#include "probes/engine_configs.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using gd::child_answer;

constexpr std::string_view k_config = R"(version = 3
[plugins.'io.containerd.cri.v1.runtime'.containerd]
  default_runtime_name = 'nvidia'
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
  runtime_type = 'io.containerd.runc.v2'
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.nvidia]
  runtime_type = 'io.containerd.runc.v2'
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.nvidia.options]
  BinaryName = '/usr/bin/nvidia-container-runtime'
)";

gd::ContainerdEngineFacts read_own(gd::ProbeFixture& f) {
  gd::ProbeNotes notes;
  auto engines = gd::read_containerd_engines(f.host, notes);
  REQUIRE(!engines.empty());
  return engines.front();
}

}  // namespace

TEST_CASE("the CRI status: what containerd's CRI plugin loaded, or why there is no answer") {
  const auto facts = gd::parse_cri_status(child_answer(
      R"({"API":"runtime.v1","DefaultRuntime":"nvidia","Runtimes":{"nvidia":{"type":"io.containerd.runc.v2","binary":"/usr/bin/nvidia-container-runtime"},"runc":{}},"CDI":true})"
      "\n"));
  CHECK(facts.running);
  CHECK(facts.answered);
  CHECK(facts.api == "runtime.v1");
  CHECK(facts.default_runtime == "nvidia");
  CHECK(facts.runtimes == std::vector<std::string>{"nvidia", "runc"});
  CHECK(facts.cdi == true);
  // No default in the configuration: containerd's own, runc. No CDI key (containerd 1.6): not known.
  const auto bare = gd::parse_cri_status(child_answer(R"({"API":"runtime.v1alpha2","Runtimes":{}})"));
  CHECK(bare.default_runtime == "runc");
  CHECK_FALSE(bare.cdi);
  // Running without CRI (exit 3), not reachable (exit 1): the child's words.
  const auto no_cri = gd::parse_cri_status(child_answer("", 3, "containerd at /run/containerd/containerd.sock serves no CRI runtime service: x\n"));
  CHECK(no_cri.running);
  CHECK_FALSE(no_cri.answered);
  CHECK(no_cri.problem == "containerd at /run/containerd/containerd.sock serves no CRI runtime service: x");
  const auto denied = gd::parse_cri_status(child_answer("", 1, "cannot connect to containerd at /run/containerd/containerd.sock: permission denied (EACCES)\n"));
  CHECK_FALSE(denied.running);
  CHECK(denied.problem == "cannot connect to containerd at /run/containerd/containerd.sock: permission denied (EACCES)");
  gd::ChildAnswer late;
  late.timed_out = true;
  CHECK(gd::parse_cri_status(late).problem == "containerd did not answer the CRI status call within 3 s");
  gd::ChildAnswer unrecorded;
  unrecorded.error = "not-recorded";
  CHECK(gd::parse_cri_status(unrecorded).problem == "not asked (not-recorded)");
  // Whatever else the child printed is no answer.
  for (const char* odd : {"", "[]", R"({"API":7})", R"({"API":""})", "{\"API\":\"x\",\"Runtimes\":[1]"})
    CHECK_FALSE(gd::parse_cri_status(child_answer(odd)).answered);
}

TEST_CASE("containerd is asked on its socket where the socket is there: the flag's, the files' [grpc] address, or the default") {
  gd::ProbeFixture f;
  f.host.file("/etc/containerd/config.toml", std::string(k_config));
  CHECK_FALSE(read_own(f).socket);  // no socket: not running, nothing asked
  f.host.file("/run/containerd/containerd.sock", "");
  CHECK(read_own(f).socket == "/run/containerd/containerd.sock");
  f.host.file("/etc/containerd/config.toml", "[grpc]\n  address = '/run/site/containerd.sock'\n" + std::string(k_config));
  CHECK_FALSE(read_own(f).socket);
  f.host.file("/run/site/containerd.sock", "");
  CHECK(read_own(f).socket == "/run/site/containerd.sock");
  // containerd.service's --address outranks the files.
  f.host.file("/usr/bin/containerd", "");
  f.host.file("/lib/systemd/system/containerd.service", "[Service]\nExecStart=/usr/bin/containerd -a /run/flag.sock\n");
  f.host.file("/run/flag.sock", "");
  CHECK(read_own(f).socket == "/run/flag.sock");
  // A --root tree's socket is not this machine's daemon.
  f.host.host_mode = gd::HostMode::root;
  CHECK_FALSE(read_own(f).socket);
}

TEST_CASE("the runtimes the files define that the running containerd has not loaded") {
  gd::ProbeFixture f;
  f.host.file("/etc/containerd/config.toml", std::string(k_config));
  f.host.file("/run/containerd/containerd.sock", "");
  auto facts = read_own(f);
  const auto request = gd::cri_status_request(facts.socket);
  REQUIRE(request);
  f.host.answers[request->key()] = child_answer(R"({"API":"runtime.v1","DefaultRuntime":"runc","Runtimes":{"runc":{}}})");
  gd::ask_containerd_daemon(f.host, facts);
  REQUIRE(facts.daemon);
  CHECK(facts.daemon->runtimes_not_loaded == std::vector<std::string>{"nvidia"});
  // Not answered (its CRI plugin not loaded): nothing is said to be missing.
  auto again = read_own(f);
  f.host.answers[request->key()] = child_answer("", 3, "no CRI\n");
  gd::ask_containerd_daemon(f.host, again);
  CHECK(again.daemon->running);
  CHECK(again.daemon->runtimes_not_loaded.empty());
  // No socket: not asked at all.
  gd::ContainerdEngineFacts absent;
  gd::ask_containerd_daemon(f.host, absent);
  CHECK_FALSE(absent.daemon);
}
