#pragma once
// A framework's CUDA build against the driver: its relation (same or older
// major, or a driver too old for it), the driver its major needs, and for
// torch the newest build of the same release that this driver runs.

#include "facts/application_facts.h"
#include "probes/probe_context.h"

namespace gd {

void judge_against_driver(ProbeContext& context, FrameworkFacts& framework);

}  // namespace gd
