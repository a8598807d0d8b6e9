#include "probes/nvidia_smi.h"

#include "probes/child_ending.h"
#include "util/text.h"

#include <cctype>
#include <csignal>

namespace gd {
namespace {

// nvidia-smi --help-query-gpu names these; compute_cap exists from 510 on,
// so an older driver is asked again without it.
constexpr const char* k_fields_with_cc =
    "index,driver_version,name,uuid,pci.bus_id,compute_cap,memory.total,memory.used,mig.mode.current,persistence_mode,compute_mode";
constexpr const char* k_fields_without_cc =
    "index,driver_version,name,uuid,pci.bus_id,memory.total,memory.used,mig.mode.current,persistence_mode,compute_mode";
constexpr std::size_t k_max_gpus = 1024;

std::optional<std::string> value_of(std::string_view field) {
  const auto text = trim(field);
  if (text.empty() || text == "[N/A]" || text == "[Not Supported]" || text == "N/A" || text == "[Unknown Error]")
    return std::nullopt;
  return printable(text, 120);
}

std::string first_line(const std::string& text) {
  const auto all = lines(text);
  for (auto line : all)
    if (!trim(line).empty()) return printable(trim(line), 200);
  return {};
}

std::vector<std::string> query_argv(const std::string& program, bool with_cc) {
  return {program, std::string("--query-gpu=") + (with_cc ? k_fields_with_cc : k_fields_without_cc),
          "--format=csv,noheader,nounits"};
}

}  // namespace

std::optional<std::string> cuda_version_in_header(std::string_view text) {
  constexpr std::string_view k_label = "CUDA Version:";
  const auto at = text.find(k_label);
  if (at == std::string_view::npos) return std::nullopt;
  auto rest = trim(text.substr(at + k_label.size(), 16));
  std::size_t length = 0;
  while (length < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[length])) || rest[length] == '.')) ++length;
  if (length == 0) return std::nullopt;
  return std::string(rest.substr(0, length));
}

SmiGpu parse_smi_gpu_line(std::string_view line, bool with_compute_cap) {
  const auto fields = split(line, ',');
  SmiGpu gpu;
  std::size_t at = 0;
  auto next = [&]() -> std::optional<std::string> { return at < fields.size() ? value_of(fields[at++]) : std::nullopt; };
  if (auto index = next()) gpu.index = parse_int(*index);
  gpu.driver_version = next();
  gpu.name = next();
  gpu.uuid = next();
  gpu.bus_id = next();
  if (with_compute_cap) gpu.compute_capability = next();
  if (auto total = next()) gpu.memory_total_mib = parse_int(*total);
  if (auto used = next()) gpu.memory_used_mib = parse_int(*used);
  gpu.mig_mode = next();
  gpu.persistence_mode = next();
  gpu.compute_mode = next();
  return gpu;
}

NvidiaSmiFacts run_nvidia_smi(ChildEvidence& children, const std::string& program, std::chrono::milliseconds deadline) {
  NvidiaSmiFacts facts;
  bool with_cc = true;
  ChildAnswer answer = children.ask({.kind = ChildKind::command, .args = query_argv(program, true), .deadline = deadline});
  const std::string said = answer.output + answer.error_output;
  if (answer.exit && *answer.exit != 0 && contains(said, "is not a valid field")) {  // drivers before 510
    with_cc = false;
    answer = children.ask({.kind = ChildKind::command, .args = query_argv(program, false), .deadline = deadline});
  }
  const std::string text = answer.output + "\n" + answer.error_output;
  if (answer.truncated) facts.cut = "more than the " + std::to_string(k_max_child_output >> 20) + " MiB gpudoctor reads: the rest was dropped";
  if (answer.error) {
    facts.status = unasked_status(*answer.error);
  } else if (note_abnormal_end(answer, facts)) {  // timed-out or crashed: set
  } else if (contains(text, "couldn't communicate with the NVIDIA driver")) {
    facts.status = ChildStatus::no_driver;
  } else if (contains(text, "Driver/library version mismatch")) {
    facts.status = ChildStatus::version_mismatch;
  } else if (answer.exit != 0) {
    facts.status = ChildStatus::failed;
  } else {
    facts.status = ChildStatus::ok;
  }
  if (facts.status != ChildStatus::ok && facts.status != ChildStatus::not_run && facts.status != ChildStatus::not_recorded)
    facts.message = first_line(answer.error_output.empty() ? answer.output : answer.error_output);
  if (facts.status == ChildStatus::ok) {
    for (auto line : lines(answer.output)) {
      if (trim(line).empty() || facts.gpus.size() >= k_max_gpus) continue;
      facts.gpus.push_back(parse_smi_gpu_line(line, with_cc));
    }
    // The header of plain `nvidia-smi` is where it prints the CUDA version
    // (drivers from 410 on); the query interface has no field for it.
    const ChildAnswer header = children.ask({ChildKind::command, {program}, deadline});
    if (header.exit == 0) facts.cuda_version = cuda_version_in_header(header.output);
    for (const auto& gpu : facts.gpus) {
      if (!gpu.driver_version) continue;
      if (!facts.driver_version) facts.driver_version = gpu.driver_version;
      else if (*facts.driver_version != *gpu.driver_version) facts.driver_versions_agree = false;
    }
  }
  return facts;
}

}  // namespace gd
