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

TerminalStyle decide_terminal_style(ColorChoice choice) {
  TerminalStyle style;
  style.unicode = locale_is_utf8();
  style.width = terminal_width();
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
