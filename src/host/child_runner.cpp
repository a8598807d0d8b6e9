#include "host/child_runner.h"

#include "util/result.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/process.hpp>

#include <sys/wait.h>

namespace gd {
namespace bp = boost::process;

namespace {

// Reads a pipe into text until EOF, an error, or the size cap; a child
// that talks past the cap is stopped rather than left blocked on a full pipe.
void read_capped(bp::async_pipe& pipe, std::string& text, bp::group& group) {
  boost::asio::async_read(pipe, boost::asio::dynamic_buffer(text, k_max_child_output),
                          [&text, &group](const boost::system::error_code&, std::size_t) {
                            std::error_code ignored;
                            if (text.size() >= k_max_child_output) group.terminate(ignored);
                          });
}

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
  read_capped(out, answer.output, group);
  read_capped(err, answer.error_output, group);
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
