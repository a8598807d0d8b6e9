#include "probes/kernel_log.h"

#include "util/text.h"

#include <chrono>

namespace gd {
namespace {

constexpr std::size_t k_max_lines_kept = 40;
constexpr std::size_t k_max_xids = 64;

// "[   12.345678] NVRM: ..." -> "NVRM: ..."
std::string_view without_timestamp(std::string_view line) {
  if (line.starts_with("[")) {
    const auto close = line.find("] ");
    if (close != std::string_view::npos) return line.substr(close + 2);
  }
  return line;
}

bool has(std::string_view line, std::string_view needle) { return line.find(needle) != std::string_view::npos; }

// "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus."
std::optional<XidEvent> parse_xid(std::string_view line, const CudaTables& tables) {
  const auto at = line.find("Xid (PCI:");
  if (at == std::string_view::npos) return std::nullopt;
  const auto close = line.find("): ", at);
  if (close == std::string_view::npos) return std::nullopt;
  const auto bdf = line.substr(at + 9, close - at - 9);
  auto rest = line.substr(close + 3);
  const auto comma = rest.find(',');
  const auto code = parse_int(trim(rest.substr(0, comma)));
  if (!code || *code < 0 || *code > 100000) return std::nullopt;
  XidEvent event{*code, printable(bdf, 32), printable(trim(line), 200), {}, {}};
  if (const auto* known = tables.xid(*code)) {
    event.meaning = known->meaning;
    event.action = known->action;
  }
  return event;
}

}  // namespace

KernelLogFacts parse_kernel_log(std::string_view text, const CudaTables& tables) {
  KernelLogFacts facts;
  for (auto raw : lines(text)) {
    const auto line = without_timestamp(raw);
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
    if (auto xid = parse_xid(line, tables); xid && facts.xids.size() < k_max_xids) facts.xids.push_back(std::move(*xid));
  }
  return facts;
}

namespace {

// The newest lines matter (an Xid, a firmware error): a long log keeps its end.
ChildRequest kernel_log_request(std::vector<std::string> argv) {
  using namespace std::chrono_literals;
  return {.kind = ChildKind::command, .args = std::move(argv), .deadline = 3000ms, .keep = OutputKeep::tail};
}

}  // namespace

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
