#pragma once
// The fact reference of docs/layers.md, written from the typed facts
// themselves (`gpudoctor facts` prints it), so the documentation cannot
// drift from what the probes set.

#include <string>

namespace gd {

std::string fact_reference_markdown();

}  // namespace gd
