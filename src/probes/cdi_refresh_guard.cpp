#include "probes/cdi_refresh_guard.h"

#include "probes/service_settings.h"
#include "probes/systemd_units.h"
#include "util/text.h"

#include <regex.h>

#include <algorithm>

namespace gd {

namespace {

constexpr std::size_t k_max_pattern = 200;       // the toolkit's are under 40 characters
constexpr std::size_t k_max_line = 4096;         // a modules.dep line names a module and its dependencies
constexpr std::size_t k_max_modules_dep = 8 << 20;

bool is_grep(std::string_view program) { return program == "grep" || program.ends_with("/grep"); }

}  // namespace

std::optional<bool> grep_matches_module_line(std::string_view pattern, std::string_view modules_dep) {
  // Only the lines that name nvidia are searched, so the pattern must need that name.
  if (pattern.size() > k_max_pattern || !contains(pattern, "nvidia")) return std::nullopt;
  // A back-reference (glibc's extension to ERE) can make a match take exponential time: not judged.
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i)
    if (pattern[i] == '\\' && pattern[i + 1] >= '1' && pattern[i + 1] <= '9') return std::nullopt;
  // POSIX's own extended expressions, as grep -E reads them.
  regex_t expression;
  if (regcomp(&expression, std::string(pattern).c_str(), REG_EXTENDED | REG_NOSUB) != 0) return std::nullopt;
  std::optional<bool> found = false;
  // From one "nvidia" to the next, each line that holds one once: a few of a distribution's thousands.
  for (auto hit = modules_dep.find("nvidia"); hit != std::string_view::npos; hit = modules_dep.find("nvidia", hit)) {
    const auto start = modules_dep.rfind('\n', hit);
    const auto begin = start == std::string_view::npos ? 0 : start + 1;
    const auto end = std::min(modules_dep.find('\n', hit), modules_dep.size());
    const auto line = modules_dep.substr(begin, end - begin);
    if (line.size() > k_max_line || line.find('\0') != std::string_view::npos) {
      found = std::nullopt;
      break;
    }
    if (regexec(&expression, std::string(line).c_str(), 0, nullptr, 0) == 0) {
      found = true;
      break;
    }
    hit = end;
  }
  regfree(&expression);
  return found;
}

std::optional<CdiRefreshGuard> read_cdi_refresh_guard(Host& host, std::string_view kernel_release, ProbeNotes& notes,
                                                      std::optional<CdiRefresh> path_unit) {
  const auto service = find_systemd_unit(host, "nvidia-cdi-refresh.service");
  if (!service.path || service.masked) return std::nullopt;
  const auto settings = read_service_settings(host, "nvidia-cdi-refresh.service", service);
  for (const auto& words : settings.exec_conditions) {
    // `/usr/bin/grep -qE PATTERN /lib/modules/%v/modules.dep`: the one form the toolkit writes.
    if (words.size() != 4) continue;
    const std::string_view prefixes = std::string_view(words[0]).substr(0, exec_prefix_length(words[0]));
    // `-`: systemd takes the command's failure for success, so this condition never skips the service.
    if (prefixes.find('-') != std::string_view::npos) continue;
    const std::string_view program = std::string_view(words[0]).substr(prefixes.size());
    if (!is_grep(program) || !words[1].starts_with('-') || !contains(words[1], "E") || !words[3].ends_with("/modules.dep")) continue;
    CdiRefreshGuard guard;
    guard.condition = printable(words[0] + " " + words[1] + " " + words[2] + " " + words[3], 300);
    guard.enabled = service.enabled || (path_unit ? *path_unit == CdiRefresh::enabled : find_systemd_unit(host, "nvidia-cdi-refresh.path").enabled);
    std::string file = words[3];
    if (const auto at = file.find("%v"); at != std::string::npos) file.replace(at, 2, kernel_release);
    const auto text = host.read_file(file, k_max_modules_dep + 1);
    if (text && text->size() > k_max_modules_dep)
      notes.note_unreadable(file, "larger than the " + std::to_string(k_max_modules_dep >> 20) + " MiB gpudoctor reads: the refresh service's condition is not judged");
    else if (text)
      guard.matches = grep_matches_module_line(words[2], *text);
    return guard;
  }
  return std::nullopt;
}

}  // namespace gd
