#pragma once
// Small, allocation-light helpers for the text formats we read from /proc,
// /sys and the environment. All of them accept arbitrary bytes.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

std::string_view trim(std::string_view text);
// Both stop at k_max_parts parts, the last one holding the rest of the
// text: no input we read has a million fields or lines, and a hostile one
// must not cost a gigabyte of views.
inline constexpr std::size_t k_max_parts = 1 << 20;
std::vector<std::string_view> split(std::string_view text, char separator);
std::vector<std::string_view> lines(std::string_view text);
// ASCII lower case (the identifiers we compare are ASCII).
std::string to_lower(std::string_view text);
bool contains(std::string_view text, std::string_view needle);
// A log line without its leading "[...] " fields, at most `fields` of them:
// the kernel's "[   12.345678] " time, Fabric Manager's "[date] [ERROR] [tid 1] ".
std::string_view without_bracketed_prefix(std::string_view line, int fields = 1);
// Every occurrence of from replaced by to, left to right; what to brings in is not searched again.
std::string replace_all(std::string text, std::string_view from, std::string_view to);

// The parts one after the other, in one allocation. Also how a constant and a
// name are put together: GCC 12 misreads std::string(k_dir) + "..." inlined
// (-Warray-bounds on the short-string buffer) once a precompiled header changes its inlining.
std::string concat(std::initializer_list<std::string_view> parts);

// "0x10de\n" or "10de" -> 0x10de; nullopt on anything else.
std::optional<std::uint32_t> parse_hex(std::string_view text);
// Decimal, without sign or spaces around it.
std::optional<std::int64_t> parse_int(std::string_view text);

// The first line that is not blank, trimmed and made printable (200 at
// most): what a program's error output says first.
std::string first_nonblank_line(std::string_view text);

// Text of records, each a line followed by its indented lines (/dev/kmsg's
// dictionary): the oldest whole records dropped until it holds at most max_bytes.
void keep_newest_records(std::string& text, std::size_t max_bytes);

// "Key:   value" lines, as in /proc/driver/nvidia/gpus/*/information.
std::map<std::string, std::string> parse_colon_fields(std::string_view text);

// Text for a terminal, whole: newlines and tabs kept, UTF-8 kept, but every
// other control byte (ESC, CR, BEL, DEL, and the C1 controls U+0080-U+009F,
// which some terminals obey) written as \xNN, so that a path or a line from a
// file cannot move the cursor, retitle the window or hide what follows.
std::string terminal_safe(std::string_view text);

// For showing untrusted text to a person: control and non-ASCII bytes become
// \xNN escapes, and the result is cut at max_length with an ellipsis.
std::string printable(std::string_view text, std::size_t max_length = 200);

// The text with every byte that is not part of valid UTF-8 written as \xNN
// (valid UTF-8, including non-ASCII, is kept): what a JSON report needs.
std::string valid_utf8(std::string_view text);
// True when every byte is part of valid UTF-8 (RFC 3629).
bool is_valid_utf8(std::string_view text);

// True when the bytes are plain text (no NULs or control characters but
// tab and newline); binary junk in a text file is evidence in itself.
bool looks_like_text(std::string_view text);

// The deepest [ / { nesting outside quotes and comments: YAML parsers such as
// yaml-cpp recurse once per level, so input is refused past a bound first.
std::size_t flow_nesting(std::string_view text);

}  // namespace gd
