// nvidia-smi through the real child runner, with fake nvidia-smi scripts:
// the answer always comes, within the deadline, and says what happened.

#include "probes/nvidia_smi.h"

#include "host/live_host.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>

using namespace std::chrono_literals;

namespace {

std::string fake_smi(const gd::TempDir& dir, const std::string& name, const std::string& body) {
  dir.write(name, "#!/bin/sh\n" + body + "\n");
  const std::string path = dir / name;
  ::chmod(path.c_str(), 0755);
  return path;
}

}  // namespace

TEST_CASE("nvidia-smi: four GPUs, [N/A] fields, and one driver version") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto smi = fake_smi(dir, "four", R"(if [ $# -eq 0 ]; then
  echo '+-----------------------------------------------------------------------------------------+'
  echo '| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |'
  exit 0
fi
cat <<'CSV'
0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-aaaa, 00000000:1B:00.0, 9.0, 81559, 10, Disabled, Enabled, Default
1, 550.54.15, NVIDIA H100 80GB HBM3, GPU-bbbb, 00000000:43:00.0, 9.0, 81559, [N/A], [Not Supported], Enabled, Default
2, 550.54.15, NVIDIA H100 80GB HBM3, GPU-cccc, 00000000:52:00.0, 9.0, 81559, 0, Enabled, Enabled, Exclusive_Process
3, 550.54.15, NVIDIA H100 80GB HBM3, GPU-dddd, 00000000:61:00.0, 9.0, 81559, 0, Disabled, Disabled, Default
CSV)");
  const auto facts = gd::run_nvidia_smi(host, smi);
  CHECK(facts.status == gd::ChildStatus::ok);
  REQUIRE(facts.gpus.size() == 4);
  CHECK(facts.gpus[1].bus_id == "00000000:43:00.0");
  CHECK_FALSE(facts.gpus[1].memory_used_mib);
  CHECK_FALSE(facts.gpus[1].mig_mode);
  CHECK(facts.gpus[2].compute_mode == gd::ComputeMode::Exclusive_Process);
  CHECK(facts.driver_version == "550.54.15");
  CHECK(facts.cuda_version == "12.4");  // from the banner of plain nvidia-smi
  CHECK(facts.driver_versions_agree);
}

TEST_CASE("nvidia-smi's banner: the CUDA version in old and new layouts, and none where there is none") {
  CHECK(gd::cuda_version_in_header("| NVIDIA-SMI 580.65.06   Driver Version: 580.65.06   CUDA Version: 13.0     |") == "13.0");
  CHECK(gd::cuda_version_in_header("| NVIDIA-SMI 410.48                 Driver Version: 410.48       CUDA Version: 10.0     |") == "10.0");
  CHECK_FALSE(gd::cuda_version_in_header("| NVIDIA-SMI 396.26                 Driver Version: 396.26                    |"));
  CHECK_FALSE(gd::cuda_version_in_header("CUDA Version: N/A"));
}

TEST_CASE("nvidia-smi: lines that disagree about the driver") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto smi = fake_smi(dir, "disagree", "echo '0, 550.54.15, A, GPU-a, 0:1:0.0, 9.0, 1, 0, Disabled, Enabled, Default'; "
                                             "echo '1, 550.54.14, B, GPU-b, 0:2:0.0, 9.0, 1, 0, Disabled, Enabled, Default'");
  CHECK_FALSE(gd::run_nvidia_smi(host, smi).driver_versions_agree);
}

TEST_CASE("nvidia-smi: a line without one value per field asked is no GPU's (a wrapper's notice with a comma)") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto smi = fake_smi(dir, "wrapper", "echo '0, 550.54.15, A, GPU-a, 0:1:0.0, 9.0, 1, 0, Disabled, Enabled, Default'; "
                                            "echo 'this module is deprecated, load cuda/12 instead'");
  const auto facts = gd::run_nvidia_smi(host, smi);
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].name == "A");
  CHECK(facts.driver_versions_agree);
}

TEST_CASE("nvidia-smi: a hang is stopped at the deadline, a crash names its signal, failures keep their message") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto start = std::chrono::steady_clock::now();
  const auto hung = gd::run_nvidia_smi(host, fake_smi(dir, "hang", "sleep 30"), 300ms);
  CHECK(hung.status == gd::ChildStatus::timed_out);
  CHECK(std::chrono::steady_clock::now() - start < 5s);

  const auto crashed = gd::run_nvidia_smi(host, fake_smi(dir, "crash", "kill -SEGV $$"));
  CHECK(crashed.status == gd::ChildStatus::crashed);
  CHECK(crashed.signal == 11);

  const auto no_driver = gd::run_nvidia_smi(
      host, fake_smi(dir, "nodriver", "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                                      "Make sure that the latest NVIDIA driver is installed and running.\"; exit 9"));
  CHECK(no_driver.status == gd::ChildStatus::no_driver);
  CHECK(no_driver.message.value().starts_with("NVIDIA-SMI has failed"));

  const auto mismatch = gd::run_nvidia_smi(
      host, fake_smi(dir, "mismatch", "echo 'Failed to initialize NVML: Driver/library version mismatch'; exit 18"));
  CHECK(mismatch.status == gd::ChildStatus::version_mismatch);

  CHECK(gd::run_nvidia_smi(host, dir / "missing").status == gd::ChildStatus::cannot_start);
}

TEST_CASE("nvidia-smi: an old driver without compute_cap is asked again without it") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto smi = fake_smi(dir, "old", R"(case "$1" in
  *compute_cap*) echo 'Field "compute_cap" is not a valid field to query.'; exit 2;;
  *) echo '0, 470.256.02, NVIDIA A100-SXM4-40GB, GPU-a, 00000000:1B:00.0, 40536, 0, [N/A], Enabled, Default';;
esac)");
  const auto facts = gd::run_nvidia_smi(host, smi);
  CHECK(facts.status == gd::ChildStatus::ok);
  REQUIRE(facts.gpus.size() == 1);
  CHECK_FALSE(facts.gpus[0].compute_capability);
  CHECK(facts.gpus[0].memory_total_mib == 40536);
  CHECK(facts.gpus[0].compute_mode == gd::ComputeMode::Default);
}

TEST_CASE("nvidia-smi: a GPU it cannot reach is named with its reason; the others still answer") {
  gd::TempDir dir;
  gd::LiveHost host;
  const auto smi = fake_smi(dir, "lost", R"(case "$1" in
  --query-gpu*) echo '0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-a, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default'
     echo 'Unable to determine the device handle for GPU0000:2A:00.0: Unknown Error'; exit 15;;
esac)");
  const auto facts = gd::run_nvidia_smi(host, smi);
  CHECK(facts.status == gd::ChildStatus::failed);
  REQUIRE(facts.lost_gpus.size() == 1);
  CHECK(facts.lost_gpus[0].bus_id == "0000:2A:00.0");
  CHECK(facts.lost_gpus[0].reason == "Unknown Error");
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].bus_id == "00000000:1B:00.0");
}

TEST_CASE("nvidia-smi: lost-GPU lines, as the driver prints them") {
  const auto spaced = gd::parse_lost_gpu_line("Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error");
  REQUIRE(spaced);
  CHECK(spaced->bus_id == "0000:0B:00.0");
  CHECK(spaced->reason == "Unknown Error");
  const auto lost = gd::parse_lost_gpu_line(
      "Unable to determine the device handle for GPU00000000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU");
  REQUIRE(lost);
  CHECK(lost->bus_id == "00000000:3B:00.0");
  CHECK(lost->reason == "GPU is lost.  Reboot the system to recover this GPU");
  CHECK_FALSE(gd::parse_lost_gpu_line("0, 550.54.15, NVIDIA H100, GPU-a, 00000000:1B:00.0, 9.0"));
  CHECK_FALSE(gd::parse_lost_gpu_line("GPU is lost"));  // no address: nothing to name
  CHECK(gd::sysfs_pci_address("00000000:3B:00.0") == "0000:3b:00.0");
  CHECK(gd::sysfs_pci_address("0000:0B:00.0") == "0000:0b:00.0");
  CHECK(gd::sysfs_pci_address("00000001:3B:00.0") == "0001:3b:00.0");  // domain 1, as sysfs writes it
  CHECK(gd::sysfs_pci_address("12345678:3B:00.0") == "12345678:3b:00.0");  // a domain that does not fit stays
}

TEST_CASE("nvidia-smi: the banner's versions, before and from R610") {
  const auto old = gd::parse_banner(
      "| NVIDIA-SMI 535.183.01             Driver Version: 550.54.15      CUDA Version: 12.4     |\n");
  CHECK(old.own_version == "535.183.01");
  CHECK(old.driver_version == "550.54.15");
  CHECK(old.cuda_version == "12.4");
  const auto r610 = gd::parse_banner(
      "| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02      CUDA UMD Version: 13.3   |\n");
  CHECK(r610.own_version == "610.43.02");
  CHECK(r610.driver_version == "610.43.02");
  CHECK(r610.cuda_version == "13.3");
  CHECK_FALSE(gd::parse_banner("garbage").own_version);
}

TEST_CASE("nvidia-smi --version: its three versions, the R610 names, and nothing from what it is not") {
  const auto versions = gd::parse_version_answer(
      "NVIDIA-SMI version  : 580.159.03\nNVML version        : 595.71\nDRIVER version      : 595.71.05\nCUDA Version        : 13.0\n");
  REQUIRE(versions);
  CHECK(versions->own_version == "580.159.03");
  CHECK(versions->driver_version == "595.71.05");
  CHECK(versions->cuda_version == "13.0");
  const auto r610 = gd::parse_version_answer("NVIDIA-SMI version : 610.43.02\nKMD version : 610.43.02\nCUDA UMD Version : 13.3\n");
  REQUIRE(r610);
  CHECK(r610->cuda_version == "13.3");
  // An old nvidia-smi prints its usage instead; a query's CSV is no answer either.
  CHECK_FALSE(gd::parse_version_answer("NVIDIA System Management Interface -- v384.130\n\nNVSMI provides monitoring information\n"));
  CHECK_FALSE(gd::parse_version_answer("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-aaaa, 00000000:1B:00.0, 9.0\n"));
  CHECK_FALSE(gd::parse_version_answer("NVIDIA-SMI version  : 580.95.05\nCUDA Version        : 13.0\n"));  // no driver line
}

TEST_CASE("nvidia-smi: its versions come from --version, and the slow banner is asked only where that does not answer") {
  gd::TempDir dir;
  gd::LiveHost host;
  const std::string banner_asked = dir / "banner-asked";
  const auto smi = fake_smi(dir, "modern", R"(case "$1" in
--version) printf 'NVIDIA-SMI version  : 580.95.05\nNVML version        : 580.95\nDRIVER version      : 580.95.05\nCUDA Version        : 13.0\n' ;;
"") touch )" + banner_asked + R"(; echo '| NVIDIA-SMI 580.95.05   Driver Version: 580.95.05   CUDA Version: 13.0 |' ;;
*) echo '0, 580.95.05, NVIDIA H200, GPU-aaaa, 00000000:06:00.0, 9.0, 143771, 0, Disabled, Enabled, Default' ;;
esac)");
  const auto facts = gd::run_nvidia_smi(host, smi);
  CHECK(facts.status == gd::ChildStatus::ok);
  CHECK(facts.cuda_version == "13.0");
  CHECK(facts.own_version == "580.95.05");
  CHECK(facts.banner_driver_version == "580.95.05");
  CHECK_FALSE(std::filesystem::exists(banner_asked));
}

TEST_CASE("nvidia-smi --query-compute-apps: commas in a name, [N/A] memory, junk and other GPUs' lines") {
  gd::NvidiaSmiFacts facts;
  facts.gpus.resize(2);
  facts.gpus[0].bus_id = "00000000:1B:00.0";
  facts.gpus[1].bus_id = "00000000:3B:00.0";
  std::string csv = "00000000:1B:00.0, 4242, /opt/my, odd/python3, 30012\n"
                    "00000000:1B:00.0, 4243, python3, [N/A]\n"
                    "junk without fields\n"
                    "00000000:1B:00.0, not-a-pid, x, 1\n"
                    "00000000:9A:00.0, 17, elsewhere, 5\n";
  for (int i = 0; i < 20; ++i) csv += "00000000:3B:00.0, " + std::to_string(100 + i) + ", w\x1b[2J, 1\n";
  gd::add_compute_apps(csv, facts);
  REQUIRE(facts.gpus[0].process_list);
  CHECK(facts.gpus[0].processes == 2);
  CHECK(facts.gpus[0].process_list->at(0).name == "/opt/my, odd/python3");
  CHECK(facts.gpus[0].process_list->at(0).used_mib == 30012);
  CHECK_FALSE(facts.gpus[0].process_list->at(1).used_mib);
  CHECK(facts.gpus[1].processes == 20);  // all counted, 16 listed
  CHECK(facts.gpus[1].process_list->size() == 16);
  CHECK(facts.gpus[1].process_list->at(0).name->find('\x1b') == std::string::npos);  // escaped as read
}
