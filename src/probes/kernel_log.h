#pragma once
// The kernel log's NVRM lines, which say why the driver did what it did:
// API mismatch, an adapter that failed to initialise, a GPU the open module
// refuses, a GPU fallen off the bus, a module whose signature was rejected,
// and Xid errors. Read through the child runner (dmesg, else journalctl -k),
// bounded and recorded in snapshots like every child's answer.

#include "facts/kernel_module_facts.h"
#include "host/host.h"
#include "tables/cuda_tables.h"

#include <string_view>

namespace gd {

KernelLogFacts read_kernel_log(Host& host, const CudaTables& tables);

// Starts dmesg, read_kernel_log's first ask, ahead: it runs while the module's files are read.
void ask_kernel_log_ahead(Host& host);

// The facts in a log's text (exposed for tests and fuzzing).
KernelLogFacts parse_kernel_log(std::string_view text, const CudaTables& tables);

}  // namespace gd
