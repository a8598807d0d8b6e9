// The tables of rules/ must agree with themselves: each sorted the way it
// is read, no PCI range overlapping another, and every host branch that the
// forward-compatibility matrix names known to the branch table.

#include "tables/cuda_tables.h"
#include "rules/embedded_rules.h"
#include "rules/rule_set.h"
#include "util/json_fields.h"
#include "util/version.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace json = boost::json;

TEST_CASE("cuda-drivers: toolkits and branches ascend, drivers ascend with them") {
  const auto rules = gd::load_embedded_rules();
  REQUIRE_FALSE(rules.tables.cuda.toolkits().empty());
  for (std::size_t i = 1; i < rules.tables.cuda.toolkits().size(); ++i) {
    const auto& before = rules.tables.cuda.toolkits()[i - 1];
    const auto& row = rules.tables.cuda.toolkits()[i];
    CHECK(before.cuda < row.cuda);
    CHECK(before.linux_min < row.linux_min);
  }
  for (std::size_t i = 1; i < rules.tables.cuda.branches().size(); ++i) {
    CHECK(rules.tables.cuda.branches()[i - 1].branch < rules.tables.cuda.branches()[i].branch);
    CHECK(rules.tables.cuda.branches()[i - 1].cuda < rules.tables.cuda.branches()[i].cuda);
  }
}

TEST_CASE("forward-compat: every host branch is a known branch, every package a known CUDA") {
  const auto rules = gd::load_embedded_rules();
  std::set<int> branches;
  std::set<std::string> cudas;
  for (const auto& row : rules.tables.cuda.branches()) {
    branches.insert(row.branch);
    cudas.insert(row.cuda.text());
  }
  REQUIRE_FALSE(rules.tables.cuda.forward_compat().empty());
  for (const auto& row : rules.tables.cuda.forward_compat()) {
    CAPTURE(row.cuda.text());
    CHECK(cudas.count(row.cuda.text()) == 1);
    for (int host : row.hosts) CHECK(branches.count(host) == 1);
  }
}

TEST_CASE("pci-chips: no two ranges overlap, and lookups agree with the table") {
  const auto rules = gd::load_embedded_rules();
  std::ifstream in(std::string(GPUDOCTOR_SOURCE) + "/rules/tables/pci-chips.json");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  const json::value document = json::parse(text.str());  // kept alive: the loop walks into it
  for (const auto& row : document.at("rows").as_array())
    ranges.emplace_back(std::stoul(std::string(row.at("first").as_string()), nullptr, 16),
                        std::stoul(std::string(row.at("last").as_string()), nullptr, 16));
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i) CHECK_MESSAGE(ranges[i].first > ranges[i - 1].second, std::hex << ranges[i].first);
  CHECK(rules.tables.chips.lookup(0x2330)->chip == "GH100");
}

TEST_CASE("pci-chips products: brand and class by device id, whatever pci.ids the machine has") {
  const auto rules = gd::load_embedded_rules();
  CHECK(rules.tables.chips.product(0x2330)->brand == gd::GpuBrand::tesla);  // H100 SXM5
  CHECK(rules.tables.chips.product(0x2330)->product_class == gd::ProductClass::datacenter);
  CHECK(rules.tables.chips.product(0x2b85)->brand == gd::GpuBrand::geforce);  // RTX 5090
  CHECK(rules.tables.chips.product(0x2230)->brand == gd::GpuBrand::nvidiartx);  // RTX A6000
  CHECK(rules.tables.chips.product(0x1b06)->product_class == gd::ProductClass::consumer);  // GTX 1080 Ti
  CHECK_FALSE(rules.tables.chips.product(0xffff));
}

TEST_CASE("the CUDA tables answer the questions the rules ask") {
  const auto rules = gd::load_embedded_rules();
  const gd::CudaTables& tables = rules.tables.cuda;
  const auto v = [](const char* text) { return *gd::Version::parse(text); };
  CHECK(tables.cuda_for_branch(550)->text() == "12.4");
  CHECK(tables.cuda_for_branch(551)->text() == "12.4");  // an unlisted branch takes the nearest older one
  CHECK(tables.cuda_for_branch(580)->text() == "13.0");
  CHECK_FALSE(tables.cuda_for_branch(300));
  CHECK(tables.toolkit_driver(v("12.4"))->text() == "550.54.14");
  CHECK(tables.mvc_minimum(12)->text() == "525.60.13");
  CHECK_FALSE(tables.mvc_minimum(10));
  CHECK(tables.min_compute_capability(13)->text() == "7.5");
  CHECK(tables.forward_compat_hosts(v("12.9")) == std::vector<int>{535, 570});
}

TEST_CASE("the built-in product table passes the checks a --rules table must pass") {
  gd::ChipTable chips;
  const auto checked = chips.load_products(std::string(gd::embedded_pci_products()));
  CHECK_MESSAGE(checked, (checked ? "" : checked.error()));
  CHECK(chips.product(0x2335)->name == "GH100 [H200 SXM 141GB]");
}

TEST_CASE("torch-wheels: newest index first, each CUDA one a toolkit can target, bad rows refused") {
  const auto rules = gd::load_embedded_rules();
  const auto& indexes = rules.tables.cuda.torch_indexes();
  REQUIRE(indexes.size() >= 5);
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    CAPTURE(indexes[i].index);
    // The tag spells the CUDA version: cu128 is 12.8.
    CHECK(indexes[i].index == "cu" + std::to_string(indexes[i].cuda.major()) + std::to_string(indexes[i].cuda.minor()));
    if (i > 0) CHECK(indexes[i - 1].cuda > indexes[i].cuda);
    // No index carries code below what its CUDA major can build.
    const auto minimum = rules.tables.cuda.min_compute_capability(static_cast<int>(indexes[i].cuda.major()));
    REQUIRE(minimum);
    for (int sass : indexes[i].sass) CHECK(sass >= minimum->major() * 10 + minimum->minor());
  }
  gd::CudaTables tables;
  const auto bad = tables.load(json::parse(R"({"table": "torch-wheels", "indexes": [{"index": "cu12x", "cuda": "12.8", "sass": ["9.0"]}]})").as_object());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("cu128") != std::string::npos);
  CHECK_FALSE(tables.load(json::parse(R"({"table": "torch-wheels", "indexes": [{"index": "cu128", "cuda": "12.8", "sass": ["nine"]}]})").as_object()));
  // The install command is the table's: without its placeholders the table is refused.
  const auto no_install = tables.load(json::parse(R"({"table": "torch-wheels", "indexes": [{"index": "cu128", "cuda": "12.8", "sass": ["9.0"]}],
    "install": "pip install torch"})").as_object());
  REQUIRE_FALSE(no_install);
  CHECK(no_install.error().find("{index}") != std::string::npos);
  CHECK(rules.tables.cuda.torch_install_command("torch==2.5.1", "cu124") ==
        "pip install --force-reinstall torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124");
  REQUIRE(tables.load(json::parse(R"({"table": "torch-wheels", "indexes": [{"index": "cu128", "cuda": "12.8", "sass": ["9.0"]}],
    "install": "uv pip install {torch} --index-url https://mirror.example/{index} # {index}"})").as_object()));
  CHECK(tables.torch_install_command("torch", "cu128") == "uv pip install torch --index-url https://mirror.example/cu128 # cu128");
}

TEST_CASE("framework-installs: a framework's sentence, else the \"*\" row's, filled; unknown kinds and placeholders refused") {
  const auto rules = gd::load_embedded_rules();
  const std::map<std::string, std::string> values{{"pin", "==2.16.1"}, {"cuda", "12.3"}, {"cudnn", "8"}, {"arch", "90"}, {"driver_major", "11"}};
  CHECK(rules.tables.cuda.framework_install("tensorflow", "libraries", values).starts_with("`pip install \"tensorflow[and-cuda]==2.16.1\"`"));
  // A framework without its own gpu_code sentence gets the "*" row's.
  CHECK(rules.tables.cuda.framework_install("jax", "gpu_code", values) ==
        "rebuild it with `-gencode arch=compute_90,code=sm_90` (and code=compute_90 for PTX that later GPUs can JIT-compile)");
  CHECK(rules.tables.cuda.framework_install("torch", "other_build", values).find("cu11x index") != std::string::npos);
  CHECK(rules.tables.cuda.framework_install("jax", "gpu_code_unknown_driver", values).empty());
  gd::CudaTables tables;
  const auto load = [&](const char* text) { return tables.load(json::parse(text).as_object()); };
  CHECK(load(R"({"table": "framework-installs", "frameworks": [{"framework": "*", "gpu_code": "g", "other_build": "o"}]})"));
  const auto no_default = load(R"({"table": "framework-installs", "frameworks": [{"framework": "torch", "libraries": "x"}]})");
  REQUIRE_FALSE(no_default);
  CHECK(no_default.error().find("\"*\" row") != std::string::npos);
  const auto bad_kind = load(R"({"table": "framework-installs", "frameworks": [{"framework": "*", "gpu_code": "g", "other_build": "o", "libraires": "x"}]})");
  REQUIRE_FALSE(bad_kind);
  CHECK(bad_kind.error().find("\"libraires\" is no kind") != std::string::npos);
  const auto bad_placeholder = load(R"({"table": "framework-installs", "frameworks": [{"framework": "*", "gpu_code": "sm_{archh}", "other_build": "o"}]})");
  REQUIRE_FALSE(bad_placeholder);
  CHECK(bad_placeholder.error().find("{archh} is no placeholder") != std::string::npos);
}

TEST_CASE("a product is found by halving the table's text, past comments and blank lines, and nothing else is") {
  // Every third id from 0x1000, with comments and blank lines between and at both ends.
  std::string text = "# head\n\n";
  std::set<std::uint32_t> listed;
  for (std::uint32_t id = 0x1000, row = 0; id < 0x1200; id += 3, ++row) {
    char line[64];
    std::snprintf(line, sizeof line, "%04x\ttesla\tdatacenter\tchip %04x\n", id, id);
    text += line;
    listed.insert(id);
    if (row % 7 == 0) text += "# a comment\n# and another\n";
    if (row % 11 == 0) text += "\n";
  }
  text += "# tail\n";
  gd::ChipTable table;
  REQUIRE(table.load_products(text));
  for (std::uint32_t id = 0x0ff0; id < 0x1210; ++id) {
    CAPTURE(id);
    const auto product = table.product(id);
    REQUIRE(product.has_value() == (listed.count(id) > 0));
    if (product) {
      char name[16];
      std::snprintf(name, sizeof name, "chip %04x", id);
      CHECK(product->name == name);
    }
  }
  // A table of comments alone, or nothing, names no product.
  REQUIRE(table.load_products("# only a comment\n"));
  CHECK_FALSE(table.product(0x1000));
  REQUIRE(table.load_products(""));
  CHECK_FALSE(table.product(0x1000));
}
