#include "child/crio_config_child.h"

#include <doctest/doctest.h>

#include <string>

namespace {

// Part of what crio 1.33 answers GET /config, as BurntSushi/toml encodes its
// tomlConfig: tables indented under their parents, arrays on one line.
constexpr std::string_view k_answer = R"([crio]
  root = "/var/lib/containers/storage"
  runroot = "/run/containers/storage"
  log_dir = "/var/log/crio/pods"
  [crio.api]
    listen = "/var/run/crio/crio.sock"
    stream_address = "127.0.0.1"
  [crio.runtime]
    default_runtime = "nvidia"
    default_env = ["HTTPS_PROXY=http://builder:s3cret@proxy.corp:3128"]
    conmon_env = []
    hooks_dir = ["/usr/share/containers/oci/hooks.d"]
    [crio.runtime.runtimes]
      [crio.runtime.runtimes.crun]
        runtime_config_path = ""
        runtime_path = "/usr/libexec/crio/crun"
        runtime_type = "oci"
        runtime_root = "/run/crun"
        allowed_annotations = ["io.containers.trace-syscall"]
        monitor_path = "/usr/libexec/crio/conmon"
      [crio.runtime.runtimes.nvidia]
        runtime_path = "/usr/bin/nvidia-container-runtime"
        runtime_type = "oci"
        monitor_env = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
        [crio.runtime.runtimes.nvidia.platform_runtime_paths]
          "linux/arm64" = "/usr/bin/nvidia-container-runtime"
    [crio.runtime.workloads]
      [crio.runtime.workloads.management]
        runtime_path = "/not/a/runtime"
  [crio.image]
    default_transport = "docker://"
    global_auth_file = "/etc/crio/auth.json"
    pause_image = "registry.k8s.io/pause:3.10"
)";

}  // namespace

TEST_CASE("GET /config's lines gpudoctor reads: the default runtime and each runtime's program, nothing else") {
  const auto lines = gd::crio_config_lines(k_answer);
  REQUIRE(lines);
  CHECK(*lines ==
        "[crio.runtime]\n"
        "default_runtime = \"nvidia\"\n"
        "[crio.runtime.runtimes.crun]\n"
        "runtime_path = \"/usr/libexec/crio/crun\"\n"
        "runtime_type = \"oci\"\n"
        "[crio.runtime.runtimes.nvidia]\n"
        "runtime_path = \"/usr/bin/nvidia-container-runtime\"\n"
        "runtime_type = \"oci\"\n"
        "[crio.runtime.runtimes.nvidia.platform_runtime_paths]\n");
  CHECK(lines->find("s3cret") == std::string::npos);
  // Not CRI-O's configuration: no [crio.runtime] table.
  CHECK_FALSE(gd::crio_config_lines("<html><body>404 page not found</body></html>\n"));
  CHECK_FALSE(gd::crio_config_lines("[crio.runtime.runtimes.x]\nruntime_path = \"/x\"\n"));
  CHECK_FALSE(gd::crio_config_lines(""));
  // A table header left open is not a table.
  CHECK(gd::crio_config_lines("[crio.runtime]\n[crio.runtime.runtimes.x\nruntime_path = \"/x\"\n") == "[crio.runtime]\n");
}
