#include "probes/fabric_manager_log.h"

#include "util/text.h"

#include <chrono>

namespace gd {

namespace {

constexpr const char* k_log = "/var/log/fabricmanager.log";
constexpr std::size_t k_log_tail = 256 * 1024;

// The version that follows a marker: "driver version 550.120." -> "550.120".
std::optional<std::string> version_after(std::string_view line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  const auto rest = line.substr(at + marker.size());
  const auto end = rest.find_first_not_of("0123456789.");
  auto version = rest.substr(0, end);
  while (!version.empty() && version.back() == '.') version.remove_suffix(1);
  if (version.empty() || version.find('.') == std::string_view::npos) return std::nullopt;
  return printable(version, 20);
}

}  // namespace

FabricManagerLogFacts parse_fabric_manager_log(std::string_view text) {
  FabricManagerLogFacts facts;
  for (auto line : lines(text)) {
    line = trim(line);
    // gpud's matchers: "detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id ...".
    if (contains(line, "detected NVSwitch fatal error")) {
      ++facts.nvswitch_fatal_errors;
      facts.nvswitch_fatal_line = printable(line, 200);
    }
    if (contains(line, "don't match with any supported system topology"))
      facts.topology_mismatch = printable(line, 200);
    if (contains(line, "driver interface version") && contains(line, "match with driver version")) {
      const auto fm = version_after(line, "driver interface version "), driver = version_after(line, "match with driver version ");
      if (!fm || !driver) continue;
      // "[Nov 05 2025 13:55:26] [ERROR] [tid 104230] fabric manager ..." -> "fabric manager ...".
      facts.version_mismatch = printable(trim(without_bracketed_prefix(line, 3)), 200);
      facts.fabric_manager_version = fm;
      facts.driver_version = driver;
    }
  }
  return facts;
}

std::optional<FabricManagerLogFacts> read_fabric_manager_log(Host& host, const Nullable<bool>& running) {
  std::optional<FabricManagerLogFacts> facts;
  if (auto info = host.stat(k_log)) {
    const std::uint64_t size = info->size;
    const std::uint64_t from = size > k_log_tail ? size - k_log_tail : 0;
    if (auto text = host.read_range(k_log, from, k_log_tail)) {
      // A tail starts inside a line: that part line is not read.
      std::string_view tail = *text;
      if (from > 0) tail.remove_prefix(std::min(tail.size(), tail.find('\n') + 1));
      facts = parse_fabric_manager_log(tail);
      facts->source = k_log;
      if (facts->version_mismatch) facts->mismatch_source = k_log;
      if (from > 0) facts->cut = "only its last " + std::to_string(k_log_tail >> 10) + " KiB were read";
    }
  }
  if (running.value != false || (facts && facts->version_mismatch)) return facts;
  // Not running: its refusal also goes to stderr, which the journal keeps.
  using namespace std::chrono_literals;
  const auto answer = host.ask({.kind = ChildKind::command,
                                .args = {"journalctl", "-u", "nvidia-fabricmanager.service", "-b", "-o", "cat", "--no-pager", "-q", "-n", "200"},
                                .deadline = 3000ms,
                                .keep = OutputKeep::tail});
  if (answer.exit != 0 || answer.output.empty()) return facts;
  auto journal = parse_fabric_manager_log(answer.output);
  if (!journal.version_mismatch) return facts;
  if (!facts) facts.emplace();
  facts->version_mismatch = journal.version_mismatch;
  facts->fabric_manager_version = journal.fabric_manager_version;
  facts->driver_version = journal.driver_version;
  facts->mismatch_source = "journalctl -u nvidia-fabricmanager.service";
  return facts;
}

}  // namespace gd
