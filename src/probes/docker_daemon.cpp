#include "probes/docker_daemon.h"

#include "probes/daemon_answer.h"
#include "util/text.h"

#include <boost/json.hpp>

namespace gd {
namespace {

using namespace std::chrono_literals;

const boost::json::string* string_field(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? &value->get_string() : nullptr;
}

}  // namespace

std::optional<ChildRequest> docker_info_request(const std::optional<std::string>& socket) {
  if (!socket) return std::nullopt;
  return ChildRequest{.kind = ChildKind::docker_api, .args = {*socket}, .deadline = 3000ms};
}

DockerDaemonFacts parse_docker_info(const ChildAnswer& answer) {
  DockerDaemonFacts facts;
  if ((facts.problem = daemon_unanswered(answer, "dockerd did not answer GET /info within 3 s"))) return facts;
  boost::system::error_code error;
  const auto document = boost::json::parse(trim(answer.output), error);
  const auto* info = !error && document.is_object() ? &document.get_object() : nullptr;
  const auto* version = info ? string_field(*info, "ServerVersion") : nullptr;
  if (!version || version->empty()) {
    facts.problem = child_words_or(answer, info ? "dockerd gave no ServerVersion" : "the child's answer is not what was asked for");
    return facts;
  }
  facts.answered = true;
  facts.version = printable(*version, 60);
  if (const auto* runtime = string_field(*info, "DefaultRuntime"); runtime && !runtime->empty()) facts.default_runtime = printable(*runtime, 60);
  facts.runtimes_cut = runtime_names(info->if_contains("Runtimes"), facts.runtimes);
  return facts;
}

std::optional<DockerDaemonFacts> ask_docker_daemon(Host& host, const std::optional<std::string>& socket) {
  const auto request = docker_info_request(socket);
  if (!request) return std::nullopt;
  return parse_docker_info(host.ask(*request));
}

}  // namespace gd
