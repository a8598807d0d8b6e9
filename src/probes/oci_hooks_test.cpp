#include "probes/engine_configs.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

namespace {

constexpr const char* k_hooks = "/usr/share/containers/oci/hooks.d";

std::string hook(const std::string& program, const std::string& stages = "[\"prestart\"]") {
  return "{\"version\": \"1.0.0\", \"hook\": {\"path\": \"" + program + "\"}, \"when\": {\"always\": true}, \"stages\": " + stages + "}";
}

struct Node {
  gd::ProbeFixture f;
  gd::ProbeNotes notes;
  std::optional<gd::CrioEngineFacts> crio;

  Node& podman() {
    f.host.file("/usr/bin/podman", "");
    return *this;
  }
  Node& with_crio(std::vector<std::string> dirs = {k_hooks}) {
    crio = gd::CrioEngineFacts{.installed = true, .hooks_dirs = std::move(dirs)};
    return *this;
  }
  Node& file(const std::string& path, std::string text) {
    f.host.file(path, std::move(text));
    return *this;
  }
  gd::OciHooksFacts read() { return gd::read_oci_hooks(f.host, crio, notes).value(); }
};

}  // namespace

TEST_CASE("OCI hooks: NVIDIA's hook with its program loads for podman and crio; nothing is refused or dropped") {
  Node node;
  node.podman().with_crio().file("/usr/bin/nvidia-container-runtime-hook", "");
  node.file(std::string(k_hooks) + "/oci-nvidia-hook.json", hook("/usr/bin/nvidia-container-runtime-hook"));
  node.file(std::string(k_hooks) + "/README", "not a hook");
  const auto facts = node.read();
  REQUIRE(facts.hooks.size() == 1);
  CHECK(facts.hooks[0].nvidia);
  CHECK(facts.hooks[0].always);
  CHECK(facts.hooks[0].program_found.value == true);
  CHECK(facts.podman_dirs == std::vector<std::string>{k_hooks});
  CHECK_FALSE(facts.podman_refuses);
  CHECK_FALSE(facts.crio_refuses);
  CHECK(facts.nvidia_hooks_dropped.empty());
  CHECK_FALSE(facts.files_not_read);
}

TEST_CASE("OCI hooks: precreate is podman's stage; crio refuses the file and does not start") {
  Node node;
  node.podman().with_crio().file("/usr/libexec/oci/hooks.d/site-hook", "");
  node.file(std::string(k_hooks) + "/10-site.json", hook("/usr/libexec/oci/hooks.d/site-hook", "[\"precreate\"]"));
  const auto facts = node.read();
  CHECK_FALSE(facts.podman_refuses);
  CHECK(facts.crio_refuses == std::string(k_hooks) + "/10-site.json: unknown stage \"precreate\"");
}

TEST_CASE("OCI hooks: the first file that fails decides; a missing program first hides a refusal after it") {
  Node refused;
  refused.podman().file("/usr/bin/nvidia-container-runtime-hook", "");
  refused.file(std::string(k_hooks) + "/10-broken.json", "{\"version\": \"1.0.0\", \"hook\": {\"path\": \"/x\"}, \"stages\": \"prestart\"}");
  refused.file(std::string(k_hooks) + "/20-gone.json", hook("/opt/gone/hook"));
  const auto first_refused = refused.read();
  REQUIRE(first_refused.podman_refuses);
  CHECK(first_refused.podman_refuses->starts_with(std::string(k_hooks) + "/10-broken.json: 1.0.0: json: cannot unmarshal string"));

  Node masked;
  masked.podman();
  masked.file(std::string(k_hooks) + "/05-gone.json", hook("/opt/gone/hook"));
  masked.file(std::string(k_hooks) + "/10-broken.json", "{\"version\": \"1.0.0\", \"hook\": {\"path\": \"/x\"}, \"stages\": \"prestart\"}");
  const auto first_missing = masked.read();
  CHECK_FALSE(first_missing.podman_refuses);
  REQUIRE(first_missing.hooks.size() == 2);
  CHECK(first_missing.hooks[0].program_found.value == false);
  CHECK(first_missing.hooks[1].problem);
}

TEST_CASE("OCI hooks: NVIDIA's hook without its program is dropped, unless another NVIDIA hook loads") {
  Node removed;
  removed.podman().file(std::string(k_hooks) + "/oci-nvidia-hook.json", hook("/usr/bin/nvidia-container-toolkit"));
  const auto dropped = removed.read();
  CHECK(dropped.nvidia_hooks_dropped == std::vector<std::string>{std::string(k_hooks) + "/oci-nvidia-hook.json"});
  CHECK_FALSE(dropped.podman_refuses);

  Node replaced;
  replaced.podman().file("/etc/containers/containers.conf", "[engine]\nhooks_dir = ['/usr/share/containers/oci/hooks.d', '/etc/containers/oci/hooks.d']\n");
  replaced.file(std::string(k_hooks) + "/oci-nvidia-hook.json", hook("/usr/bin/nvidia-container-toolkit"));
  replaced.file("/etc/containers/oci/hooks.d/oci-nvidia-hook.json", hook("/usr/local/nvidia/toolkit/nvidia-container-runtime-hook"));
  replaced.file("/usr/local/nvidia/toolkit/nvidia-container-runtime-hook", "");
  const auto overridden = replaced.read();
  CHECK(overridden.podman_dirs.size() == 2);
  CHECK(overridden.nvidia_hooks_dropped.empty());
}

TEST_CASE("OCI hooks: a file gpudoctor cannot read leaves the outcome unjudged, and is noted") {
  Node node;
  node.podman().file(std::string(k_hooks) + "/00-big.json", std::string((64 << 10) + 1, ' '));
  node.file(std::string(k_hooks) + "/10-broken.json", "{");
  const auto facts = node.read();
  CHECK_FALSE(facts.podman_refuses);
  CHECK(facts.files_not_read == 1);
  REQUIRE(node.notes.unreadable.size() == 1);
  CHECK(node.notes.unreadable[0].problem == "larger than 64 KiB: not read");

  // A containers.conf that is not TOML: where podman reads hooks is not known.
  Node conf;
  conf.podman().file("/etc/containers/containers.conf", "[engine\n").file(std::string(k_hooks) + "/10-broken.json", "{");
  CHECK_FALSE(conf.read().podman_refuses);
}

TEST_CASE("OCI hooks: neither engine here lists the hooks and judges none; no hooks, no facts") {
  Node lonely;
  lonely.file(std::string(k_hooks) + "/10-broken.json", "{");
  const auto facts = lonely.read();
  CHECK(facts.hooks.size() == 1);
  CHECK_FALSE(facts.podman_refuses);
  Node empty;
  CHECK_FALSE(gd::read_oci_hooks(empty.f.host, std::nullopt, empty.notes));
}

TEST_CASE("OCI hooks: podman's hooks_dir as containers.conf gives it, the site's, a user's rootless files and the user's own last") {
  Node site;
  site.podman().file("/etc/containers/containers.conf", "[engine]\nhooks_dir = ['/etc/site-hooks']\n");
  site.file("/etc/containers/containers.conf.d/50-gpu.conf", "[engine]\nhooks_dir = ['/opt/gpu-hooks']\n");
  site.f.host.ids = {0, 0, {}};
  site.file("/etc/containers/containers.rootless.conf", "[engine]\nhooks_dir = ['/rootless-only']\n");  // not root's
  CHECK(site.read().podman_dirs == std::vector<std::string>{"/opt/gpu-hooks"});

  Node user;
  user.podman().file("/etc/containers/containers.conf", "[engine]\nhooks_dir = ['/etc/site-hooks']\n");
  user.f.host.ids = {1000, 1000, {1000}};
  user.file("/etc/containers/containers.rootless.conf.d/1000/10-alice.conf", "[engine]\nhooks_dir = ['/srv/alice-site']\n");
  CHECK(user.read().podman_dirs == std::vector<std::string>{"/srv/alice-site"});
  user.f.host.env_var("HOME", "/home/alice");
  user.file("/home/alice/.config/containers/containers.conf", "[engine]\nhooks_dir = ['/home/alice/hooks']\n");
  CHECK(user.read().podman_dirs == std::vector<std::string>{"/home/alice/hooks"});
}


TEST_CASE("OCI hooks: {append=true} in a hooks_dir array appends it, and every later file's, until {append=false}") {
  Node node;
  node.podman().file("/etc/containers/containers.conf", "[engine]\nhooks_dir = [{append=true}, '/etc/site-hooks']\n");
  CHECK(node.read().podman_dirs == std::vector<std::string>{k_hooks, "/etc/site-hooks"});
  // The attribute stays: a later file without one appends too.
  node.file("/etc/containers/containers.conf.d/50-gpu.conf", "[engine]\nhooks_dir = ['/opt/gpu-hooks']\n");
  CHECK(node.read().podman_dirs == std::vector<std::string>{k_hooks, "/etc/site-hooks", "/opt/gpu-hooks"});
  node.file("/etc/containers/containers.conf.d/60-only.conf", "[engine]\nhooks_dir = ['/opt/only', {append=false}]\n");
  CHECK(node.read().podman_dirs == std::vector<std::string>{"/opt/only"});
}
