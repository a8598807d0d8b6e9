#include "facts/probe_notes.h"

#include "util/text.h"

namespace gd {

void ProbeNotes::note_unreadable(const std::string& path, const std::string& problem, const std::string& value) {
  unreadable.push_back({path, problem, value.empty() ? std::nullopt : std::optional(printable(value, 120))});
}

std::optional<std::int64_t> ProbeNotes::noted_since(std::size_t before) const {
  if (unreadable.size() <= before) return std::nullopt;
  return static_cast<std::int64_t>(unreadable.size() - before);
}

}  // namespace gd
