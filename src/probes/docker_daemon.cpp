#include "probes/docker_daemon.h"

#include "util/text.h"

#include <boost/json.hpp>

namespace gd {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t k_max_runtimes = 32;

// Why there is no usable answer: the child's own words where it gave some.
std::string no_answer(const ChildAnswer& answer, std::string_view what) {
  const std::string said = first_nonblank_line(answer.error_output);
  return said.empty() ? std::string(what) : said;
}

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
  if (answer.error) {
    facts.problem = "not asked (" + printable(*answer.error, 40) + ")";
    return facts;
  }
  if (answer.timed_out) {
    facts.problem = "dockerd did not answer GET /info within 3 s";
    return facts;
  }
  if (answer.exit != 0) {
    facts.problem = no_answer(answer, answer.exit ? "the child that asked it exited " + std::to_string(*answer.exit) : "the child that asked it was killed");
    return facts;
  }
  boost::system::error_code error;
  const auto document = boost::json::parse(trim(answer.output), error);
  const auto* info = !error && document.is_object() ? &document.get_object() : nullptr;
  const auto* version = info ? string_field(*info, "ServerVersion") : nullptr;
  if (!version || version->empty()) {
    facts.problem = no_answer(answer, info ? "dockerd gave no ServerVersion" : "the child's answer is not what was asked for");
    return facts;
  }
  facts.answered = true;
  facts.version = printable(*version, 60);
  if (const auto* runtime = string_field(*info, "DefaultRuntime"); runtime && !runtime->empty()) facts.default_runtime = printable(*runtime, 60);
  if (const auto* runtimes = info->if_contains("Runtimes"); runtimes && runtimes->is_object())
    for (const auto& entry : runtimes->get_object()) {
      if (facts.runtimes.size() == k_max_runtimes) {
        facts.runtimes_cut = true;
        break;
      }
      facts.runtimes.push_back(printable(entry.key(), 60));
    }
  return facts;
}

std::optional<DockerDaemonFacts> ask_docker_daemon(Host& host, const std::optional<std::string>& socket) {
  const auto request = docker_info_request(socket);
  if (!request) return std::nullopt;
  return parse_docker_info(host.ask(*request));
}

}  // namespace gd
