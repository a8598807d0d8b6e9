#include "formats/kmsg.h"

#include <doctest/doctest.h>

TEST_CASE("kmsg records read as the lines dmesg prints for them") {
  // An Xid as nv.c logs it, with the dictionary a device's message carries.
  const std::string records =
      "4,1203,61182989125,-;NVRM: Xid (PCI:0000:01:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n"
      " SUBSYSTEM=pci\n"
      " DEVICE=+pci:0000:01:00.0\n"
      "6,1204,5000,c,caller=T12;nvidia: loading out-of-tree module taints kernel.\n";
  CHECK(gd::kmsg_as_dmesg(records) ==
        "[61182.989125] NVRM: Xid (PCI:0000:01:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n"
        "[    0.005000] nvidia: loading out-of-tree module taints kernel.\n");
}

TEST_CASE("kmsg's escapes: printable bytes and line breaks come back, the rest stays escaped as dmesg shows it") {
  CHECK(gd::kmsg_as_dmesg("6,1,1000000,-;back\\x5cslash tab\\x09end\n") == "[    1.000000] back\\slash tab\tend\n");
  // A line break within a text goes on under it, past the time.
  CHECK(gd::kmsg_as_dmesg("6,1,2000000,-;one\\x0atwo\n") == "[    2.000000] one\n               two\n");
  CHECK(gd::kmsg_as_dmesg("6,1,3,-;bell\\x07 \\xc3\\xa9\n") == "[    0.000003] bell\\x07 \\xc3\\xa9\n");
  // A raw control byte (a hostile snapshot's) is escaped too; a half escape is text.
  CHECK(gd::kmsg_as_dmesg(std::string("6,1,3,-;raw\x01 half\\x4\n")) == "[    0.000003] raw\\x01 half\\x4\n");
}

TEST_CASE("lines that are no kmsg record are skipped, not guessed at") {
  CHECK(gd::kmsg_as_dmesg("").empty());
  CHECK(gd::kmsg_as_dmesg("no header at all\n6,1;too few fields\n6,1,-5,-;negative time\n6,1,x,-;no time\n").empty());
  CHECK(gd::kmsg_as_dmesg("6,1,7,-;\n") == "[    0.000007] \n");  // an empty text is still a record
  CHECK(gd::kmsg_as_dmesg("6,1,7,-;kept") == "[    0.000007] kept\n");  // the last record's line break may be missing
}
