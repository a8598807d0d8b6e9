// Boost.Process offers vfork only where the headers ask for XPG4.2 and not
// POSIX 2008, which glibc's _GNU_SOURCE never does; vfork itself is there.
#define BOOST_POSIX_HAS_VFORK 1

#include "child/child_runner.h"

#include "child/child_containment.h"
#include "util/interrupt_cleanup.h"
#include "util/result.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <functional>
#include <mutex>
#include <optional>

namespace gd {
namespace bp = boost::process;

namespace {

// How long the pipes are still read after the child has exited: what it
// wrote is in the pipe already; a grandchild that keeps the pipe open (a
// wrapper's helper, a daemon libcuda forked) does not make it unanswered.
constexpr std::chrono::milliseconds k_drain{200};
constexpr std::chrono::milliseconds k_exit_poll{5};
constexpr std::chrono::milliseconds k_exit_backstop{100};

// Reads a pipe until EOF, keeping at most k_max_child_output bytes: the
// first ones, or the last ones (whole lines) for a log. Reading goes on past
// the cap, so a talkative child never blocks on a full pipe, and exactly the
// bytes read are kept (a buffer's unfilled, zeroed reserve never is).
class CappedReader {
 public:
  CappedReader(bp::async_pipe& pipe, std::string& text, OutputKeep keep, bool& truncated, std::function<void()> on_eof)
      : m_pipe(pipe), m_text(text), m_keep(keep), m_truncated(truncated), m_on_eof(std::move(on_eof)) {}

  void start() {
    m_pipe.async_read_some(boost::asio::buffer(m_chunk), [this](const boost::system::error_code& error, std::size_t n) {
      keep(n);
      if (error) {
        m_done = true;
        m_on_eof();
        return;
      }
      start();
    });
  }

  bool done() const { return m_done; }

  // The tail, cut to the cap at a line boundary.
  void finish() {
    if (m_keep != OutputKeep::tail || m_text.size() <= k_max_child_output) return;
    m_text.erase(0, m_text.size() - k_max_child_output);
    if (const auto line = m_text.find('\n'); line != std::string::npos) m_text.erase(0, line + 1);
    m_truncated = true;
  }

 private:
  void keep(std::size_t n) {
    if (m_keep == OutputKeep::head) {
      const std::size_t room = k_max_child_output - m_text.size();
      m_text.append(m_chunk.data(), std::min(n, room));
      if (n > room) m_truncated = true;
      return;
    }
    m_text.append(m_chunk.data(), n);
    if (m_text.size() > 2 * k_max_child_output) {  // trimmed now and then, not on every chunk
      m_text.erase(0, m_text.size() - k_max_child_output);
      m_truncated = true;
    }
  }

  bp::async_pipe& m_pipe;
  std::string& m_text;
  OutputKeep m_keep;
  bool& m_truncated;
  std::function<void()> m_on_eof;
  bool m_done = false;
  std::array<char, 16384> m_chunk{};
};

// Ends the wait once the child has exited: at once when both pipes are at
// EOF, else after k_drain (a grandchild holds them). The exit is seen the
// moment it happens through a pidfd (Linux 5.3), with a slow poll beside it
// should a sandbox's pidfd never wake; where the kernel or a seccomp profile
// refuses one (gVisor, old kernels), by asking every k_exit_poll.
class ExitWatch {
 public:
  ExitWatch(boost::asio::io_context& context, bp::child& child, std::function<bool()> pipes_done)
      : m_context(context), m_child(child), m_pipes_done(std::move(pipes_done)), m_exit(context), m_poll(context), m_drain(context) {}

  void start() {
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, m_child.id(), 0));
    if (pidfd < 0) return poll(k_exit_poll);
    m_exit.assign(pidfd);
    m_exit.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& error) {
      if (error != boost::asio::error::operation_aborted) check(k_exit_poll);  // a traced child may not be reapable yet
    });
    poll(k_exit_backstop);
  }

  // A pipe reached EOF: once both have, after the exit, nothing is left to wait for.
  void pipe_closed() {
    if (!m_exited || !m_pipes_done()) return;
    m_drain.cancel();
    m_context.stop();
  }

 private:
  void poll(std::chrono::milliseconds interval) {
    m_poll.expires_after(interval);  // a wait still pending is cancelled
    m_poll.async_wait([this, interval](const boost::system::error_code& error) {
      if (!error) check(interval);
    });
  }

  void check(std::chrono::milliseconds interval) {
    if (m_exited) return;
    std::error_code running_error;
    if (m_child.running(running_error)) return poll(interval);
    m_exited = true;
    m_poll.cancel();
    if (m_pipes_done()) return m_context.stop();  // explicitly: other timers (the waiting note) may be pending
    m_drain.expires_after(k_drain);
    m_drain.async_wait([this](const boost::system::error_code& cancelled) {
      if (!cancelled) m_context.stop();
    });
  }

  boost::asio::io_context& m_context;
  bp::child& m_child;
  std::function<bool()> m_pipes_done;
  boost::asio::posix::stream_descriptor m_exit;  // the pidfd, closed with the watch
  boost::asio::steady_timer m_poll, m_drain;
  bool m_exited = false;
};

// Children may run on several threads at once (LiveHost asks ahead). What
// they leave behind (orphans reparented here) is stopped when the last one in
// flight has ended, never while another runs: its own end would kill it.
std::mutex& launch_mutex() {
  static std::mutex instance;
  return instance;
}

class InFlight {
 public:
  InFlight() {
    std::lock_guard lock(mutex());
    ++count();
  }
  ~InFlight() {
    std::lock_guard lock(mutex());  // held while stopping: no child starts in between
    if (--count() == 0) stop_adopted_descendants();
  }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  static std::mutex& mutex() {
    static std::mutex instance;
    return instance;
  }
  static int& count() {
    static int instance = 0;
    return instance;
  }
};

}  // namespace

ChildAnswer run_child(const std::vector<std::string>& argv, std::chrono::milliseconds deadline, OutputKeep keep,
                      const std::optional<WaitingNote>& note, const std::function<void(int)>& started) {
  ChildAnswer answer;
  if (argv.empty()) {
    answer.error = "EINVAL";
    return answer;
  }
  const auto program = argv[0].find('/') == std::string::npos ? bp::search_path(argv[0]) : bp::filesystem::path(argv[0]);
  if (program.empty()) {
    answer.error = "ENOENT";
    return answer;
  }
  adopt_orphaned_descendants();
  std::optional<InFlight> in_flight(std::in_place);
  boost::asio::io_context context;
  // Pipes are made and children started one thread at a time, the pipes
  // close-on-exec: a pipe of a child another thread runs must not leak into
  // this one, whose life would then hold that child's answer open.
  std::unique_lock launching(launch_mutex());
  bp::async_pipe out(context);
  bp::async_pipe err(context);
  for (auto* pipe : {&out, &err})
    for (int fd : {pipe->native_source(), pipe->native_sink()}) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
  bp::group group;
  std::error_code launch_error;
  std::optional<DeferInterrupts> until_enrolled(std::in_place);  // a signal now would miss the child
  // vfork, not fork: the child borrows this process's memory until it
  // execs, so nothing is copied, and the threads still reading files here
  // do not fault on every page a fork would have marked copy-on-write. What
  // runs in the child before exec is async-signal-safe: dup2, setpgid,
  // pthread_sigmask.
  bp::child child(program, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_in < bp::null,
                  bp::std_out > out, bp::std_err > err, group, launch_error, bp::posix::use_vfork,
                  bp::extend::on_exec_setup = [](auto&) { unblock_interrupts_in_child(); });
  if (launch_error) {
    answer.error = errno_name(launch_error.value());
    return answer;
  }
  const KillOnInterrupt interrupted(group.native_handle());  // gpudoctor stopped: its child goes too
  until_enrolled.reset();
  launching.unlock();
  if (started) started(group.native_handle());

  // The answer is complete when the child exits, not when every holder of
  // its pipes has closed them.
  std::optional<CappedReader> out_reader, err_reader;
  ExitWatch watch(context, child, [&] { return out_reader->done() && err_reader->done(); });
  out_reader.emplace(out, answer.output, keep, answer.truncated, [&] { watch.pipe_closed(); });
  err_reader.emplace(err, answer.error_output, keep, answer.truncated, [&] { watch.pipe_closed(); });
  out_reader->start();
  err_reader->start();
  watch.start();
  bool noted = false;
  boost::asio::steady_timer slow(context);
  if (note && note->after < deadline) {
    slow.expires_after(note->after);
    slow.async_wait([&](const boost::system::error_code& error) {
      if (error) return;
      const std::string line = "gpudoctor: " + note->text + " (up to " + std::to_string((deadline.count() + 999) / 1000) + " s)...";
      noted = ::write(note->fd, line.data(), line.size()) > 0;
    });
  }
  context.run_for(deadline);
  const bool answered = context.stopped();
  if (noted) (void)!::write(note->fd, "\r\033[K", 4);  // the line erased: what follows starts clean
  out_reader->finish();
  err_reader->finish();

  // Nothing the child started outlives the answer: its process group, then
  // whatever left the group (setsid) and was reparented here.
  std::error_code ignored;
  group.terminate(ignored);
  if (!answered) {
    answer.timed_out = true;
    child.wait(ignored);
    return answer;
  }
  std::error_code wait_error;
  child.wait(wait_error);
  in_flight.reset();
  if (wait_error) return answer;
  const int status = child.native_exit_code();
  if (WIFEXITED(status)) answer.exit = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) answer.signal = WTERMSIG(status);
  return answer;
}

}  // namespace gd
