#pragma once
// The kernel log's NVRM lines, which say why the driver did what it did:
// API mismatch, an adapter that failed to initialise, a GPU the open module
// refuses, a GPU fallen off the bus, a module whose signature was rejected,
// and Xid errors. Read from /dev/kmsg, a file, where it can be; else through
// the child runner (dmesg, else journalctl -k): a container's /dev has no
// kmsg, and dmesg_restrict refuses it to users without CAP_SYSLOG. Bounded
// (the newest kept) and recorded in snapshots.

#include "facts/kernel_module_facts.h"
#include "host/host.h"
#include "tables/cuda_tables.h"

#include <optional>
#include <string_view>

namespace gd {

// /dev/kmsg: nothing where it cannot be read.
std::optional<KernelLogFacts> read_kernel_messages(Host& host, const CudaTables& tables);

// Where /dev/kmsg could not be read: dmesg, else journalctl -k.
KernelLogFacts read_kernel_log(Host& host, const CudaTables& tables);

// Starts dmesg, read_kernel_log's first ask, ahead: it runs while the module's files are read.
void ask_kernel_log_ahead(Host& host);

// The facts in a log's text (exposed for tests and fuzzing).
KernelLogFacts parse_kernel_log(std::string_view text, const CudaTables& tables);

}  // namespace gd
