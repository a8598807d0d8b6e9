#pragma once
// The facts a subject's rules may address, by layer, from the typed facts'
// own field lists (facts/fact_reference.h builds the host's). Rules are
// checked against it when they are loaded, so that a misspelt path, an
// impossible value or a placeholder naming no fact stops gpudoctor instead
// of printing "unknown" or never firing.

#include "model/fact_fields.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct FactSchema {
  std::map<std::string, std::vector<FactDoc>, std::less<>> layers;  // "system", "hardware", ... -> its facts
};

struct SchemaMatch {
  const FactDoc* doc = nullptr;  // the fact the path names, or the open object it goes beneath
  bool beneath_open = false;     // the path goes inside an object whose keys are data (NVreg names, variables)
  std::string normalised;        // "gpus[].driver": list indexes as []
};

// Looks a rule's path up: "hardware.gpus.0.driver", or "item.name" inside a
// for_each over `item_list` (a normalised "layer:path" as returned in
// SchemaMatch, empty outside for_each). An unknown path has no doc.
SchemaMatch find_fact(const FactSchema& schema, std::string_view path, std::string_view item_list = {});

}  // namespace gd
