#pragma once
// What an interrupted gpudoctor leaves behind: nothing. SIGINT, SIGTERM and
// SIGHUP are taken by one thread (the others block them), which kills the
// process group of the child being asked and removes the staging directory
// or temporary file being written, then ends the process with the same
// signal, so the shell sees what it sent.

#include <sys/types.h>

#include <string>

namespace gd {

// Once, first thing in main. Children get the signal mask they would have
// had without it (run_child restores it before exec).
void install_interrupt_cleanup();

// The signals install_interrupt_cleanup blocks; a child unblocks them.
void unblock_interrupts_in_child();

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
