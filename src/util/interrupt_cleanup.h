#pragma once
// What an interrupted gpudoctor leaves behind: nothing. From the first
// child or file enrolled below, SIGINT, SIGTERM and SIGHUP are taken by one
// thread (the thread that enrols first blocks them, and ChildrenAhead blocks
// them before it starts a worker, so every thread inherits the block),
// which removes the staging directory or temporary file being written and
// kills the process group of the child being asked, then ends the process
// with the same signal, so the shell sees what it sent. Until then nothing
// needs cleaning, and the signals' default action is right (a run that
// starts no child costs no thread).

#include <sys/types.h>

#include <mutex>
#include <string>

namespace gd {

// Starts the thread now, in this process, if it has none (the enrolling
// classes below call it). Children get the signal mask they would have had
// without it (run_child restores it before exec).
void install_interrupt_cleanup();

// The signals install_interrupt_cleanup blocks; a child unblocks them.
void unblock_interrupts_in_child();

// While one lives, an interrupt's clean-up waits: it spans starting a child
// and enrolling its process group, which is only known once it runs.
class DeferInterrupts {
 public:
  DeferInterrupts();

 private:
  std::unique_lock<std::recursive_mutex> m_lock;
};

// While one lives, an interrupt first kills this process group.
class KillOnInterrupt {
 public:
  explicit KillOnInterrupt(pid_t group);
  ~KillOnInterrupt();
  KillOnInterrupt(const KillOnInterrupt&) = delete;
  KillOnInterrupt& operator=(const KillOnInterrupt&) = delete;

 private:
  pid_t m_group;
};

// While one lives, an interrupt first removes this path (a directory with all below it).
class RemoveOnInterrupt {
 public:
  explicit RemoveOnInterrupt(std::string path);
  ~RemoveOnInterrupt();
  RemoveOnInterrupt(const RemoveOnInterrupt&) = delete;
  RemoveOnInterrupt& operator=(const RemoveOnInterrupt&) = delete;

 private:
  std::string m_path;
};

}  // namespace gd
