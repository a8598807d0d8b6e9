#include "child/driver_probe_parts.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>

namespace gd::driver_probe {

namespace {
int g_protocol = STDOUT_FILENO;
}  // namespace

void take_protocol_channel() {
  const int protocol = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return;  // stdout it stays
  g_protocol = protocol;
}

void say(const json::object& line) {
  const std::string text = json::serialize(line) + "\n";
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(g_protocol, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody to tell
    written += static_cast<std::size_t>(n);
  }
}

void begin(const char* step) { say({{"begin", step}}); }

void end_answer() { (void)!::write(g_protocol, "\n", 1); }

bool asked_again() {
  for (char c = 0;;) {
    const ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') return true;
  }
}

std::string bounded(const char* text, std::size_t max) {
  if (!text) return {};
  std::string out(text, ::strnlen(text, max));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < ' ' || c == 0x7f) c = '?';
  return out;
}

// The driver's libraries this process really mapped: what the loader chose,
// which the parent compares with its own simulation of the search.
void say_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> paths;
  std::string line;
  while (std::getline(maps, line) && paths.size() < 64) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    if (path.find("libcuda") != std::string::npos || path.find("libnvidia-") != std::string::npos) paths.insert(path);
  }
  json::array list;
  for (const auto& path : paths) list.emplace_back(path);
  say({{"mapped", std::move(list)}});
}

}  // namespace gd::driver_probe
