#pragma once
// The one place that decides about colour and glyphs. It looks at our own
// output and environment, never at the diagnosed system's (so a replayed
// snapshot renders for the person reading it).

#include "util/enum_names.h"

#include <cstddef>
#include <string>

namespace gd {

enum class ColorChoice { auto_detect, always, never };
template <>
struct EnumTable<ColorChoice> {
  static constexpr std::array names{"auto", "always", "never"};
};

struct TerminalStyle {
  bool color = false;
  bool unicode = false;
  std::size_t width = 0;  // wrap long lines at this many columns; 0: not a terminal, no wrapping
};

// NO_COLOR (set, whatever its value) always wins, then the choice; auto means
// colour only when stdout is a terminal and TERM is not "dumb".
TerminalStyle decide_terminal_style(ColorChoice choice);

// The colour decision alone: --color always/never wins; for auto, a
// non-empty NO_COLOR turns colour off, else a terminal not "dumb" gets it.
bool wants_color(ColorChoice choice, const char* no_color, bool terminal, const char* term);

}  // namespace gd
