#include "child/child_runner.h"

#include "util/result.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/process.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>

namespace gd {
namespace bp = boost::process;

namespace {

// Reads a pipe into text chunk by chunk until EOF, an error, or the size
// cap, appending exactly the bytes read (a dynamic buffer left by a child
// stopped mid-read would hold its unfilled, zeroed reserve); a child that
// talks past the cap is stopped rather than left blocked on a full pipe.
class CappedReader {
 public:
  CappedReader(bp::async_pipe& pipe, std::string& text, bp::group& group) : m_pipe(pipe), m_text(text), m_group(group) {}

  void start() {
    m_pipe.async_read_some(boost::asio::buffer(m_chunk), [this](const boost::system::error_code& error, std::size_t n) {
      m_text.append(m_chunk.data(), std::min(n, k_max_child_output - m_text.size()));
      if (error) return;
      if (m_text.size() >= k_max_child_output) {
        std::error_code ignored;
        m_group.terminate(ignored);
        return;
      }
      start();
    });
  }

 private:
  bp::async_pipe& m_pipe;
  std::string& m_text;
  bp::group& m_group;
  std::array<char, 16384> m_chunk{};
};

}  // namespace

ChildAnswer run_child(const std::vector<std::string>& argv, std::chrono::milliseconds deadline) {
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
  boost::asio::io_context context;
  bp::async_pipe out(context);
  bp::async_pipe err(context);
  bp::group group;
  std::error_code launch_error;
  bp::child child(program, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_in < bp::null,
                  bp::std_out > out, bp::std_err > err, group, launch_error);
  if (launch_error) {
    answer.error = errno_name(launch_error.value());
    return answer;
  }
  CappedReader out_reader(out, answer.output, group), err_reader(err, answer.error_output, group);
  out_reader.start();
  err_reader.start();
  context.run_for(deadline);
  if (!context.stopped()) {
    answer.timed_out = true;
    std::error_code ignored;
    group.terminate(ignored);
    child.wait(ignored);
    return answer;
  }
  std::error_code wait_error;
  child.wait(wait_error);
  if (wait_error) return answer;
  const int status = child.native_exit_code();
  if (WIFEXITED(status)) answer.exit = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) answer.signal = WTERMSIG(status);
  return answer;
}

}  // namespace gd
