#include "probes/kernel_log.h"

#include "formats/kmsg.h"
#include "probes/nvlink5_xid.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iterator>

namespace gd {
namespace {

constexpr std::size_t k_max_lines_kept = 40;
constexpr std::size_t k_max_xids = 64;

bool has(std::string_view line, std::string_view needle) { return line.find(needle) != std::string_view::npos; }

struct XidLine {
  std::int64_t code = 0;
  std::string_view bdf, text;  // text: what follows the code
};

// "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus."; under MIG
// "Xid (PCI:0000:01:00 GPU-I:05): 94, ..."; very old drivers leave out "PCI:".
std::optional<XidLine> parse_xid(std::string_view line) {
  auto at = line.find("Xid (");
  // "nvidia-nvswitch0: SXid (PCI:...): 20009, ..." is an NVSwitch's error, not a GPU's.
  while (at != std::string_view::npos && at > 0 && std::isalnum(static_cast<unsigned char>(line[at - 1])))
    at = line.find("Xid (", at + 1);
  if (at == std::string_view::npos) return std::nullopt;
  at += 5;
  if (line.substr(at).starts_with("PCI:")) at += 4;
  const auto close = line.find("): ", at);
  if (close == std::string_view::npos) return std::nullopt;
  auto bdf = line.substr(at, close - at);
  bdf = bdf.substr(0, bdf.find(' '));
  const auto rest = line.substr(close + 3);
  const auto comma = rest.find(',');
  const auto code = parse_int(trim(rest.substr(0, comma)));
  if (!code || *code < 0 || *code > 100000 || bdf.empty()) return std::nullopt;
  return XidLine{*code, bdf, comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1)};
}

// Xid 154, "GPU recovery action changed from 0x0 (None) to 0x4 (Drain and Reset)": the
// value after "to" is what the driver asks for now (gpu.c's names, r590; 0x5, Recover
// IMEX Domain, from r595, has no action of ours: the rule's own then applies). The
// number decides; the name is shown, whatever a driver calls it.
void read_recovery_action(std::string_view text, XidEvent& event) {
  const auto to = text.rfind(" to 0x");
  if (to == std::string_view::npos) return;
  const auto digits = text.substr(to + 6, text.find_first_not_of("0123456789abcdefABCDEF", to + 6) - (to + 6));
  const auto value = parse_hex(digits);
  const auto open = text.find('(', to), close = text.find(')', to);
  if (open != std::string_view::npos && close != std::string_view::npos && close > open)
    event.recovery_action = printable(text.substr(open + 1, close - open - 1), 40);
  event.action = value ? driver_recovery_action(*value) : std::nullopt;
  if (event.action == Action::none) event.advice = "Nothing: the driver asks for no recovery of this GPU now";
}

// The log names a GPU "0000:1b:00"; sysfs and dcgm-exporter name it with its function.
std::string gpu_address(std::string_view logged) {
  std::string out = printable(logged, 32);
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
}

XidEvent new_xid_event(const XidLine& xid, const std::string& bdf, const CudaTables& tables) {
  XidEvent event;
  event.code = xid.code;
  event.bdf = bdf;
  if (const auto* known = tables.xid(xid.code)) {
    event.mnemonic = known->mnemonic;
    event.meaning = known->meaning;
    if (!known->immediate.empty()) event.immediate = known->immediate;
    if (!known->investigatory.empty()) event.investigatory = known->investigatory;
    event.origin = known->origin;
    event.advice = replace_all(known->advice, "BUS_ID", bdf);  // the table's commands name "BUS_ID" for the GPU
    event.action = known->action;
  }
  return event;
}

// Xid 154 is the driver's word on what a GPU needs after its other Xids: each
// earlier Xid of that GPU shows it, and where it went back to None the driver
// says the recovery is done.
void apply_recovery_actions(std::vector<XidEvent>& xids, const std::vector<std::size_t>& newest) {
  for (std::size_t i = 0; i < xids.size(); ++i) {
    if (xids[i].code != 154 || !xids[i].recovery_action) continue;
    for (std::size_t j = 0; j < xids.size(); ++j) {
      if (j == i || xids[j].bdf != xids[i].bdf || newest[j] > newest[i]) continue;
      xids[j].recovery_action = xids[i].recovery_action;
      if (xids[i].action == Action::none) xids[j].recovered = true;
    }
  }
}

// An Xid entry that asks more than nothing of the operator or the application's owner.
bool needs_something(std::optional<Action> action) { return !action || (*action != Action::none && *action != Action::check_application); }

// An entry a flood may push out past the cap: it needs nothing, and it is
// not Xid 154, whose None is the driver's word that earlier Xids are recovered.
bool evictable(const XidEvent& event) { return !needs_something(event.action) && event.code != 154; }

// One more line of an entry: counted, the newest kept, and the action of the
// lines that decide their own (154's recovery action, NVLink5's decode).
void add_xid_line(const XidLine& xid, std::string_view line, const std::string& bdf, const CudaTables& tables, XidEvent& entry) {
  ++entry.count;
  entry.line = printable(trim(line), 200);
  if (xid.code == 154) read_recovery_action(xid.text, entry);
  // NVLink5 (144-150): each line decodes to its own action; the entry asks for
  // the most disruptive of its lines' (the newest line of those that ask it).
  if (xid.code >= 144 && xid.code <= 150) {
    auto decision = decide_nvlink5(xid.code, xid.text, tables);
    if (entry.count == 1 || !entry.action || decision.action >= *entry.action) {
      entry.action = decision.action;
      if (const auto* advice = tables.nvlink5_advice(decision.action)) entry.advice = replace_all(*advice, "BUS_ID", bdf);
      if (decision.immediate) entry.immediate = std::move(decision.immediate);
      if (decision.investigatory) entry.investigatory = std::move(decision.investigatory);
      entry.nvlink5_decode = std::move(decision.how);
    }
  }
}

// Counts the line into its code's and GPU's entry, the first of each kept up to
// a cap; newest holds each entry's newest line number. Past the cap, a line
// that asks for recovery takes the place of the first evictable entry, so a
// flood of the application's own Xids hides none that needs the GPU or the node.
void count_xid(const XidLine& xid, std::string_view line, const CudaTables& tables, KernelLogFacts& facts,
               std::vector<std::size_t>& newest) {
  ++facts.xid_lines;
  const std::string bdf = gpu_address(xid.bdf);
  auto same = std::find_if(facts.xids.begin(), facts.xids.end(),
                           [&](const XidEvent& event) { return event.code == xid.code && event.bdf == bdf; });
  if (same == facts.xids.end() && facts.xids.size() >= k_max_xids) {
    facts.xids_cut = "more than " + std::to_string(k_max_xids) + " Xid codes and GPUs: later ones that need nothing are only counted";
    // The catalog answers for most codes before an entry is built; 154 and NVLink5 lines decide their own.
    const bool decides_itself = xid.code == 154 || (xid.code >= 144 && xid.code <= 150);
    if (const auto* known = tables.xid(xid.code); !decides_itself && known && !needs_something(known->action)) return;
    XidEvent candidate = new_xid_event(xid, bdf, tables);
    add_xid_line(xid, line, bdf, tables, candidate);
    if (!needs_something(candidate.action)) return;
    same = std::find_if(facts.xids.begin(), facts.xids.end(), evictable);
    if (same == facts.xids.end()) return;
    *same = std::move(candidate);
    newest[static_cast<std::size_t>(same - facts.xids.begin())] = static_cast<std::size_t>(facts.xid_lines);
    return;
  }
  if (same == facts.xids.end()) {
    facts.xids.push_back(new_xid_event(xid, bdf, tables));
    newest.push_back(0);
    same = facts.xids.end() - 1;
  }
  newest[static_cast<std::size_t>(same - facts.xids.begin())] = static_cast<std::size_t>(facts.xid_lines);
  add_xid_line(xid, line, bdf, tables, *same);
}
// "nvidia-nvswitch3: SXid (PCI:0000:c1:00.0): 20034, Fatal, Link 48 LTSSM Fault Up";
// the same report goes on with "20034, Severity 1 Engine instance ..." and
// "20034, Data {...}" lines, which are not reports of their own.
struct SxidLine {
  std::int64_t code = 0;
  std::string_view nvswitch, text;
  bool report = true;
};

std::optional<SxidLine> parse_sxid(std::string_view line) {
  auto at = line.find("SXid (");
  if (at == std::string_view::npos) return std::nullopt;
  at += 6;
  if (line.substr(at).starts_with("PCI:")) at += 4;
  const auto close = line.find("): ", at);
  if (close == std::string_view::npos) return std::nullopt;
  const auto nvswitch = line.substr(at, close - at);
  const auto rest = line.substr(close + 3);
  const auto comma = rest.find(',');
  const auto code = parse_int(trim(rest.substr(0, comma)));
  if (!code || *code < 0 || *code > 100000 || nvswitch.empty()) return std::nullopt;
  const auto text = comma == std::string_view::npos ? std::string_view() : trim(rest.substr(comma + 1));
  return SxidLine{*code, nvswitch, text, !text.starts_with("Severity") && !text.starts_with("Data")};
}

void count_sxid(const SxidLine& sxid, std::string_view line, const CudaTables& tables, KernelLogFacts& facts) {
  auto same = std::find_if(facts.sxids.begin(), facts.sxids.end(),
                           [&](const SxidEvent& event) { return event.code == sxid.code && event.nvswitch == sxid.nvswitch; });
  if (same == facts.sxids.end()) {
    if (facts.sxids.size() >= k_max_xids) {
      facts.sxids_cut = "more than " + std::to_string(k_max_xids) + " SXid codes and NVSwitches: the later ones are left out";
      return;
    }
    SxidEvent event{.code = sxid.code, .nvswitch = printable(sxid.nvswitch, 40), .line = printable(trim(line), 200)};
    if (const auto* known = tables.sxid(sxid.code)) {
      event.name = known->name;
      event.klass = known->klass;
      event.action = known->action;
    }
    facts.sxids.push_back(std::move(event));
    same = facts.sxids.end() - 1;
  }
  if (!sxid.report) return;
  ++same->count;
  same->line = printable(trim(line), 200);
  same->fatal_in_log = same->fatal_in_log || sxid.text.starts_with("Fatal");
}

// kernel/hung_task.c: "INFO: task python:4242 blocked for more than 120 seconds.",
// then the task's state line and its call trace, whose frames name their module
// ("uvm_va_space_destroy+0x1a4/0x3c0 [nvidia_uvm]"), up to "</TASK>".
constexpr std::size_t k_max_hung_tasks = 16;
constexpr std::size_t k_hung_trace_lines = 64;

struct HungTaskReader {
  std::optional<std::size_t> open;  // the entry whose trace is being read
  std::size_t trace_lines = 0;

  void read(std::string_view line, KernelLogFacts& facts) {
    const auto blocked = line.find(" blocked for more than ");
    const auto task = line.find("task ");
    if (blocked != std::string_view::npos && task != std::string_view::npos && task < blocked) {
      start(line, line.substr(task + 5, blocked - task - 5), line.substr(blocked + 23), facts);
      return;
    }
    if (!open) return;
    if (++trace_lines > k_hung_trace_lines || has(line, "</TASK>")) {
      open.reset();
      return;
    }
    if (has(line, "[nvidia")) facts.hung_tasks[*open].in_driver = true;
  }

  void start(std::string_view line, std::string_view who, std::string_view rest, KernelLogFacts& facts) {
    open.reset();
    const auto colon = who.rfind(':');
    const auto pid = colon == std::string_view::npos ? std::nullopt : parse_int(who.substr(colon + 1));
    const auto seconds = parse_int(rest.substr(0, rest.find(' ')));
    if (!pid || *pid <= 0 || !seconds) return;
    const std::string command = printable(who.substr(0, colon), 40);
    auto same = std::find_if(facts.hung_tasks.begin(), facts.hung_tasks.end(),
                             [&](const HungTask& known) { return known.pid == *pid && known.command == command; });
    if (same == facts.hung_tasks.end()) {
      if (facts.hung_tasks.size() >= k_max_hung_tasks) return;
      facts.hung_tasks.push_back({.command = command, .pid = *pid});
      same = facts.hung_tasks.end() - 1;
    }
    ++same->count;
    same->seconds = std::max(same->seconds, *seconds);
    same->line = printable(trim(line), 200);
    open = static_cast<std::size_t>(same - facts.hung_tasks.begin());
    trace_lines = 0;
  }
};

}  // namespace

KernelLogFacts parse_kernel_log(std::string_view text, const CudaTables& tables) {
  KernelLogFacts facts;
  std::vector<std::size_t> newest_xid_line;
  HungTaskReader hung;
  std::string_view previous_nvidia;  // a message nv.c splits over two lines names the GPU in the first
  for (auto raw : lines(text)) {
    const auto line = without_bracketed_prefix(raw);  // "[   12.345678] NVRM: ..." -> "NVRM: ..."
    hung.read(line, facts);
    // ConnectX adapters (mlx5_core), the GPUs' RDMA path, as gpud's InfiniBand matchers read them.
    if (has(line, "mlx5")) {
      if (has(line, "insufficient power on the PCIe slot")) facts.nic_insufficient_power = printable(trim(line), 200);
      if (has(line, "Port module event") && has(line, "High Temperature")) facts.nic_module_hot = printable(trim(line), 200);
    }
    if (has(line, "nvidia-peermem") && has(line, "detected invalid context")) facts.peermem_invalid_context = printable(trim(line), 200);
    // In-kernel module decompression's one message names no module (kernel/module/decompress.c).
    if (has(line, "decompression failed with status")) facts.module_decompression_failed = printable(trim(line), 200);
    const bool nvidia = has(line, "NVRM") || has(line, "nvidia");
    // The kernel's signature refusals name no module ("Loading of unsigned module is rejected",
    // kernel/module/signing.c; "Lockdown: modprobe: unsigned module loading is restricted").
    const bool signature = has(line, "Lockdown:") || has(line, "module verification") || has(line, "trusted key") ||
                           (has(line, "Loading of ") && has(line, " is rejected")) || has(line, "Key was rejected");
    if (!nvidia && !signature) continue;
    if (facts.lines.size() < k_max_lines_kept) facts.lines.push_back(printable(trim(line), 200));
    if (has(line, "API mismatch")) facts.api_mismatch = printable(trim(line), 200);
    if (has(line, "RmInitAdapter failed")) facts.rm_init_failed = printable(trim(line), 200);
    if (has(line, "not supported by open nvidia.ko")) facts.open_module_refused = printable(trim(line), 200);
    // nv.c's two lines: "NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)", then
    // "NVRM: installed in this system requires use of the NVIDIA open kernel modules."
    if (has(line, "requires use of the NVIDIA open kernel modules"))
      facts.open_module_required =
          printable(has(previous_nvidia, "The NVIDIA GPU") ? concat({trim(previous_nvidia), " ", trim(line)}) : std::string(trim(line)), 240);
    if (has(line, "fallen off the bus")) facts.fallen_off_bus = printable(trim(line), 200);
    // GSP firmware failing to boot or answer: "_kgspBootGspRm: ... failed", "GSP RPC timeout", "Failed to load GSP firmware".
    if (has(line, "NVRM") && (has(line, "GSP") || has(line, "kgsp")) &&
        (has(line, "failed") || has(line, "Failed") || has(line, "timeout") || has(line, "error")))
      facts.gsp_error = printable(trim(line), 200);
    // The open module's own line, and the kernel firmware loader's ("nvidia 0000:01:00.0: Direct
    // firmware load for nvidia/550.54.15/gsp_ga10x.bin failed with error -2").
    if (has(line, "No firmware image found") || (has(line, "firmware load for nvidia/") && has(line, "failed")))
      facts.firmware_missing = printable(trim(line), 200);
    // nv-pci.c's two lines: "This PCI I/O region assigned to your NVIDIA device is invalid:",
    // then "NVRM: BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)", which names the BAR and the GPU.
    if (has(line, "NVRM: BAR") && has(line, "M @ 0x") && has(line, "(PCI:")) facts.bar_invalid = printable(trim(line), 200);
    if (has(line, "No NVIDIA GPU found") || has(line, "No NVIDIA devices probed")) facts.no_gpu_found = printable(trim(line), 200);
    if (has(line, "Key was rejected by service") || has(line, "Required key not available") ||
        (has(line, "Loading of ") && has(line, " is rejected")) || has(line, "unsigned module loading is restricted") ||
        has(line, "not signed with a trusted key"))
      facts.key_rejected = printable(trim(line), 200);
    if (const auto xid = parse_xid(line)) count_xid(*xid, line, tables, facts, newest_xid_line);
    if (const auto sxid = parse_sxid(line)) count_sxid(*sxid, line, tables, facts);
    previous_nvidia = line;
  }
  apply_recovery_actions(facts.xids, newest_xid_line);
  return facts;
}

namespace {

// The newest lines matter (an Xid, a firmware error): a long log keeps its end.
constexpr std::string_view k_kmsg = "/dev/kmsg";

ChildRequest kernel_log_request(std::vector<std::string> argv) {
  using namespace std::chrono_literals;
  return {.kind = ChildKind::command, .args = std::move(argv), .deadline = 3000ms, .keep = OutputKeep::tail};
}

}  // namespace

std::optional<KernelLogFacts> read_kernel_messages(Host& host, const CudaTables& tables) {
  auto records = host.read_records(k_kmsg, k_max_child_output);
  if (!records) return std::nullopt;
  KernelLogFacts facts = parse_kernel_log(kmsg_as_dmesg(records->text), tables);
  facts.source = std::string(k_kmsg);
  if (records->dropped()) facts.cut = "longer than the " + std::to_string(k_max_child_output >> 20) + " MiB read: only its newest lines were read";
  return facts;
}

void ask_kernel_log_ahead(Host& host) { host.ask_ahead(kernel_log_request({"dmesg"})); }

KernelLogFacts read_kernel_log(Host& host, const CudaTables& tables) {
  // dmesg needs CAP_SYSLOG where dmesg_restrict=1; journald may still let
  // members of adm or systemd-journal read the kernel's messages.
  for (const auto& argv : {std::vector<std::string>{"dmesg"},
                           std::vector<std::string>{"journalctl", "-k", "-b", "-o", "cat", "--no-pager", "-q"}}) {
    const auto answer = host.ask(kernel_log_request(argv));
    if (answer.exit != 0 || answer.output.empty()) continue;
    KernelLogFacts facts = parse_kernel_log(answer.output, tables);
    facts.source = argv[0];
    if (answer.truncated) facts.cut = "longer than the " + std::to_string(k_max_child_output >> 20) + " MiB read: only its newest lines were read";
    return facts;
  }
  KernelLogFacts facts;
  facts.source = std::nullopt;
  return facts;
}

}  // namespace gd
