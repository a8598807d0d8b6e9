#include "util/text.h"

#include <doctest/doctest.h>

TEST_CASE("parse_hex reads sysfs ids and refuses junk") {
  CHECK(gd::parse_hex("0x10de\n") == 0x10deu);
  CHECK(gd::parse_hex("10DE") == 0x10deu);
  CHECK(gd::parse_hex("0x030200") == 0x030200u);
  SUBCASE("junk") {
    CHECK_FALSE(gd::parse_hex(""));
    CHECK_FALSE(gd::parse_hex("0x"));
    CHECK_FALSE(gd::parse_hex("zzzz"));
    CHECK_FALSE(gd::parse_hex("0x10de junk"));
    CHECK_FALSE(gd::parse_hex("0x1234567890"));
  }
}

TEST_CASE("parse_colon_fields reads /proc/driver/nvidia/gpus/*/information") {
  auto fields = gd::parse_colon_fields(
      "Model: \t\t NVIDIA H100 80GB HBM3\nDevice Minor: \t 3\nBus Location: \t 0000:1b:00.0\nnot a field\n");
  CHECK(fields["Model"] == "NVIDIA H100 80GB HBM3");
  CHECK(fields["Device Minor"] == "3");
  CHECK(fields["Bus Location"] == "0000:1b:00.0");
  CHECK(fields.size() == 3);
}

TEST_CASE("printable escapes control bytes and caps length") {
  CHECK(gd::printable("a\x01" "b") == "a\\x01b");
  CHECK(gd::printable(std::string(500, 'x'), 10) == "xxxxxxxxxx...");
  CHECK(gd::looks_like_text("NVRM version: 550\n"));
  CHECK_FALSE(gd::looks_like_text(std::string("\x7f" "ELF\x02", 5)));
}

TEST_CASE("split keeps empty fields; lines drops the final newline") {
  CHECK(gd::split("a,,b", ',').size() == 3);
  CHECK(gd::lines("a\nb\n").size() == 2);
  CHECK(gd::trim("  x \n") == "x");
}

TEST_CASE("split and lines stop at k_max_parts, the last part holding the rest") {
  const std::string commas(3 * gd::k_max_parts, ',');
  const auto parts = gd::split(commas, ',');
  REQUIRE(parts.size() == gd::k_max_parts);
  CHECK(parts.front().empty());
  CHECK(parts.back().size() == commas.size() - (gd::k_max_parts - 1));
  const std::string newlines(2 * gd::k_max_parts, '\n');
  CHECK(gd::lines(newlines).size() == gd::k_max_parts);
}

TEST_CASE("valid_utf8 keeps valid UTF-8 and writes every other byte as \\xNN") {
  CHECK(gd::valid_utf8("plain") == "plain");
  CHECK(gd::valid_utf8("GeForce RTX\xe2\x84\xa2 4090 \xc3\xa9") == "GeForce RTX\xe2\x84\xa2 4090 \xc3\xa9");
  CHECK(gd::valid_utf8("/tmp/\xff\xfe") == "/tmp/\\xff\\xfe");
  CHECK(gd::valid_utf8("\xc3\x28") == "\\xc3(");              // a lead byte without its continuation
  CHECK(gd::valid_utf8("\xc0\xaf") == "\\xc0\\xaf");           // overlong
  CHECK(gd::valid_utf8("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(gd::valid_utf8("\xe2\x84") == "\\xe2\\x84");           // cut short
}

TEST_CASE("is_valid_utf8 says whether valid_utf8 would change anything") {
  CHECK(gd::is_valid_utf8(""));
  CHECK(gd::is_valid_utf8("GeForce RTX\xe2\x84\xa2 4090 \xc3\xa9"));
  CHECK_FALSE(gd::is_valid_utf8("/tmp/\xff"));
  CHECK_FALSE(gd::is_valid_utf8("\xed\xa0\x80"));
  CHECK_FALSE(gd::is_valid_utf8("ok\xe2\x84"));
}

TEST_CASE("replace_all replaces every occurrence once, never what it brought in") {
  CHECK(gd::replace_all("pip install {torch} # {torch}", "{torch}", "torch==2.5.1") == "pip install torch==2.5.1 # torch==2.5.1");
  CHECK(gd::replace_all("{x}", "{x}", "{x}{x}") == "{x}{x}");  // not searched again: no runaway
  CHECK(gd::replace_all("aaa", "a", "") == "");
  CHECK(gd::replace_all("text", "", "x") == "text");
  CHECK(gd::replace_all("text", "missing", "x") == "text");
}

TEST_CASE("terminal_safe keeps lines, tabs and UTF-8, and escapes what a terminal would obey") {
  CHECK(gd::terminal_safe("a\tb\nc") == "a\tb\nc");
  CHECK(gd::terminal_safe("/tmp/x\x1b[31mred") == "/tmp/x\\x1b[31mred");
  CHECK(gd::terminal_safe("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(gd::terminal_safe("line\roverwritten\x7f") == "line\\x0doverwritten\\x7f");
  CHECK(gd::terminal_safe("caf\xc3\xa9") == "caf\xc3\xa9");  // é stays
  CHECK(gd::terminal_safe("\xc2\x9b" "31m") == "\\xc2\\x9b" "31m");  // CSI as a C1 control
}

TEST_CASE("concat puts the parts one after the other") {
  CHECK(gd::concat({}).empty());
  CHECK(gd::concat({"/run/nvidia", "/", "validations"}) == "/run/nvidia/validations");
  const std::string long_part(100, 'x');
  CHECK(gd::concat({long_part, ": ", "row 3"}) == long_part + ": row 3");
}

TEST_CASE("without_bracketed_prefix drops a log's leading fields, no more than asked") {
  CHECK(gd::without_bracketed_prefix("[   12.345678] NVRM: Xid 79") == "NVRM: Xid 79");
  CHECK(gd::without_bracketed_prefix("[   12.3] [drm] nvidia") == "[drm] nvidia");
  CHECK(gd::without_bracketed_prefix("[   12.3]  <TASK>") == " <TASK>");  // a trace line keeps its indent
  CHECK(gd::without_bracketed_prefix("[Nov 05 2025 13:55:26] [ERROR] [tid 104230] fabric manager", 3) == "fabric manager");
  CHECK(gd::without_bracketed_prefix("[unclosed NVRM", 3) == "[unclosed NVRM");
  CHECK(gd::without_bracketed_prefix("NVRM: [x] y", 3) == "NVRM: [x] y");
  CHECK(gd::without_bracketed_prefix("", 3).empty());
}

TEST_CASE("first_nonblank_line: a program's first words, trimmed, escaped and capped") {
  CHECK(gd::first_nonblank_line("\n  \r\n  cannot connect: permission denied (EACCES)  \r\nmore\n") == "cannot connect: permission denied (EACCES)");
  CHECK(gd::first_nonblank_line(" \n\t\n").empty());
  CHECK(gd::first_nonblank_line("a\x1b[31mb\n") == gd::printable("a\x1b[31mb", 200));
  CHECK(gd::first_nonblank_line(std::string(500, 'x')).size() == gd::printable(std::string(500, 'x'), 200).size());
}

TEST_CASE("the newest records kept start where a record does, never inside one or at its dictionary") {
  std::string text = "1,1,1,-;a\n KEY=1\n2,2,2,-;bb\n3,3,3,-;c\n";
  gd::keep_newest_records(text, 100);
  CHECK(text == "1,1,1,-;a\n KEY=1\n2,2,2,-;bb\n3,3,3,-;c\n");
  gd::keep_newest_records(text, text.size() - 1);  // cuts into the first record: it goes whole
  CHECK(text == "2,2,2,-;bb\n3,3,3,-;c\n");
  gd::keep_newest_records(text, 3);  // not even the last fits
  CHECK(text.empty());
}
