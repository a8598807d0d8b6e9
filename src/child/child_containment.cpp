#include "child/child_containment.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace gd {

namespace {

// This process's own bookkeeping in /proc, not evidence: read directly, not through the host seam.
std::optional<std::string> proc_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> proc_entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) names.push_back(entry.path().filename().string());
  return names;
}

std::vector<pid_t> numbers_in(const std::string& text) {
  std::vector<pid_t> numbers;
  const char* at = text.c_str();
  while (*at) {
    char* end = nullptr;
    const long value = std::strtol(at, &end, 10);
    if (end == at) {
      ++at;
      continue;
    }
    if (value > 0) numbers.push_back(static_cast<pid_t>(value));
    at = end;
  }
  return numbers;
}

// This process's children, from /proc/self/task/*/children (Linux 3.5 with
// CONFIG_PROC_CHILDREN); else from every /proc/PID/stat's parent field.
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  bool listed = false;
  for (const auto& task : proc_entries("/proc/self/task"))
    if (auto text = proc_text("/proc/self/task/" + task + "/children")) {
      listed = true;
      for (pid_t pid : numbers_in(*text)) children.push_back(pid);
    }
  if (listed) return children;
  const std::string self = std::to_string(::getpid());
  for (const auto& name : proc_entries("/proc")) {
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto stat = proc_text("/proc/" + name + "/stat");
    if (!stat) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const auto close = stat->rfind(')');
    if (close == std::string::npos) continue;
    const auto fields = numbers_in(stat->substr(close + 1));
    if (!fields.empty() && std::to_string(fields.front()) == self) children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

}  // namespace

void adopt_orphaned_descendants() {
  static const bool adopted = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
  (void)adopted;
}

void stop_adopted_descendants() {
  // Killing one may orphan its own children onto us: a few rounds.
  for (int round = 0; round < 8; ++round) {
    const auto children = own_children();
    if (children.empty()) return;
    for (pid_t pid : children) ::kill(pid, SIGKILL);
    for (pid_t pid : children)
      for (int tries = 0; tries < 50 && ::waitpid(pid, nullptr, WNOHANG) == 0; ++tries)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace gd
