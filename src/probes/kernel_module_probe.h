#pragma once
// Layer 2, kernel-module: is the nvidia module loaded, which version and
// flavour, its companions (nvidia_uvm, nvidia_modeset), competing drivers,
// and which GPUs it actually claimed against the PCI list. When it is not
// loaded: was it built for the running kernel, and is Secure Boot on.

#include "probes/probe_context.h"

namespace gd {

Probed<KernelModuleFacts> probe_kernel_module(ProbeContext& context);

// The kernel log (dmesg, asked ahead where there is a GPU or module to ask
// about; none under --root, none for `gpudoctor gpus`), once the layers above were read.
void finish_kernel_module(ProbeContext& context, Probed<KernelModuleFacts>& layer);

}  // namespace gd
