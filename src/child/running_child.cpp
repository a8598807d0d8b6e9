// Boost.Process offers vfork only where the headers ask for XPG4.2 and not
// POSIX 2008, which glibc's _GNU_SOURCE never does; vfork itself is there.
#define BOOST_POSIX_HAS_VFORK 1

#include "child/running_child.h"

#include "child/child_containment.h"
#include "util/interrupt_cleanup.h"
#include "util/result.h"
#include "util/unique_fd.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <mutex>

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
  CappedReader(bp::async_pipe& pipe, std::string& text, OutputKeep keep, bool& truncated, std::function<void()> on_read)
      : m_pipe(pipe), m_text(text), m_keep(keep), m_truncated(truncated), m_on_read(std::move(on_read)) {}

  void start() {
    m_pipe.async_read_some(boost::asio::buffer(m_chunk), [this](const boost::system::error_code& error, std::size_t n) {
      keep(n);
      if (error) m_done = true;
      else start();
      m_on_read();
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
  std::function<void()> m_on_read;  // after each chunk, and at EOF
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

  bool exited() const { return m_exited; }

  // A pipe was read: once both are at EOF, after the exit, nothing is left to wait for.
  void pipe_read() {
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

struct RunningChild::State {
  explicit State(OutputKeep keep) : keep(keep) {}

  OutputKeep keep;
  std::optional<InFlight> in_flight{std::in_place};
  boost::asio::io_context context;
  bp::async_pipe out{context}, err{context};
  UniqueFd input;  // our end of its stdin, when it has one
  bp::group group;
  std::optional<bp::child> child;
  std::optional<KillOnInterrupt> interrupted;
  std::string output, error_output;
  bool truncated = false;
  std::optional<CappedReader> out_reader, err_reader;
  std::optional<ExitWatch> watch;
  std::function<bool()> complete;  // the present wait's
  bool completed = false;
  bool exited = false;  // a wait saw it exit: no answer comes after
  bool ended = false;

  void read() {
    if (complete && !completed && complete()) {
      completed = true;
      context.stop();
    }
    watch->pipe_read();
  }
};

RunningChild::RunningChild(const std::vector<std::string>& argv, OutputKeep keep, ChildInput input) {
  if (argv.empty()) {
    m_start_error = "EINVAL";
    return;
  }
  const auto program = argv[0].find('/') == std::string::npos ? bp::search_path(argv[0]) : bp::filesystem::path(argv[0]);
  if (program.empty()) {
    m_start_error = "ENOENT";
    return;
  }
  adopt_orphaned_descendants();
  m_state = std::make_unique<State>(keep);
  State& s = *m_state;
  // Pipes are made and children started one thread at a time, every
  // descriptor close-on-exec: a pipe of a child another thread runs must not
  // leak into this one, whose life would then hold that child's answer open.
  std::unique_lock launching(launch_mutex());
  for (auto* pipe : {&s.out, &s.err})
    for (int fd : {pipe->native_source(), pipe->native_sink()}) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
  // A socket, not a pipe, for its stdin: send() with MSG_NOSIGNAL to a child
  // that has gone answers EPIPE instead of killing gpudoctor with SIGPIPE.
  UniqueFd child_input;
  if (input == ChildInput::socket) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
      m_start_error = errno_name(errno);
      m_state.reset();
      return;
    }
    s.input.reset(ends[0]);
    child_input.reset(ends[1]);
  }
  std::error_code launch_error;
  std::optional<DeferInterrupts> until_enrolled(std::in_place);  // a signal now would miss the child
  // vfork, not fork: the child borrows this process's memory until it
  // execs, so nothing is copied, and the threads still reading files here
  // do not fault on every page a fork would have marked copy-on-write. What
  // runs in the child before exec is async-signal-safe: dup2, setpgid,
  // pthread_sigmask.
  const auto launch = [&](auto&& standard_input) {
    s.child.emplace(program, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), standard_input,
                    bp::std_out > s.out, bp::std_err > s.err, s.group, launch_error, bp::posix::use_vfork,
                    bp::extend::on_exec_setup = [](auto&) { unblock_interrupts_in_child(); });
  };
  if (child_input.valid()) launch(bp::posix::fd.bind(STDIN_FILENO, child_input.get()));
  else launch(bp::std_in < bp::null);
  if (launch_error) {
    m_start_error = errno_name(launch_error.value());
    s.child.reset();
    until_enrolled.reset();
    m_state.reset();
    return;
  }
  s.interrupted.emplace(s.group.native_handle());  // gpudoctor stopped: its child goes too
  until_enrolled.reset();
  launching.unlock();

  // An answer is complete when the child exits, not when every holder of
  // its pipes has closed them.
  s.watch.emplace(s.context, *s.child, [&s] { return s.out_reader->done() && s.err_reader->done(); });
  s.out_reader.emplace(s.out, s.output, keep, s.truncated, [&s] { s.read(); });
  s.err_reader.emplace(s.err, s.error_output, keep, s.truncated, [&s] { s.read(); });
  s.out_reader->start();
  s.err_reader->start();
  s.watch->start();
}

RunningChild::~RunningChild() {
  if (!m_state || m_state->ended) return;
  ChildAnswer ignored;
  end(ignored, Waited::timed_out);
}

const std::optional<std::string>& RunningChild::start_error() const { return m_start_error; }
int RunningChild::group() const { return m_state ? m_state->group.native_handle() : -1; }
std::string& RunningChild::output() { return m_state->output; }
std::string& RunningChild::error_output() { return m_state->error_output; }
bool& RunningChild::truncated() { return m_state->truncated; }

Waited RunningChild::wait(std::chrono::milliseconds deadline, const std::function<bool()>& complete,
                          const std::optional<WaitingNote>& note) {
  State& s = *m_state;
  if (s.exited) return Waited::exited;
  s.complete = complete;
  s.completed = false;
  if (complete && complete()) return Waited::complete;  // a whole answer was read with the one before
  bool noted = false;
  boost::asio::steady_timer slow(s.context);
  if (note && note->after < deadline) {
    slow.expires_after(note->after);
    slow.async_wait([&](const boost::system::error_code& error) {
      if (error) return;  // cancelled: touches nothing of this call, which may have returned
      const std::string line = "gpudoctor: " + note->text + " (up to " + std::to_string((deadline.count() + 999) / 1000) + " s)...";
      noted = ::write(note->fd, line.data(), line.size()) > 0;
    });
  }
  s.context.restart();
  s.context.run_for(deadline);
  const bool stopped = s.context.stopped();
  slow.cancel();
  s.complete = nullptr;
  if (noted) (void)!::write(note->fd, "\r\033[K", 4);  // the line erased: what follows starts clean
  if (s.completed) return Waited::complete;
  s.out_reader->finish();
  s.err_reader->finish();
  if (!stopped) return Waited::timed_out;
  s.exited = true;
  return Waited::exited;
}

bool RunningChild::send(std::string_view text) {
  if (!m_state || !m_state->input.valid()) return false;
  for (std::size_t sent = 0; sent < text.size();) {
    const ssize_t n = ::send(m_state->input.get(), text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

void RunningChild::end(ChildAnswer& answer, Waited waited) {
  State& s = *m_state;
  s.ended = true;
  s.input.reset();
  // Nothing the child started outlives the answer: its process group, then
  // whatever left the group (setsid) and was reparented here.
  std::error_code ignored;
  s.group.terminate(ignored);
  if (waited != Waited::exited) {
    answer.timed_out = waited == Waited::timed_out;
    s.child->wait(ignored);
    return;
  }
  std::error_code wait_error;
  s.child->wait(wait_error);
  s.in_flight.reset();
  if (wait_error) return;
  const int status = s.child->native_exit_code();
  if (WIFEXITED(status)) answer.exit = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) answer.signal = WTERMSIG(status);
}

}  // namespace gd
