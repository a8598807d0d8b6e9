// The Dockerfile reader and its checks, on the BuildKit constructs that
// trip naive readers, and on the fixtures of testdata/dockerfiles.

#include "lint/dockerfile.h"
#include "lint/compose_lint.h"
#include "lint/dockerfile_lint.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE) + "/testdata/dockerfiles/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> ids_of(const std::vector<gd::LintFinding>& findings) {
  std::set<std::string> ids;
  for (const auto& finding : findings) ids.insert(finding.rule);
  return ids;
}

}  // namespace

TEST_CASE("Dockerfile: continuations, comments inside them, heredocs, the escape directive, ARG in FROM, stages") {
  const auto file = gd::parse_dockerfile(
      "# escape=`\n"
      "ARG BASE=nvidia/cuda\nARG TAG\n"
      "FROM ${BASE}:${TAG:-12.4.1}-base AS one\n"
      "RUN apt-get update && `\n"
      "    # not part of it\n"
      "    apt-get install -y x\n"
      "RUN <<EOF bash\n"
      "echo hello\n"
      "EOF\n"
      "from one\n"
      "env A=1\n");
  REQUIRE(file.stages.size() == 2);
  CHECK(file.stages[0].base == "nvidia/cuda:12.4.1-base");
  CHECK(file.stages[0].name == "one");
  CHECK(file.stages[1].base == "one");
  REQUIRE(file.instructions.size() == 7);
  CHECK(file.instructions[3].keyword == "RUN");
  CHECK(file.instructions[3].text == "apt-get update &&      apt-get install -y x");
  CHECK(file.instructions[3].line == 5);
  CHECK(file.instructions[4].text == "<<EOF bash\necho hello");
  CHECK(file.instructions[5].keyword == "FROM");  // keywords are case-insensitive
  CHECK(file.instructions[6].line == 12);
  CHECK(file.instructions[6].stage == 2);
}

TEST_CASE("Dockerfile checks: every mistake of the fixture, with lines and corrected lines") {
  const auto rules = gd::load_embedded_rules();
  const auto findings = gd::lint_dockerfile(gd::parse_dockerfile(fixture("mistakes.Dockerfile")), rules);
  CHECK(ids_of(findings) == std::set<std::string>{"dockerfile-stubs-on-loader-path", "dockerfile-capabilities-without-compute",
                                                   "dockerfile-stubs-in-ld-cache", "dockerfile-installs-driver",
                                                   "dockerfile-torch-cuda-major-differs", "dockerfile-copies-driver-library",
                                                   "dockerfile-visible-devices-none"});
  const auto stubs = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.rule == "dockerfile-stubs-on-loader-path"; });
  CHECK(stubs->line == 4);
  CHECK(stubs->corrected == "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64");
  const auto torch = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.rule == "dockerfile-torch-cuda-major-differs"; });
  CHECK(torch->message.find("CUDA 12.4 but PyTorch is installed for CUDA 13.0") != std::string::npos);
}

TEST_CASE("driver packages of any distribution and vendor installers are the driver baked into the image, with a corrected command") {
  const auto rules = gd::load_embedded_rules();
  const auto lint = [&](const std::string& run) {
    return gd::lint_dockerfile(gd::parse_dockerfile("FROM nvidia/cuda:12.4.1-base-ubuntu22.04\n" + run + "\n"), rules);
  };
  const auto one = [](const std::vector<gd::LintFinding>& findings, const char* id) -> const gd::LintFinding& {
    REQUIRE(findings.size() == 1);
    REQUIRE(findings[0].rule == id);
    return findings[0];
  };
  auto found = lint("RUN apt-get update && apt-get install -y --no-install-recommends nvidia-headless-535-server python3-pip");
  const auto& ubuntu = one(found, "dockerfile-installs-driver");
  CHECK(ubuntu.line == 2);
  CHECK(ubuntu.message.find("nvidia-headless-535-server: Ubuntu's driver user-space packages") != std::string::npos);
  CHECK(ubuntu.corrected == "RUN apt-get install -y --no-install-recommends python3-pip");
  CHECK(ubuntu.source.find("Ubuntu Server documentation") != std::string::npos);
  found = lint("RUN dnf install -y cuda-12-4");
  CHECK(one(found, "dockerfile-installs-driver").corrected == "RUN dnf install -y cuda-toolkit-12-4");
  found = lint("RUN zypper install -y nvidia-compute-G06");
  CHECK_FALSE(one(found, "dockerfile-installs-driver").corrected);  // nothing else to install: the fix says delete it
  found = lint("RUN sh cuda_12.4.0_550.54.14_linux.run --silent");
  const auto& runfile = one(found, "dockerfile-runs-driver-installer");
  CHECK(runfile.corrected == "RUN sh cuda_12.4.0_550.54.14_linux.run --silent --toolkit");
  CHECK(runfile.message.find("the CUDA runfile") != std::string::npos);
  found = lint("RUN curl -fsSL https://lambdalabs.com/install-lambda-stack.sh | sh -");
  CHECK(one(found, "dockerfile-runs-driver-installer").message.find("Lambda Stack") != std::string::npos);
  CHECK(lint("RUN sh cuda_12.4.0_550.54.14_linux.run --silent --toolkit").empty());
  CHECK(lint("RUN apt-get install -y cuda-toolkit-12-4 cuda-compat-12-4 nvidia-container-toolkit").empty());
  CHECK(lint("RUN ubuntu-drivers list").empty());
}

TEST_CASE("Dockerfile checks stay quiet on a healthy recipe") {
  const auto rules = gd::load_embedded_rules();
  const auto file = gd::parse_dockerfile(fixture("healthy.Dockerfile"));
  CHECK(file.problems.empty());
  CHECK(gd::lint_dockerfile(file, rules).empty());
}

TEST_CASE("every lint check (Dockerfile and compose) has its text in rules/lint, and every text a check") {
  const auto rules = gd::load_embedded_rules();
  std::set<std::string> texts, checks;
  for (const auto& rule : rules.lint) texts.insert(rule.id);
  for (const auto& id : gd::dockerfile_lint_ids()) checks.insert(id);
  for (const auto& id : gd::compose_lint_ids()) checks.insert(id);
  CHECK(texts == checks);
}

TEST_CASE("hostile Dockerfiles: junk, an endless continuation, an unterminated heredoc") {
  CHECK(gd::parse_dockerfile(std::string(100000, '\\')).instructions.size() == 1);
  const auto heredoc = gd::parse_dockerfile("RUN <<EOF\nno end\n");
  REQUIRE(heredoc.instructions.size() == 1);
  CHECK(heredoc.instructions[0].text == "<<EOF\nno end");
  CHECK(gd::parse_dockerfile(std::string("\0\xff\n\x01", 4)).instructions.size() <= 2);
  CHECK(gd::substitute_args("${A:-x}${B}$C$", {{"B", "b"}, {"C", "c"}}) == "xbc$");
  // Long instructions once overflowed std::regex's recursion: checks see bounded commands only.
  const auto rules = gd::load_embedded_rules();
  const std::string long_run = "FROM nvidia/cuda:12.4.1-base\nRUN apt-get install " + std::string(300000, 'a') +
                               "\nCOPY " + std::string(300000, 'b') + " /x\nRUN ldconfig " + std::string(100000, '/') + "\n";
  CHECK(gd::lint_dockerfile(gd::parse_dockerfile(long_run), rules).empty());
}

TEST_CASE("Dockerfile: PyTorch indexes that were never published, pins an index has no build of") {
  const auto rules = gd::load_embedded_rules();
  const auto findings = gd::lint_dockerfile(gd::parse_dockerfile(fixture("torch-indexes.Dockerfile")), rules);
  std::set<std::string> where;
  for (const auto& finding : findings) where.insert(std::to_string(finding.line) + " " + finding.rule);
  CHECK(where == std::set<std::string>{"5 dockerfile-torch-index-unpublished", "7 dockerfile-torch-pin-not-on-index"});
  for (const auto& finding : findings) {
    CAPTURE(finding.rule);
    if (finding.rule == "dockerfile-torch-index-unpublished") {
      CHECK(finding.corrected == std::optional<std::string>("RUN pip install torch --index-url https://download.pytorch.org/whl/cu121"));
      CHECK(finding.message.find("cu122") != std::string::npos);
    } else {
      CHECK(finding.message.find("torch==2.1.0 was built for cu118, cu121, not cu124") != std::string::npos);
    }
  }
}
