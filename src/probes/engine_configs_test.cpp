#include "probes/engine_configs.h"

#include "test_support/binary_writer.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("Docker's daemon.json: what dockerd refuses is the problem, and its defaults are dockerd's") {
  auto docker = [](const std::string& daemon_json) {
    gd::ProbeFixture f;
    f.host.file("/usr/bin/dockerd", "");
    f.host.file("/usr/bin/nvidia-container-runtime", "");
    if (!daemon_json.empty()) f.host.file("/etc/docker/daemon.json", daemon_json);
    gd::ProbeNotes notes;
    return gd::read_docker_engine(f.host, notes).value();
  };
  // No file, an empty one: runc is the default and dockerd starts.
  CHECK(docker("").default_runtime == "runc");
  CHECK_FALSE(docker(" \n").problem);
  CHECK(docker("{\"runtimes\": {\"nvidia\": {\"path\": \"nvidia-container-runtime\"}},}").problem.value().starts_with("not JSON"));
  CHECK(docker("[]").problem == "not a JSON object");
  CHECK(docker("{\"runtimes\": {\"runc\": {\"path\": \"/usr/bin/runc\"}}}").problem == "runtime name 'runc' is reserved");
  CHECK(docker("{\"runtimes\": {\"nvidia\": {}}}").problem == "runtime nvidia: either a runtimeType or a path must be configured");
  CHECK(docker("{\"features\": {\"cdi\": \"yes\"}}").problem == "feature cdi is not true or false");
  // A shim name is accepted as a default without being configured; a plain name is not.
  CHECK(docker("{\"default-runtime\": \"io.containerd.runsc.v1\"}").default_runtime_defined);
  CHECK_FALSE(docker("{\"default-runtime\": \"nvidia\"}").default_runtime_defined);
  const auto written = docker("{\"default-runtime\": \"nvidia\", \"features\": {\"cdi\": false}, \"exec-opts\": [\"native.cgroupdriver=systemd\"],"
                              " \"runtimes\": {\"nvidia\": {\"args\": [], \"path\": \"nvidia-container-runtime\"},"
                              " \"kata\": {\"runtimeType\": \"io.containerd.kata.v2\"}, \"old\": {\"path\": \"/opt/old-runtime\"}}}");
  CHECK_FALSE(written.problem);
  CHECK(written.default_runtime_defined);
  CHECK(written.cdi == false);
  CHECK(written.cgroup_driver == "systemd");
  REQUIRE(written.runtimes.size() == 3);
  for (const auto& runtime : written.runtimes) {
    CAPTURE(runtime.name);
    if (runtime.name == "nvidia") CHECK((runtime.is_default && runtime.found.value == true));
    if (runtime.name == "kata") CHECK((!runtime.binary && !runtime.found.value));  // a shim: nothing of its own to look for
    if (runtime.name == "old") CHECK((!runtime.is_default && runtime.found.value == false));
  }
  // Neither dockerd nor its file: no Docker.
  gd::ProbeFixture none;
  gd::ProbeNotes notes;
  CHECK_FALSE(gd::read_docker_engine(none.host, notes));
}

TEST_CASE("containerd: imports breadth first, globs sorted and relative to the importing file, each file by its own version") {
  gd::ProbeFixture f;
  f.host.file("/etc/containerd/config.toml", "imports = ['conf.d/*.toml', '/etc/containerd/config.toml']\n"
                                              "[plugins.cri.containerd]\ndefault_runtime_name = 'nvidia'\n");  // version 1: short plugin names
  f.host.file("/etc/containerd/conf.d/10-first.toml", "version = 2\nimports = ['../extra.toml']\n"
                                                       "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\n"
                                                       "BinaryName = '/usr/bin/missing-runtime'\n");
  f.host.file("/etc/containerd/conf.d/20-second.toml", "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.nvidia.options]\n"
                                                        "BinaryName = 'nvidia-container-runtime'\n[plugins.'io.containerd.cri.v1.runtime']\nenable_cdi = true\n");
  f.host.file("/etc/containerd/conf.d/.hidden.toml", "version = 2\n");  // Go's glob matches a leading dot too
  f.host.file("/etc/containerd/extra.toml", "version = 3\n");
  f.host.file("/usr/sbin/nvidia-container-runtime", "");
  gd::ProbeNotes notes;
  const auto engines = gd::read_containerd_engines(f.host, notes);
  REQUIRE(engines.size() == 1);
  const auto& containerd = engines[0];
  CHECK_FALSE(containerd.problem);
  CHECK(containerd.files == std::vector<std::string>{"/etc/containerd/config.toml", "/etc/containerd/conf.d/.hidden.toml",
                                                       "/etc/containerd/conf.d/10-first.toml",
                                                       "/etc/containerd/conf.d/20-second.toml", "/etc/containerd/extra.toml"});
  CHECK(containerd.version == 1);
  CHECK(containerd.default_runtime == "nvidia");
  CHECK(containerd.default_runtime_defined);
  CHECK(containerd.cdi == true);
  REQUIRE(containerd.runtimes.size() == 1);
  // The later file's BinaryName is the one containerd runs, found on the service PATH.
  CHECK(containerd.runtimes[0].binary == "nvidia-container-runtime");
  CHECK(containerd.runtimes[0].found.value == true);
  CHECK(containerd.runtimes_without_program.empty());
  CHECK_FALSE(containerd.default_runtime_without_program);

  // A named import that is missing stops containerd; a file that is not TOML ends the reading with its name and line.
  gd::ProbeFixture broken;
  broken.host.file("/var/lib/rancher/k3s/agent/etc/containerd/config.toml", "version = 2\nimports = [\"gone.toml\", \"bad.toml\"]\n");
  broken.host.file("/var/lib/rancher/k3s/agent/etc/containerd/bad.toml", "[plugins\n");
  const auto k3s = gd::read_containerd_engines(broken.host, notes);
  REQUIRE(k3s.size() == 1);
  CHECK(k3s[0].missing_imports == std::vector<std::string>{"/var/lib/rancher/k3s/agent/etc/containerd/gone.toml"});
  CHECK(k3s[0].problem == "/var/lib/rancher/k3s/agent/etc/containerd/bad.toml: line 1: expected ] after the table name");
}

TEST_CASE("containerd: a version 3 file's version 2 tables are not read; BinaryName counts for runc shims, and bare names only on containerd's own PATH") {
  gd::ProbeFixture f;
  // microk8s's template: runtimes by bare name on the snap's PATH, and kata, whose shim runs its own program.
  f.host.file("/var/snap/microk8s/current/args/containerd.toml",
              "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd]\ndefault_runtime_name = \"runc\"\n"
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia-container-runtime]\nruntime_type = \"io.containerd.runc.v2\"\n"
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia-container-runtime.options]\nBinaryName = \"nvidia-container-runtime\"\n"
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.kata]\nruntime_type = \"io.containerd.kata.v2\"\n"
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.kata.options]\nBinaryName = \"/opt/kata/missing\"\n");
  // containerd migrates nothing in a version 3 file: its version 2 tables are dead text.
  f.host.file("/etc/containerd/config.toml",
              "version = 3\n[plugins.\"io.containerd.grpc.v1.cri\".containerd]\ndefault_runtime_name = \"nvidia\"\n"
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\nBinaryName = \"/gone/nvidia-container-runtime\"\n");
  gd::ProbeNotes notes;
  const auto engines = gd::read_containerd_engines(f.host, notes);
  REQUIRE(engines.size() == 2);
  CHECK(engines[0].config == "/etc/containerd/config.toml");
  CHECK(engines[0].default_runtime == "runc");
  CHECK(engines[0].runtimes.empty());
  const auto& microk8s = engines[1];
  REQUIRE(microk8s.runtimes.size() == 2);
  for (const auto& runtime : microk8s.runtimes) {
    CAPTURE(runtime.name);
    CHECK_FALSE(runtime.found.value);  // kata: not the runc shim's; nvidia-container-runtime: the snap's PATH is not known
  }
  CHECK(microk8s.runtimes_without_program.empty());
}

namespace {

// containerd's program at /usr/bin, of the given major release.
void containerd_of_major(gd::ProbeFixture& f, int major) {
  const std::string module = major == 2 ? "github.com/containerd/containerd/v2" : "github.com/containerd/containerd";
  f.host.file("/usr/bin/containerd", gd::go_program("go1.22.12", "path\t" + module + "/cmd/containerd\n"));
}

constexpr const char* k_cri = "[plugins.\"io.containerd.grpc.v1.cri\"";

}  // namespace

TEST_CASE("containerd 1.x puts an import's plugin section in place of the one before it; 2.x merges key by key") {
  const std::string main = std::string("version = 2\nimports = ['conf.d/*.toml']\n") + k_cri + ".containerd]\ndefault_runtime_name = 'nvidia'\n" + k_cri +
                           ".containerd.runtimes.nvidia]\nruntime_type = 'io.containerd.runc.v2'\n" + k_cri +
                           ".containerd.runtimes.runc]\nruntime_type = 'io.containerd.runc.v2'\n";
  const std::string registry = std::string("version = 2\n") + k_cri + ".registry]\nconfig_path = '/etc/containerd/certs.d'\n";
  auto read = [&](int major, const std::string& drop_in) {
    gd::ProbeFixture f;
    if (major) containerd_of_major(f, major);
    f.host.file("/etc/containerd/config.toml", main);
    f.host.file("/etc/containerd/conf.d/10.toml", drop_in);
    gd::ProbeNotes notes;
    auto engines = gd::read_containerd_engines(f.host, notes);
    REQUIRE(engines.size() == 1);
    return engines[0];
  };
  const auto one = read(1, registry);
  CHECK(one.major == 1);
  CHECK(one.default_runtime == "runc");
  CHECK(one.runtimes.empty());
  CHECK(one.default_runtime_defined);  // no runtime defined: containerd's own runc stays
  CHECK(one.runtimes_dropped == std::vector<std::string>{"nvidia (/etc/containerd/config.toml)"});  // runc is not listed
  CHECK(one.default_runtime_dropped == "nvidia (/etc/containerd/config.toml)");
  CHECK(one.sections_replaced ==
        std::vector<std::string>{"/etc/containerd/conf.d/10.toml replaced /etc/containerd/config.toml's [plugins.\"io.containerd.grpc.v1.cri\"]"});
  for (const int major : {2, 0}) {  // 2.x, and a release not known: key by key
    CAPTURE(major);
    const auto merged = read(major, registry);
    CHECK(merged.default_runtime == "nvidia");
    CHECK(merged.runtimes.size() == 2);
    CHECK(merged.runtimes_dropped.empty());
    CHECK_FALSE(merged.default_runtime_dropped);
    CHECK(merged.sections_replaced.empty());
  }
  // A drop-in that sets the default again and defines the runtime: nothing lost, though the section was replaced.
  const auto again = read(1, std::string("version = 2\n") + k_cri + ".containerd]\ndefault_runtime_name = 'nvidia'\n" + k_cri +
                                 ".containerd.runtimes.nvidia]\nruntime_type = 'io.containerd.runc.v2'\n");
  CHECK(again.runtimes_dropped.empty());
  CHECK_FALSE(again.default_runtime_dropped);
  CHECK(again.default_runtime == "nvidia");
  CHECK(again.default_runtime_defined);
  // A drop-in of runtimes without runc, the default left unset: 1.x has no runc then, 2.x keeps its own.
  const std::string runtime_only = std::string(k_cri) + ".containerd.runtimes.foo]\nruntime_type = 'io.containerd.runc.v2'\n";
  CHECK_FALSE(read(1, runtime_only).default_runtime_defined);
  CHECK(read(2, runtime_only).default_runtime_defined);
  CHECK_FALSE(read(1, runtime_only).refused);
  // An empty runtimes table is a table all the same (containerd 1.6.20's own dump shows no runc after it).
  const std::string empty_table = std::string("version = 2\n") + k_cri + ".containerd.runtimes]\n";
  CHECK_FALSE(read(1, empty_table).default_runtime_defined);
  CHECK(read(2, empty_table).default_runtime_defined);
}

TEST_CASE("containerd 1.x refuses plugins named the version 1 way once a file says version 2, and reads cri by the last version") {
  auto read = [](int major, const std::string& main, const std::string& drop_in) {
    gd::ProbeFixture f;
    containerd_of_major(f, major);
    f.host.file("/etc/containerd/config.toml", "imports = ['/etc/containerd/conf.d/*.toml']\n" + main);
    f.host.file("/etc/containerd/conf.d/10.toml", drop_in);
    gd::ProbeNotes notes;
    auto engines = gd::read_containerd_engines(f.host, notes);
    REQUIRE(engines.size() == 1);
    return engines[0];
  };
  // Docker's containerd.io file with a version 2 drop-in.
  const auto docker = read(1, "disabled_plugins = ['cri']\n", "version = 2\n");
  CHECK(docker.refused ==
        "failed to load TOML from /etc/containerd/conf.d/10.toml: invalid disabled plugin URI \"cri\" expect io.containerd.x.vx");
  CHECK_FALSE(read(2, "disabled_plugins = ['cri']\n", "version = 2\n").refused);  // 2.x migrates version 1 files
  CHECK_FALSE(read(1, "disabled_plugins = ['cri']\n", "[plugins.cri.registry]\nconfig_path = '/x'\n").refused);  // version 1 throughout
  const auto tables = read(1, "[plugins.cri.containerd]\ndefault_runtime_name = 'nvidia'\n", "version = 2\n");
  CHECK(tables.refused == "failed to load TOML from /etc/containerd/conf.d/10.toml: invalid plugin key URI \"cri\" expect io.containerd.x.vx");
  CHECK(read(1, "", "version = 2\nrequired_plugins = ['io.containerd.grpc']\n").refused ==
        "failed to load TOML from /etc/containerd/conf.d/10.toml: invalid required plugin URI \"io.containerd.grpc\" expect io.containerd.x.vx");
  // Version 1 throughout: "cri" is what the plugin reads, and the drop-in's [plugins.cri] replaces the main file's.
  const auto v1 = read(1, "[plugins.cri.containerd]\ndefault_runtime_name = 'nvidia'\n[plugins.cri.containerd.runtimes.nvidia]\nruntime_type = 'io.containerd.runc.v2'\n",
                       "[plugins.cri.registry]\nconfig_path = '/x'\n");
  CHECK_FALSE(v1.refused);
  CHECK(v1.default_runtime == "runc");
  CHECK(v1.runtimes_dropped == std::vector<std::string>{"nvidia (/etc/containerd/config.toml)"});
}

TEST_CASE("the toolkit's config: its mode, no-cgroups, and the host ldconfig found as the toolkit normalises it") {
  auto toolkit = [](const std::string& config, bool ldconfig_real) {
    gd::ProbeFixture f;
    f.host.file("/etc/nvidia-container-runtime/config.toml", config);
    f.host.file("/sbin/ldconfig", "");
    if (ldconfig_real) f.host.file("/sbin/ldconfig.real", "");
    gd::ProbeNotes notes;
    return gd::read_toolkit_config(f.host, notes).value();
  };
  const auto defaults = toolkit("#no-cgroups = false\n", false);
  CHECK(defaults.mode == gd::ToolkitMode::auto_);
  CHECK_FALSE(defaults.no_cgroups);
  CHECK_FALSE(defaults.ldconfig_found.value);
  // .real where there is none: the toolkit runs /sbin/ldconfig instead, so it is found.
  CHECK(toolkit("[nvidia-container-cli]\nldconfig = \"@/sbin/ldconfig.real\"\n", false).ldconfig_found.value == true);
  CHECK(toolkit("[nvidia-container-cli]\nldconfig = \"@/usr/local/sbin/ldconfig\"\n", false).ldconfig_found.value == false);
  CHECK_FALSE(toolkit("[nvidia-container-cli]\nldconfig = \"/sbin/ldconfig\"\n", true).ldconfig_found.value);  // the container's own
  CHECK(toolkit("[nvidia-container-runtime]\nmode = \"jit-cdi\"\n", true).mode == gd::ToolkitMode::jit_cdi);
  const auto typo = toolkit("[nvidia-container-runtime]\nmode = \"CDI\"\n", true);
  CHECK(typo.mode == gd::ToolkitMode::invalid);
  CHECK(typo.mode_written == "CDI");
  CHECK(toolkit("[nvidia-container-runtime]\nmode = \"invalid\"\n", true).mode == gd::ToolkitMode::invalid);
  CHECK(toolkit("[nvidia-container-cli]\nno-cgroups = true\n", true).no_cgroups);
  CHECK(toolkit("[nvidia-container-cli\n", true).problem == "line 1: expected ] after the table name");
  CHECK(toolkit("[nvidia-container-runtime]\nmode = \"\"\n", true).mode == gd::ToolkitMode::invalid);
}

TEST_CASE("the toolkit in cdi mode: a spec of its default kind, in its spec directories") {
  auto found = [](const std::string& config, const std::string& spec_path, const std::string& kind) {
    gd::ProbeFixture f;
    f.host.file("/etc/nvidia-container-runtime/config.toml", "[nvidia-container-runtime]\nmode = \"cdi\"\n" + config);
    f.host.file(spec_path, "cdiVersion: 0.5.0\nkind: " + kind + "\ndevices:\n- name: all\n  containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n");
    gd::ProbeNotes notes;
    return gd::read_toolkit_config(f.host, notes).value();
  };
  CHECK(found("", "/var/run/cdi/nvidia.yaml", "nvidia.com/gpu").cdi_spec_found == true);
  CHECK(found("", "/var/run/cdi/other.yaml", "example.com/fpga").cdi_spec_found == false);
  // The GPU Operator's kind and directory.
  const auto operator_node = found("[nvidia-container-runtime.modes.cdi]\ndefault-kind = \"management.nvidia.com/gpu\"\n"
                                   "spec-dirs = [\"/var/run/cdi\"]\n",
                                   "/var/run/cdi/management.nvidia.com-gpu.yaml", "management.nvidia.com/gpu");
  CHECK(operator_node.cdi_spec_found == true);
  CHECK(operator_node.cdi_kind == "management.nvidia.com/gpu");
  CHECK(operator_node.cdi_spec_dirs == std::vector<std::string>{"/var/run/cdi"});
}

TEST_CASE("CRI-O: crio.conf, then every drop-in in filepath.Walk's order; a later runtime table replaces the whole entry") {
  gd::ProbeFixture f;
  f.host.file("/usr/bin/crio", "");
  f.host.file("/usr/libexec/crio/crun", "");
  f.host.file("/usr/bin/nvidia-container-runtime", "");
  f.host.file("/etc/crio/crio.conf", "[crio.runtime]\ndefault_runtime = \"nvidia\"\n"
                                     "[crio.runtime.runtimes.nvidia]\nruntime_path = \"/opt/old/nvidia-container-runtime\"\nruntime_type = \"oci\"\n");
  f.host.file("/etc/crio/crio.conf.d/10-crio.conf", "[crio.runtime.runtimes.crun]\nruntime_path = \"/usr/libexec/crio/crun\"\n");
  // A subdirectory is walked where its name falls: "50-site" before "99-nvidia.toml".
  f.host.file("/etc/crio/crio.conf.d/50-site/kata.conf", "[crio.runtime.runtimes.kata]\nruntime_type = \"vm\"\n");
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", "[crio]\n  [crio.runtime]\n    [crio.runtime.runtimes]\n"
                                                      "      [crio.runtime.runtimes.nvidia]\n        runtime_path = \"/usr/bin/nvidia-container-runtime\"\n"
                                                      "      [crio.runtime.runtimes.nvidia-legacy]\n        inherit_default_runtime = true\n");
  gd::ProbeNotes notes;
  const auto crio = gd::read_crio_engine(f.host, notes).value();
  CHECK(crio.installed);
  CHECK_FALSE(crio.problem);
  CHECK(crio.files == std::vector<std::string>{"/etc/crio/crio.conf", "/etc/crio/crio.conf.d/10-crio.conf",
                                               "/etc/crio/crio.conf.d/50-site/kata.conf", "/etc/crio/crio.conf.d/99-nvidia.toml"});
  CHECK(crio.default_runtime == "nvidia");
  CHECK(crio.default_runtime_defined);
  CHECK_FALSE(crio.default_runtime_without_program);
  // kata has no runtime_path: crio looks for a program called kata, and drops the runtime where there is none.
  CHECK(crio.runtimes_without_program == std::vector<std::string>{"kata (kata)"});
  REQUIRE(crio.runtimes.size() == 4);
  for (const auto& runtime : crio.runtimes) {
    CAPTURE(runtime.name);
    if (runtime.name == "nvidia") CHECK((runtime.is_default && runtime.binary == "/usr/bin/nvidia-container-runtime" && runtime.found.value == true));
    if (runtime.name == "nvidia-legacy") CHECK((runtime.binary == "/usr/bin/nvidia-container-runtime" && runtime.found.value == true));
  }

  // The toolkit removed: the written default's program is gone and crio does not start.
  f.host.files.erase("/usr/bin/nvidia-container-runtime");
  const auto removed = gd::read_crio_engine(f.host, notes).value();
  CHECK(removed.default_runtime_without_program);
  // A default that names no runtime table; crun and runc are built in.
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", "[crio.runtime]\ndefault_runtime = \"nvidia-cdi\"\n");
  CHECK_FALSE(gd::read_crio_engine(f.host, notes).value().default_runtime_defined);
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", "[crio.runtime]\ndefault_runtime = \"runc\"\n");
  CHECK(gd::read_crio_engine(f.host, notes).value().default_runtime_defined);
  // A drop-in that is not TOML stops crio, and the reading, with its name and line.
  f.host.file("/etc/crio/crio.conf.d/99-nvidia.toml", "[crio.runtime\n");
  CHECK(gd::read_crio_engine(f.host, notes).value().problem.value().starts_with("/etc/crio/crio.conf.d/99-nvidia.toml: line 1"));

  // At most 16 files are read, and the rest are named as not read.
  gd::ProbeFixture many;
  for (int i = 10; i < 40; ++i) many.host.file("/etc/crio/crio.conf.d/" + std::to_string(i) + "-site.conf", "[crio.runtime]\n");
  gd::ProbeNotes capped;
  CHECK(gd::read_crio_engine(many.host, capped).value().files.size() == 16);
  REQUIRE(capped.unreadable.size() == 1);
  CHECK(capped.unreadable[0].path == "/etc/crio/crio.conf.d/26-site.conf");

  // Neither crio nor a file of its configuration: no CRI-O.
  gd::ProbeFixture none;
  CHECK_FALSE(gd::read_crio_engine(none.host, notes));
}

TEST_CASE("rootless Docker: the user's unit that runs dockerd-rootless.sh, and its own daemon.json under XDG_CONFIG_HOME or ~/.config") {
  gd::ProbeFixture f;
  gd::ProbeNotes notes;
  CHECK_FALSE(gd::read_rootless_docker(f.host, notes));  // no HOME: no user to look at
  f.host.env_var("HOME", "/home/alice");
  CHECK_FALSE(gd::read_rootless_docker(f.host, notes));
  // A user unit called docker.service that is not the rootless daemon is not taken for it.
  f.host.file("/home/alice/.config/systemd/user/docker.service", "[Service]\nExecStart=/usr/bin/something-else\n");
  CHECK_FALSE(gd::read_rootless_docker(f.host, notes));
  // Nor one that only names it in a comment: what it runs decides.
  f.host.file("/home/alice/.config/systemd/user/docker.service", "[Service]\n# was dockerd-rootless.sh\nExecStart=/usr/bin/something-else\n");
  CHECK_FALSE(gd::read_rootless_docker(f.host, notes));
  f.host.file("/home/alice/.config/systemd/user/docker.service", "[Service]\nExecStart=/home/alice/bin/dockerd-rootless.sh\n");
  auto rootless = gd::read_rootless_docker(f.host, notes).value();
  CHECK(rootless.unit == "/home/alice/.config/systemd/user/docker.service");
  CHECK_FALSE(rootless.enabled);
  CHECK_FALSE(rootless.config);
  f.host.file("/home/alice/.config/docker/daemon.json", "{\"default-runtime\": \"nvidia\", \"runtimes\": {\"nvidia\": {\"path\": \"nvidia-container-runtime\"}}}");
  rootless = gd::read_rootless_docker(f.host, notes).value();
  CHECK(rootless.config == "/home/alice/.config/docker/daemon.json");
  CHECK(rootless.default_runtime == "nvidia");
  CHECK(rootless.default_runtime_defined);
  REQUIRE(rootless.runtimes.size() == 1);
  CHECK(rootless.runtimes[0].name == "nvidia");
  CHECK_FALSE(rootless.path);
  CHECK(rootless.runtimes[0].found.value == std::nullopt);  // a bare name, and no PATH in the unit: not judged
  // The PATH dockerd-rootless-setuptool.sh writes into the unit, a drop-in's over it: a bare name is looked for there.
  f.host.file("/home/alice/.config/systemd/user/docker.service",
              "[Service]\nEnvironment=PATH=/home/alice/bin:/sbin:/usr/sbin:/usr/bin\nExecStart=/home/alice/bin/dockerd-rootless.sh\n");
  CHECK(gd::read_rootless_docker(f.host, notes).value().runtimes[0].found.value == false);
  f.host.file("/home/alice/.config/systemd/user/docker.service.d/path.conf", "[Service]\nEnvironment=PATH=/opt/nvidia/bin:/usr/bin\n");
  f.host.file("/opt/nvidia/bin/nvidia-container-runtime", "");
  rootless = gd::read_rootless_docker(f.host, notes).value();
  CHECK(rootless.path == "/opt/nvidia/bin:/usr/bin");
  CHECK(rootless.runtimes[0].found.value == true);
  // XDG_CONFIG_HOME moves both.
  f.host.env_var("XDG_CONFIG_HOME", "/srv/alice-config");
  CHECK_FALSE(gd::read_rootless_docker(f.host, notes));
  f.host.file("/srv/alice-config/systemd/user/docker.service", "ExecStart=dockerd-rootless.sh\n");
  f.host.file("/srv/alice-config/docker/daemon.json", "{\"runtimes\": {\"nvidia\": {}}}");
  CHECK(gd::read_rootless_docker(f.host, notes).value().problem == "runtime nvidia: either a runtimeType or a path must be configured");
}

TEST_CASE("an engine's file: one not there is missing and unsaid; one there but unreadable or past 1 MiB is noted, and read by none") {
  gd::ProbeFixture f;
  gd::ProbeNotes notes;
  f.host.file("/etc/a.toml", "version = 2\n");
  f.host.file("/etc/big.toml", std::string((1 << 20) + 1, '#'));
  f.host.file("/etc/exact.toml", std::string(1 << 20, '#'));
  f.host.file("/etc/file", "");
  f.host.link("/etc/loop.toml", "/etc/loop.toml");

  CHECK(gd::read_engine_file(f.host, "/etc/a.toml", notes).text == "version = 2\n");
  CHECK(gd::read_engine_file(f.host, "/etc/exact.toml", notes).text->size() == 1 << 20);
  for (const char* absent : {"/etc/none.toml", "/etc/file/below.toml"}) {
    CAPTURE(absent);
    const auto read = gd::read_engine_file(f.host, absent, notes);
    CHECK((read.missing && !read.text));
  }
  CHECK(notes.unreadable.empty());

  for (const char* unread : {"/etc/big.toml", "/etc/loop.toml"}) {
    CAPTURE(unread);
    const auto read = gd::read_engine_file(f.host, unread, notes);
    CHECK((!read.missing && !read.text));
  }
  REQUIRE(notes.unreadable.size() == 2);
  CHECK(notes.unreadable[0].problem == "larger than 1 MiB: not read");
  CHECK(notes.unreadable[1].path == "/etc/loop.toml");
  CHECK(notes.unreadable[1].problem == "cannot read: ELOOP");
}

TEST_CASE("Docker's daemon.json that cannot be read still names Docker and its file, where dockerd is not on the PATH") {
  gd::ProbeFixture f;
  f.host.link("/etc/docker/daemon.json", "/etc/docker/daemon.json");
  gd::ProbeNotes notes;
  const auto docker = gd::read_docker_engine(f.host, notes);
  REQUIRE(docker);
  CHECK(docker->config == "/etc/docker/daemon.json");
  CHECK_FALSE(docker->installed);
  REQUIRE(notes.unreadable.size() == 1);
  CHECK(notes.unreadable[0].problem == "cannot read: ELOOP");
}

TEST_CASE("containerd and CRI-O with files gpudoctor did not read say how many, so that their runtimes are not judged") {
  gd::ProbeFixture f;
  f.host.file("/etc/containerd/config.toml", "version = 2\nimports = ['/etc/containerd/conf.d/*.toml']\n");
  for (int i = 10; i < 30; ++i) f.host.file("/etc/containerd/conf.d/" + std::to_string(i) + ".toml", "version = 2\n");
  f.host.file("/etc/crio/crio.conf.d/10-crio.conf", "[crio.runtime]\ndefault_runtime = \"nvidia\"\n");
  f.host.link("/etc/crio/crio.conf.d/99-nvidia.toml", "/etc/crio/crio.conf.d/99-nvidia.toml");  // ELOOP: not read
  gd::ProbeNotes notes;
  const auto containerd = gd::read_containerd_engines(f.host, notes);
  REQUIRE(containerd.size() == 1);
  CHECK(containerd[0].files.size() == 16);
  CHECK(containerd[0].files_not_read == 1);  // one note: the first past the cap, and the rest
  const auto crio = gd::read_crio_engine(f.host, notes);
  REQUIRE(crio);
  CHECK(crio->files_not_read == 1);
  CHECK_FALSE(crio->default_runtime_defined);  // what was read; the rules leave it unjudged
  REQUIRE(notes.unreadable.size() == 2);
  CHECK(notes.unreadable[1].problem == "cannot read: ELOOP");

  gd::ProbeFixture whole;
  whole.host.file("/etc/containerd/config.toml", "version = 2\n");
  gd::ProbeNotes quiet;
  CHECK_FALSE(gd::read_containerd_engines(whole.host, quiet).at(0).files_not_read);
}

TEST_CASE("the toolkit's config that cannot be read is there, unread, and its defaults are marked as such") {
  gd::ProbeFixture f;
  f.host.link("/etc/nvidia-container-runtime/config.toml", "/etc/nvidia-container-runtime/config.toml");
  gd::ProbeNotes notes;
  const auto toolkit = gd::read_toolkit_config(f.host, notes);
  REQUIRE(toolkit);
  CHECK(toolkit->unread == true);
  CHECK(notes.unreadable.size() == 1);

  gd::ProbeFixture readable;
  readable.host.file("/etc/nvidia-container-runtime/config.toml", "[nvidia-container-runtime]\nmode = \"cdi\"\n");
  for (int i = 0; i < 4100; ++i) readable.host.file("/etc/cdi/vendor-" + std::to_string(10000 + i) + ".yaml", "kind: example.com/x\n");
  gd::ProbeNotes capped;
  const auto cdi = gd::read_toolkit_config(readable.host, capped);
  REQUIRE(cdi);
  CHECK_FALSE(cdi->unread);
  CHECK_FALSE(cdi->cdi_spec_found);  // more specs than a look reads: unknown, not false
}
