#pragma once
// Processes a test starts and watches: the pid a helper wrote, and whether
// a process is still running (not a zombie).

#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace gd {

// The pid a helper wrote to a file, once it is there (0 after 2 s).
inline pid_t helper_pid(const std::string& file) {
  for (int tries = 0; tries < 200; ++tries) {
    std::ifstream in(file);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

// A killed process is a zombie until its (new) parent reaps it: the test,
// once run_child made it a subreaper, else init, which may never do so here.
inline bool alive(pid_t pid) {
  ::waitpid(pid, nullptr, WNOHANG);
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

}  // namespace gd
