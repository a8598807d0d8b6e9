#include "formats/toml_config.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using gd::read_toml;
using gd::TomlPath;

TEST_CASE("TOML: containerd's tables, quoted keys and values are read under their whole key path") {
  const auto document = read_toml(R"(version = 2
imports = ["/etc/containerd/conf.d/*.toml",   # a drop-in
           '/etc/other.toml',]

[plugins."io.containerd.grpc.v1.cri".containerd]
  default_runtime_name = "nvidia"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
    runtime_type = "io.containerd.runc.v2"
    privileged_without_host_devices = false
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
      BinaryName = "/usr/bin/nvidia-container-runtime"
      SystemdCgroup = true
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    options = { SystemdCgroup = true, BinaryName = "" }
)");
  REQUIRE(document);
  const TomlPath cri = {"plugins", "io.containerd.grpc.v1.cri", "containerd"};
  CHECK(document->integer({"version"}) == 2);
  REQUIRE(document->find({"imports"}));
  CHECK(document->find({"imports"})->strings == std::vector<std::string>{"/etc/containerd/conf.d/*.toml", "/etc/other.toml"});
  CHECK(document->string({"plugins", "io.containerd.grpc.v1.cri", "containerd", "default_runtime_name"}) == "nvidia");
  CHECK(document->tables_below({"plugins", "io.containerd.grpc.v1.cri", "containerd", "runtimes"}) ==
        std::vector<std::string>{"nvidia", "runc"});
  CHECK(document->string({"plugins", "io.containerd.grpc.v1.cri", "containerd", "runtimes", "nvidia", "options", "BinaryName"}) ==
        "/usr/bin/nvidia-container-runtime");
  CHECK(document->boolean({"plugins", "io.containerd.grpc.v1.cri", "containerd", "runtimes", "runc", "options", "SystemdCgroup"}) == true);
  CHECK(document->string({"plugins", "io.containerd.grpc.v1.cri", "containerd", "runtimes", "runc", "options", "BinaryName"}) == "");
  // A value is not a table, and a missing path is nothing.
  CHECK(document->tables_below(cri).size() == 1);
  CHECK_FALSE(document->string({"version"}));
  CHECK_FALSE(document->find({"plugins", "none"}));
}

TEST_CASE("TOML: the toolkit's config, with dotted keys, escapes, literal and multi-line strings") {
  const auto document = read_toml("disable-require = false\n"
                                  "#swarm-resource = \"DOCKER_RESOURCE_GPU\"\n"
                                  "[nvidia-container-cli]\n"
                                  "ldconfig = \"@/sbin/ldconfig.real\"\n"
                                  "no-cgroups = true\r\n"
                                  "path = 'C:\\no\\escapes'\n"
                                  "user = \"root:\\u0076ideo\"\n"
                                  "[nvidia-container-runtime]\n"
                                  "mode = \"auto\"\n"
                                  "runtimes = [\"docker-runc\", \"runc\", \"crun\"]\n"
                                  "modes.cdi.default-kind = \"nvidia.com/gpu\"\n"
                                  "note = \"\"\"\nfirst \\\n   second\"\"\"\n"
                                  "raw = '''\nkept \\ as is'''\n"
                                  "limit = 1_000\nhex = 0xff\nratio = 0.5\nwhen = 1979-05-27 07:32:00Z\nlist = [[1, 2], [\"a\"]]\n");
  REQUIRE(document);
  CHECK(document->boolean({"disable-require"}) == false);
  CHECK(document->boolean({"nvidia-container-cli", "no-cgroups"}) == true);
  CHECK(document->string({"nvidia-container-cli", "ldconfig"}) == "@/sbin/ldconfig.real");
  CHECK(document->string({"nvidia-container-cli", "path"}) == "C:\\no\\escapes");
  CHECK(document->string({"nvidia-container-cli", "user"}) == "root:video");
  CHECK(document->string({"nvidia-container-runtime", "modes", "cdi", "default-kind"}) == "nvidia.com/gpu");
  CHECK(document->tables_below({"nvidia-container-runtime"}) == std::vector<std::string>{"modes"});
  CHECK(document->string({"nvidia-container-runtime", "note"}) == "first second");
  CHECK(document->string({"nvidia-container-runtime", "raw"}) == "kept \\ as is");
  CHECK(document->integer({"nvidia-container-runtime", "limit"}) == 1000);
  CHECK(document->integer({"nvidia-container-runtime", "hex"}) == 255);
  CHECK(document->find({"nvidia-container-runtime", "ratio"})->kind == gd::TomlValue::Kind::other);
  CHECK(document->find({"nvidia-container-runtime", "when"})->text == "1979-05-27 07:32:00Z");
  CHECK(document->find({"nvidia-container-runtime", "runtimes"})->strings.size() == 3);
}

TEST_CASE("TOML: a byte order mark, dates and the whole range of integers are TOML") {
  const auto document = read_toml("\xEF\xBB\xBFversion = 2\nday = 1979-05-27\nlow = -9223372036854775808\nhigh = 9223372036854775807\n");
  REQUIRE(document);
  CHECK(document->integer({"version"}) == 2);
  CHECK(document->find({"day"})->kind == gd::TomlValue::Kind::other);
  CHECK(document->integer({"low"}) == INT64_MIN);
  CHECK(document->integer({"high"}) == INT64_MAX);
  CHECK(read_toml("x = 9223372036854775808\n").error() == "line 1: an integer out of range: 9223372036854775808");
}

TEST_CASE("TOML: an imported file's values go over the main file's") {
  auto main = read_toml("[a]\nx = 1\ny = \"kept\"\n");
  const auto drop_in = read_toml("[a]\nx = 2\n[a.b]\n");
  REQUIRE(main);
  REQUIRE(drop_in);
  main->merge(*drop_in);
  CHECK(main->integer({"a", "x"}) == 2);
  CHECK(main->string({"a", "y"}) == "kept");
  CHECK(main->tables_below({"a"}) == std::vector<std::string>{"b"});
}

TEST_CASE("TOML: what is not TOML is refused with its line, and the bounds hold") {
  CHECK(read_toml("a = 1\n[plugins\n").error() == "line 2: expected ] after the table name");
  CHECK(read_toml("a = \"open\n").error() == "line 1: a string without its closing \"");
  CHECK(read_toml("a = 1 b\n").error() == "line 1: unexpected text after a value");
  CHECK(read_toml("a\n").error() == "line 1: expected = after a key");
  CHECK(read_toml("a = yes\n").error() == "line 1: not a value: yes");
  CHECK(read_toml("a = \"\\q\"\n").error() == "line 1: an unknown escape in a string");
  CHECK(read_toml("a = \"\"\"never closed\n\n").error() == "line 3: a multi-line string without its closing \"\"\"");
  CHECK(read_toml("a = [1, 2\nb = 3\n").error() == "line 2: expected , or ] in an array");
  CHECK(read_toml("a = [[[[1]]]]\n", {.max_keys = 10, .max_nesting = 3}).error() == "line 1: arrays or inline tables nested more than 3 deep");
  CHECK(read_toml("a = 1\nb = 2\nc = 3\n", {.max_keys = 2, .max_nesting = 3}).error() == "line 3: more than 2 keys");
  CHECK(read_toml("a = [1, 2, 3]\n", {.max_keys = 2, .max_nesting = 3}).error() == "line 1: an array of more than 2 items");
  CHECK(read_toml("a = 99999999999999999999\n").error() == "line 1: an integer out of range: 99999999999999999999");
  const std::string long_header = "[" + std::string(1100, 'k') + "]\n";
  CHECK(read_toml(long_header).error() == "line 1: a key longer than 1024 bytes");
  std::string deep = "a";
  for (int i = 0; i < 40; ++i) deep += ".a";
  CHECK(read_toml(deep + " = 1\n").error() == "line 1: a key of more than 32 parts");
  // Empty and comment-only files are documents without keys.
  CHECK(read_toml("")->size() == 0);
  CHECK(read_toml("# only\n\n")->size() == 0);
}
