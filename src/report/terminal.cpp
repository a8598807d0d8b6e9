#include "report/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace gd {

namespace {

bool locale_is_utf8() {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* value = std::getenv(name);
    if (!value || !*value) continue;
    const std::string_view text(value);
    return text.find("UTF-8") != std::string_view::npos || text.find("utf8") != std::string_view::npos ||
           text.find("utf-8") != std::string_view::npos || text.find("UTF8") != std::string_view::npos;
  }
  return false;
}

}  // namespace

TerminalStyle decide_terminal_style(ColorChoice choice) {
  TerminalStyle style;
  style.unicode = locale_is_utf8();
  if (std::getenv("NO_COLOR") || choice == ColorChoice::never) return style;
  if (choice == ColorChoice::always) {
    style.color = true;
    return style;
  }
  const char* term = std::getenv("TERM");
  style.color = ::isatty(STDOUT_FILENO) == 1 && !(term && std::string_view(term) == "dumb");
  return style;
}

}  // namespace gd
