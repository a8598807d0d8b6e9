#include "probes/allocation.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

gd::NodeFacts node(std::string path, const char* open) {
  gd::NodeFacts node;
  node.path = std::move(path);
  node.type = gd::FileType::char_device;
  node.access = gd::NodeAccess::rw;
  node.open = std::string(open);
  return node;
}

// nvidiactl, then a GPU node for each open result.
std::vector<gd::NodeFacts> nodes(std::initializer_list<const char*> opens) {
  std::vector<gd::NodeFacts> out{node("/dev/nvidiactl", "ok")};
  int minor = 0;
  for (const char* open : opens) out.push_back(node("/dev/nvidia" + std::to_string(minor++), open));
  return out;
}

gd::FakeHost slurm_job(const char* job_gpus) {
  gd::FakeHost host;
  host.env_var("SLURM_JOB_ID", "4711");
  host.file("/proc/self/cgroup", "0::/system.slice/slurmstepd.scope/job_4711/step_batch/user/task_0\n");
  if (job_gpus) host.env_var("SLURM_JOB_GPUS", job_gpus);
  return host;
}

}  // namespace

TEST_CASE("allocation: a Slurm job given one GPU; EPERM on the others is outside the allocation") {
  auto host = slurm_job("2");
  auto list = nodes({"EPERM", "EPERM", "ok", "EPERM"});
  const auto facts = gd::read_allocation(host, {}, list);
  CHECK(facts.by == gd::Allocator::slurm);
  CHECK(facts.job_id == "4711");
  CHECK(facts.gpus == "2");
  CHECK(facts.gpu_count == 1);
  CHECK(facts.gpus_opened == 1);
  CHECK(facts.gpus_refused == 3);
  CHECK(facts.honoured == true);
  CHECK(list[1].allocated == false);
  CHECK(list[3].allocated == true);
  CHECK(!list[0].allocated);  // nvidiactl is no GPU
}

TEST_CASE("allocation: a GPU Slurm gave that is refused leaves the refusals unplaced (a fault, not the design)") {
  auto host = slurm_job("1,3");
  auto list = nodes({"EPERM", "EPERM", "ok", "EPERM"});
  const auto facts = gd::read_allocation(host, {}, list);
  CHECK(facts.gpu_count == 2);
  CHECK(facts.honoured == false);
  for (const auto& node : list) CHECK(!node.allocated);
}

TEST_CASE("allocation: a Slurm job given no GPU; its variables unset, or Slurm 18's NoDevFiles") {
  SUBCASE("unset") {
    auto host = slurm_job(nullptr);
    auto list = nodes({"EPERM", "EPERM"});
    const auto facts = gd::read_allocation(host, {}, list);
    CHECK(facts.gpu_count == 0);
    CHECK(list[1].allocated == false);
    CHECK(list[2].allocated == false);
  }
  SUBCASE("NoDevFiles") {
    auto host = slurm_job("NoDevFiles");
    auto list = nodes({"EPERM"});
    CHECK(gd::read_allocation(host, {}, list).gpu_count == 0);
  }
  SUBCASE("the step's list outranks the job's, and ranges count each GPU") {
    auto host = slurm_job("0-3");
    host.env_var("SLURM_STEP_GPUS", "0-1");
    auto list = nodes({"ok", "ok", "EPERM", "EPERM"});
    const auto facts = gd::read_allocation(host, {}, list);
    CHECK(facts.gpu_count == 2);
    CHECK(facts.honoured == true);
  }
}

TEST_CASE("allocation: the cgroup alone says Slurm (pam_slurm_adopt, cgroup v1); nothing says so on a plain host") {
  gd::FakeHost adopted;
  adopted.file("/proc/self/cgroup", "5:devices:/slurm/uid_1000/job_99/step_extern/task_0\n");
  auto list = nodes({"ok"});
  CHECK(gd::read_allocation(adopted, {}, list).by == gd::Allocator::slurm);
  gd::FakeHost plain;
  plain.file("/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-3.scope\n");
  auto host_nodes = nodes({"EPERM"});
  const auto facts = gd::read_allocation(plain, {}, host_nodes);
  CHECK(facts.by == gd::Allocator::none);
  CHECK(facts.gpus_refused == 1);
  CHECK(!host_nodes[1].allocated);  // no allocator: an EPERM stays a fault for the rules
}

TEST_CASE("allocation: a pod the device plugin gave GPUs by UUID") {
  gd::FakeHost host;
  gd::ContainerFacts container;
  container.runtime = gd::ContainerRuntime::kubernetes;
  container.visible_devices.mode = gd::VisibleMode::list;
  container.visible_devices.value = "GPU-aaaa,GPU-bbbb";
  container.visible_devices.entries = std::vector<gd::DeviceSelector>{{"GPU-aaaa", gd::SelectorKind::gpu_uuid}, {"GPU-bbbb", gd::SelectorKind::gpu_uuid}};
  auto list = nodes({"ok", "ok"});
  const auto facts = gd::read_allocation(host, container, list);
  CHECK(facts.by == gd::Allocator::kubernetes);
  CHECK(facts.gpu_count == 2);
  CHECK(facts.honoured == true);
}
