// The tables of rules/ must agree with themselves: each sorted the way it
// is read, no PCI range overlapping another, and every host branch that the
// forward-compatibility matrix names known to the branch table.

#include "cli/commands.h"
#include "rules/cuda_tables.h"
#include "rules/rule_set.h"
#include "util/json_fields.h"
#include "util/version.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace json = boost::json;

namespace {

const json::array& rows(const gd::RuleSet& rules, const char* table, const char* key) {
  return rules.tables.at(table).at(key).as_array();
}

}  // namespace

TEST_CASE("every table names its source") {
  const auto rules = gd::load_embedded_rules();
  for (const char* table : {"cuda-drivers", "forward-compat", "error-codes"}) {
    CAPTURE(table);
    REQUIRE(rules.tables.count(table) == 1);
    CHECK_FALSE(gd::string_field(rules.tables.at(table), "source").empty());
  }
}

TEST_CASE("cuda-drivers: toolkits and branches ascend, drivers ascend with them") {
  const auto rules = gd::load_embedded_rules();
  std::optional<gd::Version> last_cuda, last_driver;
  for (const auto& row : rows(rules, "cuda-drivers", "toolkits")) {
    const auto cuda = gd::Version::parse(row.at("cuda").as_string());
    const auto driver = gd::Version::parse(row.at("linux_min").as_string());
    REQUIRE(cuda);
    REQUIRE(driver);
    if (last_cuda) CHECK(*last_cuda < *cuda);
    if (last_driver) CHECK(*last_driver < *driver);
    last_cuda = cuda;
    last_driver = driver;
  }
  std::int64_t last_branch = 0;
  std::optional<gd::Version> last_branch_cuda;
  for (const auto& row : rows(rules, "cuda-drivers", "branches")) {
    const auto branch = row.at("branch").as_int64();
    const auto cuda = gd::Version::parse(row.at("cuda").as_string());
    CHECK(branch > last_branch);
    if (last_branch_cuda) CHECK(*last_branch_cuda < *cuda);
    last_branch = branch;
    last_branch_cuda = cuda;
  }
}

TEST_CASE("forward-compat: every host branch is a known branch, every package a known CUDA") {
  const auto rules = gd::load_embedded_rules();
  std::set<std::int64_t> branches;
  std::set<std::string> cudas;
  for (const auto& row : rows(rules, "cuda-drivers", "branches")) {
    branches.insert(row.at("branch").as_int64());
    cudas.emplace(row.at("cuda").as_string());
  }
  for (const auto& row : rows(rules, "forward-compat", "packages")) {
    const std::string cuda(row.at("cuda").as_string());
    CAPTURE(cuda);
    CHECK(cudas.count(cuda) == 1);
    for (const auto& host : row.at("hosts").as_array()) CHECK(branches.count(host.as_int64()) == 1);
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
  CHECK(rules.chips.lookup(0x2330)->chip == "GH100");
}

TEST_CASE("the CUDA tables answer the questions the rules ask") {
  const auto rules = gd::load_embedded_rules();
  const gd::CudaTables tables(rules);
  CHECK(tables.cuda_for_branch(550) == "12.4");
  CHECK(tables.cuda_for_branch(551) == "12.4");  // an unlisted branch takes the nearest older one
  CHECK(tables.cuda_for_branch(580) == "13.0");
  CHECK_FALSE(tables.cuda_for_branch(300));
  CHECK(tables.toolkit_driver("12.4") == "550.54.14");
  CHECK(tables.mvc_minimum(12) == "525.60.13");
  CHECK_FALSE(tables.mvc_minimum(10));
  CHECK(tables.min_compute_capability(13) == "7.5");
  CHECK(tables.forward_compat_hosts("12.9") == std::vector<int>{535, 570});
}

TEST_CASE("docs/rules.md is what `gpudoctor rules --format markdown` prints") {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE) + "/docs/rules.md");
  std::stringstream text;
  text << in.rdbuf();
  CHECK_MESSAGE(text.str() == gd::rules_markdown(gd::load_embedded_rules()),
                "regenerate it: build/gpudoctor rules --format markdown > docs/rules.md");
}
