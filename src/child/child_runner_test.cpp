#include "child/child_runner.h"

#include "test_support/processes.h"
#include "test_support/temp_dir.h"
#include "util/interrupt_cleanup.h"

#include <doctest/doctest.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace std::chrono_literals;

using gd::alive;
using gd::helper_pid;

TEST_CASE("run_child captures output and the exit status") {
  auto answer = gd::run_child({"sh", "-c", "echo out; echo err >&2; exit 3"}, 5s);
  CHECK_FALSE(answer.timed_out);
  REQUIRE(answer.exit);
  CHECK(*answer.exit == 3);
  CHECK(answer.output == "out\n");
  CHECK(answer.error_output == "err\n");
}

TEST_CASE("run_child kills a child that outlives its deadline, with its process group") {
  const auto start = std::chrono::steady_clock::now();
  auto answer = gd::run_child({"sh", "-c", "sleep 30 & sleep 30"}, 300ms);
  CHECK(answer.timed_out);
  CHECK_FALSE(answer.exit);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("run_child names the signal of a child that crashed") {
  auto answer = gd::run_child({"sh", "-c", "kill -SEGV $$"}, 5s);
  CHECK_FALSE(answer.exit);
  REQUIRE(answer.signal);
  CHECK(*answer.signal == SIGSEGV);
}

TEST_CASE("run_child reports a missing program instead of throwing") {
  auto answer = gd::run_child({"gpudoctor-no-such-program"}, 1s);
  CHECK(answer.error == "ENOENT");
}

TEST_CASE("a program that cannot be executed answers the errno of its exec, in the child") {
  // The exec fails in the (vforked) child; its errno must still reach the answer.
  gd::TempDir dir;
  CHECK(gd::run_child({dir.path() + "/absent"}, 1s).error == "ENOENT");
  const auto plain = dir.path() + "/plain";
  std::ofstream(plain) << "#!/bin/sh\necho never\n";
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  CHECK(gd::run_child({plain}, 1s).error == "EACCES");
  const auto junk = dir.path() + "/junk";
  std::ofstream(junk) << "\x7f" "ELF but not really";
  std::filesystem::permissions(junk, std::filesystem::perms::owner_all);
  const auto answer = gd::run_child({junk}, 1s);
  CHECK(answer.error == "ENOEXEC");
  CHECK_FALSE(answer.exit);
}

TEST_CASE("output past the cap is read and dropped, not a reason to kill the child") {
  auto answer = gd::run_child({"sh", "-c", "head -c 3000000 /dev/zero; echo done >&2"}, 10s);
  CHECK_FALSE(answer.signal);  // it used to be SIGKILLed at the cap and read as a crash
  REQUIRE(answer.exit);
  CHECK(*answer.exit == 0);
  CHECK(answer.truncated);
  CHECK(answer.output.size() == gd::k_max_child_output);
  CHECK(answer.error_output == "done\n");
}

TEST_CASE("a log past the cap keeps its newest lines, whole") {
  auto answer = gd::run_child({"seq", "1", "400000"}, 10s, gd::OutputKeep::tail);
  REQUIRE(answer.exit);
  CHECK(answer.truncated);
  CHECK(answer.output.size() <= gd::k_max_child_output);
  CHECK(answer.output.ends_with("\n399999\n400000\n"));
  const auto first = answer.output.substr(0, answer.output.find('\n'));
  CHECK(std::stoi(first) + 1 == std::stoi(answer.output.substr(first.size() + 1, answer.output.find('\n', first.size() + 1))));
  auto short_log = gd::run_child({"seq", "1", "3"}, 10s, gd::OutputKeep::tail);
  CHECK(short_log.output == "1\n2\n3\n");
  CHECK_FALSE(short_log.truncated);
}

TEST_CASE("the answer counts when the child exits, though a grandchild keeps its output open") {
  const auto start = std::chrono::steady_clock::now();
  auto answer = gd::run_child({"sh", "-c", "echo answer; sleep 30 & exit 0"}, 10s);
  CHECK_FALSE(answer.timed_out);  // it used to wait for EOF and call the driver wedged
  REQUIRE(answer.exit);
  CHECK(*answer.exit == 0);
  CHECK(answer.output == "answer\n");
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}


TEST_CASE("a helper that left the process group (setsid) does not outlive the child") {
  gd::TempDir dir;
  const std::string pid_file = dir / "helper.pid";
  const std::string helper = "setsid sh -c 'echo $$ > " + pid_file + "; exec sleep 300' </dev/null >/dev/null 2>&1 &";
  SUBCASE("the child exits") {
    auto answer = gd::run_child({"sh", "-c", helper + " sleep 0.3; echo ok"}, 10s);
    CHECK(answer.output == "ok\n");
    const pid_t pid = helper_pid(pid_file);
    REQUIRE(pid > 0);
    CHECK_FALSE(alive(pid));
  }
  SUBCASE("the child is stopped at its deadline") {
    auto answer = gd::run_child({"sh", "-c", helper + " sleep 30"}, 800ms);
    CHECK(answer.timed_out);
    const pid_t pid = helper_pid(pid_file);
    REQUIRE(pid > 0);
    CHECK_FALSE(alive(pid));
  }
}

TEST_CASE("a child stopped at its deadline leaves exactly the bytes it wrote, no padding") {
  auto answer = gd::run_child({"sh", "-c", "printf 'partial answer'; sleep 30"}, 500ms);
  CHECK(answer.timed_out);
  CHECK(answer.output == "partial answer");
  CHECK(answer.error_output.empty());
}

TEST_CASE("gpudoctor stopped by SIGTERM kills the child it was asking and removes what it was writing") {
  gd::TempDir dir;
  const std::string staging = dir / "out.tar.gz.staging", pid_file = dir / "child.pid";
  const pid_t tool = ::fork();
  REQUIRE(tool >= 0);
  if (tool == 0) {  // the tool: mid-snapshot, asking a child that hangs
    gd::install_interrupt_cleanup();
    std::filesystem::create_directories(staging + "/root/proc");
    const gd::RemoveOnInterrupt cleanup(staging);
    gd::run_child({"sh", "-c", "echo $$ > " + pid_file + "; exec sleep 300"}, 60s);
    std::_Exit(0);
  }
  const pid_t asked = helper_pid(pid_file);
  REQUIRE(asked > 0);
  ::kill(tool, SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(tool, &status, 0) == tool);
  CHECK(WIFSIGNALED(status));  // it dies of the signal it was sent, as the shell expects
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK_FALSE(std::filesystem::exists(staging));
  for (int tries = 0; tries < 100 && alive(asked); ++tries) std::this_thread::sleep_for(10ms);
  CHECK_FALSE(alive(asked));
}

TEST_CASE("a slow child gets a waiting note, erased when it answers; a quick one gets none") {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const gd::WaitingNote note{"waiting for nvidia-smi -q", pipe_fds[1], 100ms};
  const auto slow = gd::run_child({"sh", "-c", "sleep 0.5; echo done"}, 5s, gd::OutputKeep::head, note);
  CHECK(slow.output == "done\n");  // the note goes to its own descriptor, never into the answer
  const auto quick = gd::run_child({"true"}, 5s, gd::OutputKeep::head, note);
  CHECK(quick.exit == 0);
  ::close(pipe_fds[1]);
  std::string written;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) written.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  CHECK(written == "gpudoctor: waiting for nvidia-smi -q (up to 5 s)...\r\033[K");  // once: the quick child added nothing
}

TEST_CASE("where pidfd_open is refused (gVisor, old kernels, a seccomp profile), a child's exit is still seen by polling") {
  // In a process of its own, whose seccomp filter answers ENOSYS to pidfd_open.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog filter{static_cast<unsigned short>(sizeof(program) / sizeof(program[0])), program};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) ::_exit(3);
    if (::syscall(SYS_pidfd_open, ::getpid(), 0) >= 0 || errno != ENOSYS) ::_exit(4);  // the filter holds
    const auto start = std::chrono::steady_clock::now();
    // A grandchild keeps the pipes open, so only the exit itself ends the wait.
    const auto answer = gd::run_child({"sh", "-c", "sleep 30 & echo polled; exit 7"}, 5s);
    const bool quick = std::chrono::steady_clock::now() - start < 2s;  // seen by the poll, not at the deadline
    ::_exit(answer.exit == 7 && answer.output == "polled\n" && !answer.timed_out && quick ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
