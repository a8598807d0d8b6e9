#include "probes/device_open.h"

#include "util/text.h"

namespace gd {
namespace {

// "3 open=ok version=550.54.15" -> results[3]; junk lines are ignored.
void read_answer(const std::string& output, std::size_t first, std::vector<DeviceOpenResult>& results) {
  for (auto line : lines(output)) {
    const auto fields = split(line, ' ');
    const auto index = fields.empty() ? std::nullopt : parse_int(fields[0]);
    if (!index || *index < 0 || first + static_cast<std::size_t>(*index) >= results.size()) continue;
    auto& result = results[first + static_cast<std::size_t>(*index)];
    for (std::size_t i = 1; i < fields.size(); ++i) {
      const auto field = fields[i];
      if (field.starts_with("open=")) result.open = printable(field.substr(5), 40);
      if (field.starts_with("version=")) result.driver_version = std::string(field.substr(8, 64));
      if (field.starts_with("ioctl=")) result.ioctl_error = printable(field.substr(6), 40);
    }
  }
}

}  // namespace

void open_device_nodes_ahead(ChildEvidence& children, const std::vector<std::string>& paths, std::chrono::milliseconds deadline) {
  if (!paths.empty()) children.ask_ahead({ChildKind::device_open, paths, deadline});
}

std::vector<DeviceOpenResult> open_device_nodes(ChildEvidence& children, const std::vector<std::string>& paths,
                                                std::chrono::milliseconds deadline) {
  std::vector<DeviceOpenResult> results;
  for (const auto& path : paths) results.push_back({path, std::nullopt, std::nullopt, std::nullopt});
  std::size_t first = 0;
  while (first < paths.size()) {
    const ChildRequest request{ChildKind::device_open, {paths.begin() + static_cast<long>(first), paths.end()}, deadline};
    const auto answer = children.ask(request);
    read_answer(answer.output, first, results);
    if (!answer.timed_out) break;  // done, or the child could not run: the rest stay "not tried"
    while (first < paths.size() && results[first].open) ++first;
    if (first == paths.size()) break;
    results[first++].open = "ETIMEDOUT";  // this open hung: the driver may be wedged
  }
  return results;
}

}  // namespace gd
