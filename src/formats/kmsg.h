#pragma once
// /dev/kmsg's records (Documentation/ABI/testing/dev-kmsg):
// "LEVEL,SEQ,USEC,FLAGS[,...];TEXT\n", then indented "KEY=VALUE" lines, the
// text's bytes below space, above '~' and '\' written "\xNN". Turned into the
// lines `dmesg` prints for them by default (util-linux, C locale), so the
// kernel log reads the same from the file as from the program.

#include <string>
#include <string_view>

namespace gd {

// "[SSSSS.UUUUUU] TEXT" a record; a byte that is neither printable nor
// white space stays "\xNN", and a line break within a text goes on under
// the text, indented past the time. A line that is not a record's is skipped.
std::string kmsg_as_dmesg(std::string_view records);

}  // namespace gd
