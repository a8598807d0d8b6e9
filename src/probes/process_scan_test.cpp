#include "probes/process_scan.h"

#include "probes/kernel_log.h"
#include "test_support/fake_host.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

namespace {

// A process as /proc shows it; fd: the links of its open files.
void process(gd::FakeHost& host, int pid, const std::string& stat, std::vector<std::string> fds = {}, std::string wchan = "0") {
  const std::string dir = "/proc/" + std::to_string(pid);
  host.file(dir + "/stat", stat).file(dir + "/wchan", wchan);
  for (std::size_t i = 0; i < fds.size(); ++i) host.link(dir + "/fd/" + std::to_string(i), fds[i]);
}

}  // namespace

TEST_CASE("process scan: /proc/PID/stat's command ends at the last parenthesis") {
  const auto stat = gd::parse_proc_stat("4242 (python (worker) 1) D 17 4242 4242 0 -1");
  REQUIRE(stat);
  CHECK(stat->command == "python (worker) 1");
  CHECK(stat->state == 'D');
  CHECK(stat->parent == 17);
  CHECK_FALSE(gd::parse_proc_stat("4242 (python"));
  CHECK_FALSE(gd::parse_proc_stat("4242 (python) "));
  CHECK_FALSE(gd::parse_proc_stat(""));
  CHECK(gd::parse_proc_stat("1 (\x1b[31mred) S 0")->command.find('\x1b') == std::string::npos);
}

TEST_CASE("process scan: the driver's own functions, not the kernel's") {
  CHECK(gd::is_driver_function("uvm_spin_loop"));
  CHECK(gd::is_driver_function("os_acquire_mutex"));
  CHECK(gd::is_driver_function("_nv012345rm"));
  CHECK_FALSE(gd::is_driver_function("do_select"));
  CHECK_FALSE(gd::is_driver_function("down"));
  CHECK_FALSE(gd::is_driver_function("nfs_wait_on_request"));
}

TEST_CASE("process scan: a D-state process in the driver is stuck; one elsewhere, or sleeping, is not") {
  gd::FakeHost host;
  process(host, 1, "1 (systemd) S 0");
  process(host, 300, "300 (python) D 1", {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia0", "/tmp/log"});
  process(host, 301, "301 (nvidia-smi) D 1", {}, "os_acquire_mutex\n");
  process(host, 302, "302 (rsync) D 1", {"/srv/data"}, "nfs_wait_on_request");  // D on NFS: not the driver's
  process(host, 303, "303 (python) S 1", {"/dev/nvidia1"});
  host.file("/proc/self/stat", "999 (gpudoctor) R 1").file("/proc/cpuinfo", "");
  const auto facts = gd::scan_processes(host, nullptr, nullptr, true);
  CHECK(facts.scan == "ok");
  CHECK(facts.processes == 5);
  CHECK(facts.uninterruptible == 3);
  REQUIRE(facts.stuck_in_driver.size() == 2);
  CHECK(facts.stuck_in_driver[0].pid == 300);
  CHECK(facts.stuck_in_driver[0].nodes == std::vector<std::string>{"/dev/nvidia0", "/dev/nvidiactl"});
  CHECK_FALSE(facts.stuck_in_driver[0].wchan);
  CHECK(facts.stuck_in_driver[1].command == "nvidia-smi");
  CHECK(facts.stuck_in_driver[1].wchan == "os_acquire_mutex");
  CHECK_FALSE(facts.stuck_in_driver[1].hung_seconds);
}

TEST_CASE("process scan: the kernel's hung-task report gives how long, for the same task in the driver") {
  gd::FakeHost host;
  process(host, 4242, "4242 (python) D 1", {"/dev/nvidia-uvm"});
  const auto log = gd::parse_kernel_log(
      "[ 2400.1] INFO: task python:4242 blocked for more than 120 seconds.\n"
      "[ 2400.1]       Tainted: P           OE     6.8.0-45-generic\n"
      "[ 2400.1] task:python          state:D stack:0     pid:4242  ppid:1      flags:0x00004002\n"
      "[ 2400.1] Call Trace:\n"
      "[ 2400.1]  <TASK>\n"
      "[ 2400.1]  __schedule+0x27c/0x6b0\n"
      "[ 2400.1]  uvm_va_space_destroy+0x1a4/0x3c0 [nvidia_uvm]\n"
      "[ 2400.1]  </TASK>\n"
      "[ 2520.1] INFO: task python:4242 blocked for more than 241 seconds.\n"
      "[ 2520.2] INFO: task kcompactd0:77 blocked for more than 120 seconds.\n"
      "[ 2520.2]  __schedule+0x27c/0x6b0\n"
      "[ 2520.2]  </TASK>\n"
      "[ 2530.0]  os_acquire_mutex+0x10/0x20 [nvidia]\n",
      gd::builtin_tables().cuda);
  REQUIRE(log.hung_tasks.size() == 2);
  CHECK(log.hung_tasks[0].command == "python");
  CHECK(log.hung_tasks[0].count == 2);
  CHECK(log.hung_tasks[0].seconds == 241);
  CHECK(log.hung_tasks[0].in_driver);
  CHECK_FALSE(log.hung_tasks[1].in_driver);  // a frame after its trace ended is not its own
  const auto facts = gd::scan_processes(host, &log, nullptr, true);
  REQUIRE(facts.stuck_in_driver.size() == 1);
  CHECK(facts.stuck_in_driver[0].hung_seconds == 241);
}

TEST_CASE("process scan: a zombie NVML lists on a GPU, with its parent; only on the host") {
  gd::FakeHost host;
  process(host, 50, "50 (jupyter) S 1");
  process(host, 51, "51 (python) Z 50");
  process(host, 52, "52 (python) S 50");
  gd::NvmlProbeFacts nvml;
  nvml.devices.resize(2);
  nvml.devices[1].index = 1;
  nvml.devices[1].process_list = std::vector<gd::GpuProcessFacts>{{.pid = 51, .name = "python", .used_mib = 30000},
                                                                   {.pid = 52, .name = "python", .used_mib = 100},
                                                                   {.pid = 53, .name = "gone", .used_mib = 1}};
  const auto facts = gd::scan_processes(host, nullptr, &nvml, true);
  REQUIRE(facts.gpu_zombies.size() == 1);
  CHECK(facts.gpu_zombies[0].pid == 51);
  CHECK(facts.gpu_zombies[0].gpu == 1);
  CHECK(facts.gpu_zombies[0].used_mib == 30000);
  CHECK(facts.gpu_zombies[0].parent == 50);
  CHECK(facts.gpu_zombies[0].parent_command == "jupyter");
  CHECK(gd::scan_processes(host, nullptr, &nvml, false).gpu_zombies.empty());  // a container's PIDs are not NVML's
}

TEST_CASE("process scan: no /proc is said, not guessed") {
  gd::FakeHost host;
  host.file("/etc/hostname", "x");
  const auto facts = gd::scan_processes(host, nullptr, nullptr, true);
  CHECK(facts.scan != "ok");
  CHECK(facts.processes == 0);
}

TEST_CASE("process scan: a D-state process gone or awake when read again (gpudoctor's own child) is not counted") {
  gd::FakeHost host;
  process(host, 700, "700 (python) S 1", {"/dev/nvidia0"});  // was in D during the first pass, awake now
  gd::ProcessStates states{.scan = "ok", .processes = 3, .candidates = {{700, "python"}, {701, "gpudoctor"}}, .cut = {}};
  const auto facts = gd::finish_process_scan(host, states, nullptr, nullptr, true);
  CHECK(facts.processes == 3);
  CHECK(facts.uninterruptible == 0);
  CHECK(facts.stuck_in_driver.empty());
}

TEST_CASE("process scan: one walk also finds a named daemon, and says so only where every process was seen") {
  const std::string_view named[] = {"nv-fabricmanage"};
  gd::FakeHost host;
  process(host, 1, "1 (systemd) S 0");
  process(host, 2817, "2817 (nv-fabricmanage) S 1");
  process(host, 2900, "2900 (nv-fabricmanage) S 1");  // a second one: the first found is named
  auto states = gd::read_process_states(host, named);
  CHECK(states.complete);
  REQUIRE(states.find_named("nv-fabricmanage"));
  CHECK(states.find_named("nv-fabricmanage")->pid == 2817);
  CHECK_FALSE(states.find_named("nvidia-persiste"));

  gd::FakeHost hidden;  // hidepid: pid 1 is not listed, so a daemon not seen may still run
  process(hidden, 4000, "4000 (python) S 1");
  states = gd::read_process_states(hidden, named);
  CHECK_FALSE(states.complete);
  CHECK_FALSE(states.find_named("nv-fabricmanage"));
}
