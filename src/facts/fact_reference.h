#pragma once
// The fact reference of docs/layers.md, written from the typed facts
// themselves (`gpudoctor facts` prints it), so the documentation cannot
// drift from what the probes set.

#include "model/fact_schema.h"

#include <string>

namespace gd {

// Every fact the host's rules may address, layer by layer (with each
// layer's unreadable[] and probe_error).
FactSchema host_fact_schema();

std::string fact_reference_markdown();

}  // namespace gd
