#include "tables/driver_installers.h"
#include "rules/rule_set.h"

#include <doctest/doctest.h>

TEST_CASE("globs: '*' matches any run, the rest literally, the whole word") {
  CHECK(gd::glob_matches("nvidia-driver-*", "nvidia-driver-550"));
  CHECK_FALSE(gd::glob_matches("nvidia-driver-*", "nvidia-driver"));
  CHECK(gd::glob_matches("*cuda_*_linux*.run", "./cuda_12.4.0_550.54.14_linux.run"));
  CHECK_FALSE(gd::glob_matches("cuda-1*-*", "cuda-toolkit-12-4"));
  CHECK_FALSE(gd::glob_matches("cuda-1*-*", "cuda-compat-12-4"));
  CHECK(gd::glob_matches("cuda-1*-*", "cuda-12-4"));
  CHECK(gd::glob_matches("*", ""));
  CHECK_FALSE(gd::glob_matches("a*b*c", std::string(10000, 'a') + "b"));  // no recursion, no blow-up
}

TEST_CASE("the embedded table names the driver packages of every distribution, and no toolkit package") {
  const auto rules = gd::load_embedded_rules();
  for (const char* driver : {"nvidia-driver-550", "nvidia-driver-550=550.54.15-0ubuntu1", "nvidia-driver:latest-dkms", "cuda-drivers",
                             "cuda-drivers-550", "libnvidia-compute-535", "nvidia-utils-535-server", "nvidia-headless-535-server",
                             "nvidia-headless-no-dkms-550-open", "xorg-x11-drv-nvidia-cuda", "akmod-nvidia", "kmod-nvidia-open-dkms",
                             "libcuda1", "nvidia-smi", "nvidia-compute-G06", "cuda", "cuda-12-4", "nvidia-open"}) {
    CAPTURE(driver);
    CHECK(rules.tables.installers.package(driver) != nullptr);
  }
  for (const char* toolkit : {"cuda-toolkit-12-4", "cuda-toolkit", "cuda-compat-12-4", "cuda-libraries-12-4", "cuda-nvcc-12-4",
                              "nvidia-container-toolkit", "libcudnn9-cuda-12", "python3-pip", "libnccl2"}) {
    CAPTURE(toolkit);
    CHECK(rules.tables.installers.package(toolkit) == nullptr);
  }
}

TEST_CASE("installers: the word, a required companion, and an exemption that a flag undoes") {
  const auto rules = gd::load_embedded_rules();
  const auto installer = [&](std::vector<std::string_view> words) { return rules.tables.installers.installer(words); };
  CHECK(installer({"sh", "NVIDIA-Linux-x86_64-550.54.15.run", "--silent"}) != nullptr);
  CHECK(installer({"sh", "cuda_12.4.0_550.54.14_linux.run", "--silent"}) != nullptr);
  CHECK(installer({"sh", "cuda_12.4.0_550.54.14_linux.run", "--silent", "--toolkit"}) == nullptr);
  CHECK(installer({"sh", "cuda_12.4.0_550.54.14_linux.run", "--silent", "--toolkit", "--driver"}) != nullptr);
  CHECK(installer({"ubuntu-drivers", "install", "--gpgpu"}) != nullptr);
  CHECK(installer({"ubuntu-drivers", "list"}) == nullptr);
  CHECK(installer({"python3", "cuda_installer.pyz", "install_driver"}) != nullptr);
  CHECK(installer({"curl", "-fsSL", "https://lambdalabs.com/install-lambda-stack.sh"}) != nullptr);
  CHECK(installer({"dkms", "install", "nvidia/550.54.15"}) != nullptr);
  CHECK(installer({"dkms", "status"}) == nullptr);
}

TEST_CASE("a table row without its source, or with a malformed 'instead', is refused at load") {
  gd::DriverInstallerTable table;
  const auto no_source = boost::json::parse(R"({"packages": [{"name": "x", "match": ["x*"]}], "installers": []})").as_object();
  CHECK(table.load(no_source).error().find("source") != std::string::npos);
  const auto bad_instead = boost::json::parse(
      R"({"packages": [{"name": "x", "match": ["x*"], "source": "s", "instead": ["only one"]}], "installers": []})").as_object();
  CHECK(table.load(bad_instead).error().find("instead") != std::string::npos);
}
