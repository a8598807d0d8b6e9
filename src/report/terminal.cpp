#include "report/terminal.h"

#include <sys/ioctl.h>
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

// The terminal's width when stdout is one (COLUMNS where the ioctl cannot
// say); 0 otherwise, so that a file or a pipe gets whole lines.
std::size_t terminal_width() {
  if (::isatty(STDOUT_FILENO) != 1) return 0;
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    const long value = std::strtol(columns, nullptr, 10);
    if (value >= 40 && value <= 1000) return static_cast<std::size_t>(value);
  }
  return 80;
}

// no-color.org: a NO_COLOR that is present and not empty turns the default
// colour off; an option given on the command line overrides it.
bool wants_color(ColorChoice choice, const char* no_color, bool terminal, const char* term) {
  if (choice != ColorChoice::auto_detect) return choice == ColorChoice::always;
  if (no_color && *no_color) return false;
  return terminal && !(term && std::string_view(term) == "dumb");
}

TerminalStyle decide_terminal_style(ColorChoice choice) {
  TerminalStyle style;
  style.unicode = locale_is_utf8();
  style.width = terminal_width();
  style.color = wants_color(choice, std::getenv("NO_COLOR"), ::isatty(STDOUT_FILENO) == 1, std::getenv("TERM"));
  return style;
}

}  // namespace gd
