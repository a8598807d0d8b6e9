#include "probes/nvidia_smi.h"

#include "probes/child_ending.h"
#include "util/text.h"

#include <algorithm>
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
// nvidia-smi --help-query-compute-apps names these fields.
constexpr const char* k_compute_apps_query = "--query-compute-apps=gpu_bus_id,pid,process_name,used_memory";

std::optional<std::string> value_of(std::string_view field) {
  const auto text = trim(field);
  if (text.empty() || text == "[N/A]" || text == "[Not Supported]" || text == "N/A" || text == "[Unknown Error]")
    return std::nullopt;
  return printable(text, 120);
}

std::vector<std::string> query_argv(const std::string& program, bool with_cc) {
  return {program, std::string("--query-gpu=") + (with_cc ? k_fields_with_cc : k_fields_without_cc),
          "--format=csv,noheader,nounits"};
}

// The version after the first of labels found: digits and dots.
std::optional<std::string> version_after(std::string_view text, std::initializer_list<std::string_view> labels) {
  for (const auto label : labels) {
    const auto at = text.find(label);
    if (at == std::string_view::npos) continue;
    auto rest = trim(text.substr(at + label.size(), 24));
    std::size_t length = 0;
    while (length < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[length])) || rest[length] == '.')) ++length;
    if (length > 0) return std::string(rest.substr(0, length));
  }
  return std::nullopt;
}

bool pci_address_shaped(std::string_view token) {
  if (token.size() < 7 || token.size() > 16 || token.find('.') == std::string_view::npos) return false;
  int colons = 0;
  for (const char c : token) {
    if (c == ':') ++colons;
    else if (c != '.' && !std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return colons == 2;
}

}  // namespace

std::optional<std::string> cuda_version_in_header(std::string_view text) {
  // From R610 the banner says "CUDA UMD Version:" where it said "CUDA Version:".
  return version_after(text, {"CUDA Version:", "CUDA UMD Version:"});
}

NvidiaSmiBanner parse_banner(std::string_view text) {
  NvidiaSmiBanner banner;
  banner.own_version = version_after(text, {"NVIDIA-SMI "});
  banner.driver_version = version_after(text, {"Driver Version:", "KMD Version:"});
  banner.cuda_version = cuda_version_in_header(text);
  return banner;
}

std::optional<NvidiaSmiBanner> parse_version_answer(std::string_view text) {
  NvidiaSmiBanner versions;
  for (auto line : lines(text)) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto label = to_lower(trim(line.substr(0, colon)));
    const auto value = version_after(line.substr(colon), {":"});
    if (label == "nvidia-smi version") versions.own_version = value;
    else if (label == "driver version" || label == "kmd version") versions.driver_version = value;
    else if (label == "cuda version" || label == "cuda umd version") versions.cuda_version = value;
  }
  if (!versions.own_version || !versions.driver_version || !versions.cuda_version) return std::nullopt;
  return versions;
}

std::optional<SmiLostGpu> parse_lost_gpu_line(std::string_view line) {
  if (!contains(line, "Unable to determine the device handle for GPU") && !contains(line, "GPU is lost")) return std::nullopt;
  for (auto token : split(line, ' ')) {
    if (token.starts_with("GPU")) token.remove_prefix(3);  // "for GPU0000:3B:00.0:" has no space
    while (token.ends_with(':')) token.remove_suffix(1);
    if (!pci_address_shaped(token)) continue;
    SmiLostGpu lost;
    lost.bus_id = printable(token, 16);
    const auto after = static_cast<std::size_t>(token.data() - line.data()) + token.size();  // token views line
    auto reason = trim(line.substr(after));
    while (reason.starts_with(':')) reason = trim(reason.substr(1));
    lost.reason = printable(reason.empty() ? "GPU is lost" : reason, 120);
    return lost;
  }
  return std::nullopt;
}

std::string sysfs_pci_address(std::string_view bus_id) {
  std::string address = to_lower(trim(bus_id));
  // nvidia-smi and NVML print an 8-digit domain ("00000000:1B:00.0"); sysfs a 4-digit one.
  const auto colon = address.find(':');
  if (colon != std::string::npos && colon > 4 && address.find_first_not_of('0') >= colon - 4) address.erase(0, colon - 4);
  return address;
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
  // A value of none of the names (a newer driver's, or damage) is as unknown as [N/A].
  const auto named = [&]<class E>(E) { const auto text = next(); return text ? enum_from_name<E>(*text) : std::nullopt; };
  gpu.mig_mode = named(Setting{});
  gpu.persistence_mode = named(Setting{});
  gpu.compute_mode = named(ComputeMode{});
  return gpu;
}

void add_compute_apps(std::string_view csv, NvidiaSmiFacts& facts) {
  constexpr std::size_t k_max_listed = 16;
  std::vector<std::string> addresses;  // each GPU's, as sysfs names it, once
  for (auto& gpu : facts.gpus) {
    gpu.processes = 0;
    gpu.process_list.emplace();
    addresses.push_back(gpu.bus_id ? sysfs_pci_address(*gpu.bus_id) : std::string());
  }
  std::size_t read = 0;
  for (const auto line : lines(csv)) {
    if (++read > 4 * k_max_gpus) break;
    const auto fields = split(line, ',');
    if (fields.size() < 4) continue;
    const auto pid = parse_int(trim(fields[1]));
    if (!pid) continue;
    // A process name may hold commas: it is everything between the pid and the memory.
    const auto name_begin = fields[2].data(), name_end = fields[fields.size() - 2].data() + fields[fields.size() - 2].size();
    const auto name = value_of(std::string_view(name_begin, static_cast<std::size_t>(name_end - name_begin)));
    const auto used = value_of(fields.back());
    const auto bus = sysfs_pci_address(fields[0]);
    for (std::size_t i = 0; i < facts.gpus.size(); ++i) {
      auto& gpu = facts.gpus[i];
      if (addresses[i].empty() || addresses[i] != bus) continue;
      ++*gpu.processes;
      if (gpu.process_list->size() < k_max_listed)
        gpu.process_list->push_back({.pid = *pid, .name = name, .used_mib = used ? parse_int(*used) : std::nullopt});
    }
  }
}

std::vector<ChildRequest> nvidia_smi_requests(const std::string& program, std::chrono::milliseconds deadline) {
  return {{.kind = ChildKind::command, .args = query_argv(program, true), .deadline = deadline},
          {.kind = ChildKind::command, .args = {program, "--version"}, .deadline = deadline}};
}

NvidiaSmiFacts run_nvidia_smi(ChildEvidence& children, const std::string& program, std::chrono::milliseconds deadline,
                              bool list_processes) {
  NvidiaSmiFacts facts;
  bool with_cc = true;
  const auto requests = nvidia_smi_requests(program, deadline);
  ChildAnswer answer = children.ask(requests[0]);
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
  // A lost GPU: its line in place of its CSV line, the others answered, exit 15.
  // Each line is read once: a lost GPU's, or a candidate GPU line.
  std::vector<std::string_view> gpu_lines;
  if (facts.status == ChildStatus::ok || facts.status == ChildStatus::failed)
    for (const auto* stream : {&answer.output, &answer.error_output})
      for (auto line : lines(*stream)) {
        if (auto lost = parse_lost_gpu_line(line)) {
          if (facts.lost_gpus.size() < k_max_gpus) facts.lost_gpus.push_back(std::move(*lost));
        } else if (stream == &answer.output && !trim(line).empty() && gpu_lines.size() < k_max_gpus) {
          gpu_lines.push_back(line);
        }
      }
  if (facts.status != ChildStatus::ok && facts.status != ChildStatus::not_run && facts.status != ChildStatus::not_recorded)
    facts.message = first_nonblank_line(answer.error_output.empty() ? answer.output : answer.error_output);
  // A row has one value per field asked; a line with another count is not a GPU's (a wrapper's notice, damage).
  const std::size_t row_fields = split(with_cc ? k_fields_with_cc : k_fields_without_cc, ',').size();
  if (facts.status == ChildStatus::ok || !facts.lost_gpus.empty())
    for (const auto line : gpu_lines)
      if (split(line, ',').size() == row_fields) facts.gpus.push_back(parse_smi_gpu_line(line, with_cc));
  if (facts.status == ChildStatus::ok) {
    // Its own release and the CUDA version, which the query interface has
    // not: `--version` says them (R5xx on) as fast as the query; the banner of
    // plain `nvidia-smi` says them too (drivers from 410 on), after reading
    // every GPU's state, four times as slow. So the banner only where
    // `--version` does not answer (older drivers, a replay of a snapshot that
    // recorded the banner).
    const ChildAnswer version = children.ask(requests[1]);
    auto versions = version.exit == 0 ? parse_version_answer(version.output) : std::nullopt;
    if (!versions)
      if (const ChildAnswer header = children.ask({ChildKind::command, {program}, deadline}); header.exit == 0)
        versions = parse_banner(header.output);
    if (versions) {
      facts.cuda_version = versions->cuda_version;
      facts.own_version = versions->own_version;
      facts.banner_driver_version = versions->driver_version;
    }
    for (const auto& gpu : facts.gpus) {
      if (!gpu.driver_version) continue;
      if (!facts.driver_version) facts.driver_version = gpu.driver_version;
      else if (*facts.driver_version != *gpu.driver_version) facts.driver_versions_agree = false;
    }
    const bool exclusive = std::any_of(facts.gpus.begin(), facts.gpus.end(), [](const SmiGpu& gpu) {
      return gpu.compute_mode && is_exclusive(*gpu.compute_mode);
    });
    if (list_processes && exclusive) {
      const ChildAnswer apps =
          children.ask({ChildKind::command, {program, k_compute_apps_query, "--format=csv,noheader,nounits"}, deadline});
      if (apps.exit == 0 && !apps.error && !apps.truncated) add_compute_apps(apps.output, facts);
    }
  }
  return facts;
}

}  // namespace gd
