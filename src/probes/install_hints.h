#pragma once
// The install sentences of rules/tables/framework-installs.json, filled for
// one framework: the probes name the values, the table says the words.

#include "facts/application_facts.h"
#include "tables/cuda_tables.h"

#include <map>
#include <string>

namespace gd {

// {pin} (==2.5.1, the public version; nothing when unknown), {cuda}, {cudnn}.
std::map<std::string, std::string> install_values(const FrameworkFacts& framework);

// The wheel index of a CUDA version: "12.4" -> "cu124" ("cuXYZ" when unknown).
std::string torch_index_of(const std::optional<std::string>& cuda);

// How this framework's CUDA libraries are installed (the "libraries" sentence).
std::string libraries_install_hint(const CudaTables& tables, const FrameworkFacts& framework);

}  // namespace gd
