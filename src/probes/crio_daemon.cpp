#include "probes/crio_daemon.h"

#include "formats/toml_config.h"
#include "probes/daemon_answer.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

using namespace std::chrono_literals;

}  // namespace

std::optional<ChildRequest> crio_config_request(const std::optional<std::string>& socket) {
  if (!socket) return std::nullopt;
  return ChildRequest{.kind = ChildKind::crio_config, .args = {*socket}, .deadline = 3000ms};
}

CrioDaemonFacts parse_crio_config(const ChildAnswer& answer) {
  CrioDaemonFacts facts;
  if ((facts.problem = daemon_unanswered(answer, "crio did not answer GET /config within 3 s"))) return facts;
  const auto document = read_toml(answer.output);
  const auto name = document ? document->string({"crio", "runtime", "default_runtime"}) : std::nullopt;
  if (!name || name->empty()) {
    facts.problem = child_words_or(answer, document ? "crio gave no default_runtime" : "the child's answer is not what was asked for");
    return facts;
  }
  facts.answered = true;
  facts.default_runtime = printable(*name, 60);
  for (const auto& runtime : document->tables_below({"crio", "runtime", "runtimes"}))
    if (!add_runtime_name(runtime, facts.runtimes)) {
      facts.runtimes_cut = true;
      break;
    }
  return facts;
}

void ask_crio_daemon(Host& host, CrioEngineFacts& facts) {
  const auto request = crio_config_request(facts.socket);
  if (!request) return;
  facts.daemon = parse_crio_config(host.ask(*request));
  // Compared only where the files were read whole; a runtime whose program is
  // missing crio drops at every start and reload (crio-runtime-program-missing says so).
  if (!facts.daemon->answered || facts.daemon->runtimes_cut || facts.problem || facts.files_not_read) return;
  const auto& loaded = facts.daemon->runtimes;
  for (const auto& runtime : facts.runtimes)
    if (runtime.found.value.value_or(true) && std::find(loaded.begin(), loaded.end(), runtime.name) == loaded.end())
      facts.daemon->runtimes_not_loaded.push_back(runtime.name);
}

}  // namespace gd
