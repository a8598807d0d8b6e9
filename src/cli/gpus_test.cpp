// `gpudoctor gpus` on the testdata snapshots: each row from the best source
// that answered, and the formats people paste or parse.

#include "check/run_check.h"
#include "snapshot/replay_host.h"
#include "report/gpu_table.h"
#include "rules/rule_set.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace gd {
namespace {

std::vector<GpuRow> rows_of(const std::string& scenario) {
  ReplayHost host(std::string(GPUDOCTOR_SCENARIOS) + "/" + scenario);
  return run_check(host, load_embedded_rules()).gpus;
}

}  // namespace

TEST_CASE("gpus: an HGX server's eight GPUs from NVML, with health and the driver") {
  const auto rows = rows_of("host-hgx-8gpu-nvswitch");
  REQUIRE(rows.size() == 8);
  CHECK(rows[7].index == 7);
  CHECK(rows[7].bus_id == "00000000:DB:00.0");
  CHECK(rows[7].uuid == "GPU-00000000-0000-0000-0000-000000000007");
  CHECK(rows[7].compute_capability == "9.0");
  CHECK(rows[7].driver == "550.90.07");
  CHECK(rows[7].memory_total_mib == 81559);
  CHECK(rows[7].power_limit_w == 700.0);
  CHECK(rows[7].source == "nvml");
}

TEST_CASE("gpus: MIG mode and WSL2, where PCI shows no NVIDIA GPU but the driver answers") {
  const auto mig = rows_of("host-mig-enabled");
  REQUIRE(mig.size() == 1);
  CHECK(mig[0].mig == "Enabled (2 devices)");
  const auto wsl = rows_of("wsl2-healthy");
  REQUIRE(wsl.size() == 1);
  CHECK(wsl[0].name == "NVIDIA GeForce RTX 4070");
  CHECK(wsl[0].compute_capability == "8.9");
  CHECK(wsl[0].driver == "572.16");
  CHECK(wsl[0].memory_used_mib == 1210);
}

TEST_CASE("gpus: without NVML, nvidia-smi; without either, libcuda; without any answer, the files") {
  const auto smi = rows_of("host-nvidia-smi-old-driver-fields");
  REQUIRE(smi.size() == 1);
  CHECK(smi[0].source == "nvidia-smi");
  CHECK(smi[0].driver == "470.256.02");
  CHECK(smi[0].compute_capability.empty());  // drivers before 510 do not say
  const auto cuda = rows_of("vm-pci-hidden-cuda-works");
  REQUIRE(cuda.size() == 1);
  CHECK(cuda[0].source == "cuda");
  const auto files = rows_of("host-gpu-node-missing");
  REQUIRE(files.size() == 2);
  CHECK(files[1].source == "files");
  CHECK(files[1].bus_id == "0000:3b:00.0");
  CHECK(files[1].uuid == "GPU-00000000-0000-0000-0000-000000000001");
  CHECK(files[1].compute_capability == "9.0");
  CHECK(rows_of("host-no-gpu").empty());
}

TEST_CASE("gpus: csv quotes what needs quoting, json is one document") {
  GpuRow row;
  row.index = 0;
  row.name = "Board, \"special\"";
  row.source = "files";
  const std::string csv = render_gpus_csv({row});
  CHECK(csv.find("\n0,\"Board, \"\"special\"\"\",") != std::string::npos);
  const auto json = boost::json::parse(render_gpus_json({row}));
  CHECK(json.at("schema") == "gpudoctor-gpus/1");
  CHECK(json.at("gpus").at(0).at("name") == "Board, \"special\"");
  CHECK(json.at("gpus").at(0).at("memory_total_mib").is_null());
}

TEST_CASE("gpus: a cell a spreadsheet would run as a formula is text (OWASP CSV injection)") {
  for (const std::string hostile : {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTAB"}) {
    GpuRow row;
    row.index = 0;
    row.name = hostile;
    row.source = "files";
    const std::string csv = render_gpus_csv({row});
    const auto line = csv.substr(csv.find('\n') + 1);
    CAPTURE(line);
    CHECK(line.starts_with("0,\"'"));
  }
}

TEST_CASE("gpus --watch: readings as a log, a time column and one header in CSV, one JSON line per reading") {
  const auto rows = rows_of("host-hgx-8gpu-nvswitch");
  const std::string first = render_gpus_csv(rows, {"2026-12-02T19:30:00Z", true});
  const std::string next = render_gpus_csv(rows, {"2026-12-02T19:30:05Z", false});
  CHECK(first.starts_with("time,index,name,"));
  CHECK(first.find("\n2026-12-02T19:30:00Z,7,") != std::string::npos);
  CHECK(std::count(first.begin(), first.end(), '\n') == 9);  // the header and a line per GPU
  CHECK(next.starts_with("2026-12-02T19:30:05Z,0,"));
  CHECK(next.find("index,name") == std::string::npos);
  CHECK(std::count(next.begin(), next.end(), '\n') == 8);
  const std::string line = render_gpus_json(rows, {"2026-12-02T19:30:00Z", true});
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  const auto json = boost::json::parse(line);
  CHECK(json.at("time") == "2026-12-02T19:30:00Z");
  CHECK(json.at("gpus").as_array().size() == 8);
}

}  // namespace gd
