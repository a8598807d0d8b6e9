#include "probes/docker_daemon.h"

#include "probes/engine_configs.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using gd::child_answer;

// A host whose docker.service runs dockerd, with its pid file and process.
gd::ProbeFixture docker_host(const std::string& exec_start, const std::string& pid_file = "/var/run/docker.pid",
                             const std::string& command = "dockerd") {
  gd::ProbeFixture f;
  f.host.file("/usr/bin/dockerd", "");
  f.host.file("/lib/systemd/system/docker.service", "[Service]\nExecStart=" + exec_start + "\n");
  f.host.file(pid_file, "4242\n");
  f.host.file("/proc/4242/stat", "4242 (" + command + ") S 1 4242 4242 0 -1 4194560 0 0 0 0\n");
  return f;
}

gd::DockerEngineFacts read_docker(gd::ProbeFixture& f) {
  gd::ProbeNotes notes;
  return gd::read_docker_engine(f.host, notes).value();
}

}  // namespace

TEST_CASE("GET /info: the running daemon's version, default runtime and runtimes, or why it did not answer") {
  const auto facts = gd::parse_docker_info(child_answer(
      R"({"ServerVersion":"28.3.3","DefaultRuntime":"runc","Runtimes":{"io.containerd.runc.v2":{"path":"runc"},"nvidia":{"path":"nvidia-container-runtime"},"runc":{"path":"runc"}}})"
      "\n"));
  CHECK(facts.answered);
  CHECK(facts.version == "28.3.3");
  CHECK(facts.default_runtime == "runc");
  CHECK(facts.runtimes == std::vector<std::string>{"io.containerd.runc.v2", "nvidia", "runc"});
  CHECK_FALSE(facts.problem);

  // The child's own words where it could not ask.
  const auto denied = gd::parse_docker_info(child_answer("", 1, "cannot connect to dockerd at /var/run/docker.sock: permission denied (EACCES)\n"));
  CHECK_FALSE(denied.answered);
  CHECK(denied.problem == "cannot connect to dockerd at /var/run/docker.sock: permission denied (EACCES)");
  CHECK(gd::parse_docker_info(child_answer("", 3)).problem == "the child that asked it exited 3");
  gd::ChildAnswer late;
  late.timed_out = true;
  CHECK(gd::parse_docker_info(late).problem == "dockerd did not answer GET /info within 3 s");
  gd::ChildAnswer replayed;
  replayed.error = "not-recorded";
  CHECK(gd::parse_docker_info(replayed).problem == "not asked (not-recorded)");
  // An answer without a version is no answer; one that is not JSON is not trusted.
  CHECK(gd::parse_docker_info(child_answer(R"({"Runtimes":{}})")).problem == "dockerd gave no ServerVersion");
  CHECK(gd::parse_docker_info(child_answer("Client: Docker Engine\n")).problem == "the child's answer is not what was asked for");

  // What a daemon names is escaped, and more than 32 runtimes are cut and said to be.
  std::string many = R"({"ServerVersion":"28.3.3","DefaultRuntime":"ru\u001bnc","Runtimes":{)";
  for (int i = 0; i < 40; ++i) many += (i ? "," : "") + std::string("\"r") + std::to_string(i) + "\":{}";
  const auto cut = gd::parse_docker_info(child_answer(many + "}}"));
  CHECK(cut.runtimes.size() == 32);
  CHECK(cut.runtimes_cut);
  CHECK(cut.default_runtime.value().find('\x1b') == std::string::npos);
}

TEST_CASE("the running dockerd is asked on its own socket, and only where it runs") {
  auto f = docker_host("/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock");
  const auto facts = read_docker(f);
  CHECK(facts.pid == 4242);
  CHECK(facts.socket == "/var/run/docker.sock");
  const auto request = gd::docker_info_request(facts.socket).value();
  CHECK(request.kind == gd::ChildKind::docker_api);
  CHECK(request.args == std::vector<std::string>{"/var/run/docker.sock"});

  // -H unix://... and --pidfile on its command line.
  auto custom = docker_host("/usr/bin/dockerd --pidfile /run/dockerd/pid -H tcp://0.0.0.0:2375 --host=unix:///run/dockerd/api.sock",
                            "/run/dockerd/pid");
  const auto moved = read_docker(custom);
  CHECK(moved.pid == 4242);
  CHECK(moved.socket == "/run/dockerd/api.sock");

  // A pid file left by a daemon that died, whose number another process has now: none runs, nothing is asked.
  auto stale = docker_host("/usr/bin/dockerd -H fd://", "/var/run/docker.pid", "bash");
  const auto gone = read_docker(stale);
  CHECK_FALSE(gone.pid);
  CHECK_FALSE(gd::docker_info_request(gone.socket));
  CHECK_FALSE(gd::ask_docker_daemon(stale.host, gone.socket));
  CHECK(stale.host.asked.empty());

  // A --root tree's pid file is not this machine's.
  auto tree = docker_host("/usr/bin/dockerd -H fd://");
  tree.host.host_mode = gd::HostMode::root;
  CHECK_FALSE(read_docker(tree).pid);
}

TEST_CASE("a user's rootless dockerd is found by its pid file in XDG_RUNTIME_DIR and asked on its socket there") {
  auto rootless = [](const std::string& command) {
    gd::ProbeFixture f;
    f.host.env_var("HOME", "/home/alice").env_var("XDG_RUNTIME_DIR", "/run/user/1000");
    f.host.file("/home/alice/.config/systemd/user/docker.service", "[Service]\nExecStart=/usr/bin/dockerd-rootless.sh\n");
    f.host.file("/run/user/1000/docker.pid", "5151\n");
    f.host.file("/proc/5151/stat", "5151 (" + command + ") S 5140 5151 5151 0 -1 4194560 0 0 0 0\n");
    gd::ProbeNotes notes;
    return gd::read_rootless_docker(f.host, notes).value();
  };
  const auto running = rootless("dockerd");
  CHECK(running.pid == 5151);
  CHECK(running.socket == "/run/user/1000/docker.sock");
  CHECK(gd::docker_info_request(running.socket).value().args == std::vector<std::string>{"/run/user/1000/docker.sock"});
  // rootlesskit's own process is not the daemon.
  CHECK_FALSE(rootless("rootlesskit").pid);
}
