#include "util/interrupt_cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

namespace gd {

namespace {

struct Registry {
  std::recursive_mutex mutex;  // recursive: a DeferInterrupts holds it while its thread enrols
  std::vector<pid_t> groups;
  std::vector<std::string> paths;
  pid_t watched_by = 0;  // the process whose thread takes the signals (a fork has none until it starts one)
};

Registry& registry() {
  static Registry instance;
  return instance;
}

sigset_t interrupt_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, signal);
  return signals;
}

// The lock is held until the process is gone: the thread that was waiting
// for the child sees it die and would return and exit with its own status,
// but leaving run_child (or a write) means withdrawing, which waits on it.
[[noreturn]] void clean_up_and_die(int signal) {
  registry().mutex.lock();
  for (const auto& path : registry().paths) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  for (pid_t group : registry().groups) ::kill(-group, SIGKILL);
  // Die of the same signal: its default action, now that this thread takes it.
  ::signal(signal, SIG_DFL);
  const sigset_t signals = interrupt_signals();
  ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  ::raise(signal);
  std::_Exit(128 + signal);
}


// Called with the registry locked.
void start_watching() {
  if (registry().watched_by == ::getpid()) return;
  const sigset_t signals = interrupt_signals();
  sigset_t before;
  if (::pthread_sigmask(SIG_BLOCK, &signals, &before) != 0) return;
  try {
    std::thread([signals] {
      int signal = 0;
      while (::sigwait(&signals, &signal) != 0) {
      }
      clean_up_and_die(signal);
    }).detach();
  } catch (...) {
    // No watcher: the signals keep their default action rather than be lost.
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    throw;
  }
  registry().watched_by = ::getpid();
}

}  // namespace

void install_interrupt_cleanup() {
  std::lock_guard lock(registry().mutex);
  start_watching();
}

DeferInterrupts::DeferInterrupts() : m_lock(registry().mutex) { start_watching(); }

void unblock_interrupts_in_child() {
  const sigset_t signals = interrupt_signals();
  ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
}

namespace {

template <class T>
void enrol(std::vector<T> Registry::*list, const T& value) {
  std::lock_guard lock(registry().mutex);
  start_watching();
  (registry().*list).push_back(value);
}

template <class T>
void withdraw(std::vector<T> Registry::*list, const T& value) {
  std::lock_guard lock(registry().mutex);
  auto& values = registry().*list;
  if (const auto found = std::find(values.begin(), values.end(), value); found != values.end()) values.erase(found);
}

}  // namespace

KillOnInterrupt::KillOnInterrupt(pid_t group) : m_group(group) { enrol(&Registry::groups, m_group); }
KillOnInterrupt::~KillOnInterrupt() { withdraw(&Registry::groups, m_group); }

RemoveOnInterrupt::RemoveOnInterrupt(std::string path) : m_path(std::move(path)) { enrol(&Registry::paths, m_path); }
RemoveOnInterrupt::~RemoveOnInterrupt() { withdraw(&Registry::paths, m_path); }

}  // namespace gd
