#pragma once
// Path lists as glibc reads them (fillin_rpath, _dl_dst_substitute):
// RPATH/RUNPATH split on ':', LD_LIBRARY_PATH on ':' and ';'; an empty
// element means the current directory; $ORIGIN, $LIB and $PLATFORM (bare or
// in braces) are expanded, and an element whose token cannot be expanded is
// dropped. No ".." normalisation, as in glibc.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct DstValues {
  std::optional<std::string> origin;  // unset: this element is dropped
  std::string lib;                    // $LIB, e.g. "lib/x86_64-linux-gnu" on Debian
  std::string platform;               // $PLATFORM, e.g. "x86_64"
};

enum class PathListKind { dynamic_section, ld_library_path };

struct PathElement {
  std::string dir;       // expanded; "" for the current directory
  std::string original;  // as written
};

// At most k_max_path_elements distinct elements: a list that long is a
// mistake or an attack, and the caller reports that it was cut.
inline constexpr std::size_t k_max_path_elements = 4096;
std::vector<PathElement> parse_path_list(std::string_view list, PathListKind kind, const DstValues& values);

// DST expansion of one string; nullopt when a token cannot be expanded.
std::optional<std::string> expand_dst(std::string_view text, const DstValues& values);

}  // namespace gd
