#include "host/command_runner.h"

#include "util/result.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/process.hpp>

#include <cerrno>

namespace gd {
namespace bp = boost::process;

namespace {

// Reads a pipe into text until EOF, an error, or the size cap; a command
// that talks past the cap is stopped rather than left blocked on a full pipe.
void read_capped(bp::async_pipe& pipe, std::string& text, bp::group& group) {
  boost::asio::async_read(pipe, boost::asio::dynamic_buffer(text, k_max_command_output),
                          [&text, &group](const boost::system::error_code&, std::size_t) {
                            std::error_code ignored;
                            if (text.size() >= k_max_command_output) group.terminate(ignored);
                          });
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  CommandResult result;
  result.argv = argv;
  if (argv.empty()) {
    result.error = "EINVAL";
    return result;
  }
  const auto program = argv[0].find('/') == std::string::npos ? bp::search_path(argv[0]) : bp::filesystem::path(argv[0]);
  if (program.empty()) {
    result.error = "ENOENT";
    return result;
  }
  boost::asio::io_context context;
  bp::async_pipe out(context);
  bp::async_pipe err(context);
  bp::group group;
  std::error_code launch_error;
  bp::child child(program, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_in.close(),
                  bp::std_out > out, bp::std_err > err, group, launch_error);
  if (launch_error) {
    result.error = errno_name(launch_error.value());
    return result;
  }
  read_capped(out, result.stdout_text, group);
  read_capped(err, result.stderr_text, group);
  context.run_for(timeout);
  if (!context.stopped()) {
    result.timed_out = true;
    std::error_code ignored;
    group.terminate(ignored);
    child.wait(ignored);
    return result;
  }
  std::error_code wait_error;
  child.wait(wait_error);
  if (!wait_error) result.exit = child.exit_code();
  return result;
}

}  // namespace gd
