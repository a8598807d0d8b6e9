#include "facts/probe_notes.h"

#include "util/text.h"

namespace gd {

void ProbeNotes::note_unreadable(const std::string& path, const std::string& problem, const std::string& value) {
  unreadable.push_back({path, problem, value.empty() ? std::nullopt : std::optional(printable(value, 120))});
}

}  // namespace gd
