#pragma once
// Image mode (`check --image`): an image has no GPU and no driver of its
// own, so the hardware and kernel-module layers describe the host it is
// meant to run on, as the user states it — `--gpu 2330` (a PCI device id:
// name, brand and compute capability from rules/tables) or `--gpu 9.0`, and
// `--host-driver 550.54.15` — and the whole law is applied as if that host
// were there. Without them, those layers are skipped: nothing to judge.

#include "facts/hardware_facts.h"
#include "facts/kernel_module_facts.h"
#include "probes/probe_context.h"

namespace gd {

Probed<HardwareFacts> probe_assumed_hardware(ProbeContext& context);
Probed<KernelModuleFacts> probe_assumed_kernel_module(ProbeContext& context);

}  // namespace gd
