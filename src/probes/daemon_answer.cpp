#include "probes/daemon_answer.h"

#include "util/text.h"

#include <boost/json.hpp>

namespace gd {
namespace {

constexpr std::size_t k_max_runtimes = 32;

}  // namespace

std::string child_words_or(const ChildAnswer& answer, std::string_view what) {
  const std::string said = first_nonblank_line(answer.error_output);
  return said.empty() ? std::string(what) : said;
}

std::optional<std::string> daemon_unanswered(const ChildAnswer& answer, std::string_view late) {
  if (answer.error) return "not asked (" + printable(*answer.error, 40) + ")";
  if (answer.timed_out) return std::string(late);
  if (answer.exit != 0)
    return child_words_or(answer, answer.exit ? "the child that asked it exited " + std::to_string(*answer.exit) : "the child that asked it was killed");
  return std::nullopt;
}

bool add_runtime_name(std::string_view name, std::vector<std::string>& names) {
  if (names.size() == k_max_runtimes) return false;
  names.push_back(printable(name, 60));
  return true;
}

bool runtime_names(const boost::json::value* listed, std::vector<std::string>& names) {
  if (!listed || !listed->is_object()) return false;
  for (const auto& entry : listed->get_object())
    if (!add_runtime_name(entry.key(), names)) return true;
  return false;
}

}  // namespace gd
