// Generated documentation must match the code that generates it.

#include "cli/commands.h"
#include "facts/fact_reference.h"
#include "rules/rule_facts.h"
#include "rules/rule_set.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace {

std::string read_source_file(const char* relative) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("docs/rules.md is what `gpudoctor rules --format markdown` prints") {
  CHECK_MESSAGE(read_source_file("docs/rules.md") == gd::rules_markdown(gd::load_embedded_rules()),
                "regenerate it: build/gpudoctor rules --format markdown > docs/rules.md");
}

TEST_CASE("the fact reference in docs/layers.md is what `gpudoctor facts` prints") {
  const std::string layers = read_source_file("docs/layers.md");
  const std::string marker = "<!-- generated: gpudoctor facts -->\n";
  const auto at = layers.find(marker);
  REQUIRE_MESSAGE(at != std::string::npos, "docs/layers.md lost its generated section");
  CHECK_MESSAGE(layers.substr(at + marker.size()) == gd::fact_reference_markdown(),
                "regenerate the section after the marker from build/gpudoctor facts");
}

TEST_CASE("the fact reference names every fact the rules commonly address") {
  const auto reference = gd::fact_reference_markdown();
  for (const char* path : {"`hardware.gpus[].brand`", "`kernel-module.claimed_gpus[].minor`", "`container.injection_evidence`",
                           "`device-nodes.nodes[].open`", "`driver-libs.libraries[].supported_host_branches`",
                           "`cuda-runtime.runtimes[].driver_cuda_major`", "`kernel-module.module_file`"}) {
    CAPTURE(path);
    CHECK(reference.find(path) != std::string::npos);
  }
}

TEST_CASE("every built-in rule addresses facts that exist, with values they can take") {
  const auto rules = gd::load_embedded_rules();
  const auto schema = gd::with_outcomes(gd::host_fact_schema(), rules);
  for (const auto& rule : rules.rules) CHECK_MESSAGE(gd::check_rule_facts(rule, schema), rule.id);
  CHECK_NOTHROW(gd::check_rules_against(rules, gd::host_fact_schema()));  // the outcomes' conditions too
}
