#include "probes/containerd_daemon.h"

#include "probes/daemon_answer.h"
#include "util/text.h"

#include <boost/json.hpp>

#include <algorithm>

namespace gd {
namespace {

using namespace std::chrono_literals;

}  // namespace

std::optional<ChildRequest> cri_status_request(const std::optional<std::string>& socket) {
  if (!socket) return std::nullopt;
  return ChildRequest{.kind = ChildKind::cri_status, .args = {*socket}, .deadline = 3000ms};
}

ContainerdDaemonFacts parse_cri_status(const ChildAnswer& answer) {
  ContainerdDaemonFacts facts;
  // 3: containerd answered, without a CRI runtime service (the child's word for it).
  facts.running = !answer.error && !answer.timed_out && (answer.exit == 0 || answer.exit == 3);
  if ((facts.problem = daemon_unanswered(answer, "containerd did not answer the CRI status call within 3 s"))) return facts;
  boost::system::error_code error;
  const auto document = boost::json::parse(trim(answer.output), error);
  const auto* status = !error && document.is_object() ? &document.get_object() : nullptr;
  const auto* api = status ? status->if_contains("API") : nullptr;
  if (!api || !api->is_string() || api->get_string().empty()) {
    facts.problem = child_words_or(answer, "the child's answer is not what was asked for");
    return facts;
  }
  facts.answered = true;
  facts.api = printable(api->get_string(), 40);
  // containerd's own default where the configuration names none.
  facts.default_runtime = "runc";
  if (const auto* name = status->if_contains("DefaultRuntime"); name && name->is_string() && !name->get_string().empty())
    facts.default_runtime = printable(name->get_string(), 60);
  facts.runtimes_cut = runtime_names(status->if_contains("Runtimes"), facts.runtimes);
  if (const auto* cdi = status->if_contains("CDI"); cdi && cdi->is_bool()) facts.cdi = cdi->get_bool();
  return facts;
}

void ask_containerd_daemon(Host& host, ContainerdEngineFacts& facts) {
  const auto request = cri_status_request(facts.socket);
  if (!request) return;
  facts.daemon = parse_cri_status(host.ask(*request));
  if (!facts.daemon->answered || facts.daemon->runtimes_cut) return;
  const auto& loaded = facts.daemon->runtimes;
  for (const auto& runtime : facts.runtimes)
    if (std::find(loaded.begin(), loaded.end(), runtime.name) == loaded.end()) facts.daemon->runtimes_not_loaded.push_back(runtime.name);
}

}  // namespace gd
