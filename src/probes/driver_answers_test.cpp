#include "probes/driver_answers.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

std::vector<gd::ChildKind> kinds(const std::vector<gd::ChildRequest>& requests) {
  std::vector<gd::ChildKind> out;
  for (const auto& request : requests) out.push_back(request.kind);
  return out;
}

}  // namespace

TEST_CASE("children asked ahead: the driver's first, the slowest first; the device opens after them, once") {
  using gd::ChildKind;
  gd::FakeHost host;
  gd::DriverAnswers answers;
  // The device-nodes layer asks its opens before the driver-libs layer plans the driver's children.
  answers.open_nodes_ahead(host, {"/dev/nvidiactl", "/dev/nvidia0"});
  CHECK(host.asked_ahead.empty());
  answers.begin(host, {.nvidia_smi = "/usr/bin/nvidia-smi", .cuda = true, .smoke = false, .nvml = true, .nvml_first = false});
  CHECK(kinds(host.asked_ahead) ==
        std::vector{ChildKind::driver_probe, ChildKind::driver_probe, ChildKind::command, ChildKind::command, ChildKind::device_open});

  // --no-probe: nvidia-smi's two calls, then the opens.
  gd::FakeHost no_probe;
  gd::DriverAnswers smi_only;
  smi_only.open_nodes_ahead(no_probe, {"/dev/nvidiactl"});
  smi_only.begin(no_probe, {.nvidia_smi = "/usr/bin/nvidia-smi"});
  CHECK(kinds(no_probe.asked_ahead) == std::vector{ChildKind::command, ChildKind::command, ChildKind::device_open});

  // Opens asked after the driver's children began start at once; opens taken before begin are not asked again.
  gd::FakeHost later;
  gd::DriverAnswers began;
  began.begin(later, {});
  began.open_nodes_ahead(later, {"/dev/nvidiactl"});
  CHECK(kinds(later.asked_ahead) == std::vector{ChildKind::device_open});
  gd::FakeHost taken;
  gd::DriverAnswers early;
  early.open_nodes_ahead(taken, {"/dev/nvidiactl"});
  (void)early.device_opens();
  early.begin(taken, {});
  CHECK(taken.asked_ahead.empty());
}
