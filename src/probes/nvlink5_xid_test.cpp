#include "probes/nvlink5_xid.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("nvlink5: a line's fields, after the process it may name; junk gives what it can") {
  auto line = gd::parse_nvlink5_line(" pid=876767, name=ray::WorkerDict, RLW_RXPIPE Nonfatal XC0 i0 Link 13 (0x0409a0c2 0x00000008 0x00000001)");
  CHECK(line.unit == "RLW_RXPIPE");
  CHECK(line.fatal == false);
  CHECK(line.intr_info == 0x0409a0c2u);
  CHECK(line.error_status == 0x8u);
  line = gd::parse_nvlink5_line(" NETIR_LINK_EVT  Fatal   XC0 i0 Link -1 (0x000fe406 0x00000000 0x00000000 0x00000000)");
  CHECK(line.unit == "NETIR_LINK_EVT");
  CHECK(line.fatal == true);
  CHECK(line.error_status == 0u);
  CHECK(gd::parse_nvlink5_line(" pid=1, name=no comma after it").unit.empty());
  line = gd::parse_nvlink5_line(" UNIT Fatalistic XC0 (0xzz)");
  CHECK_FALSE(line.fatal);
  CHECK_FALSE(line.intr_info);
  CHECK_FALSE(line.error_status);
  CHECK(gd::parse_nvlink5_line("").unit.empty());
}

TEST_CASE("nvlink5: each line decodes with NVIDIA's table; a line the table lacks goes by its severity word") {
  struct Case {
    std::int64_t code;
    const char* text;
    gd::Action action;
    const char* how;  // the start of how it decoded
  };
  // Real lines (gpud's and NVSentinel's captures) and rows of the decode sheet.
  const Case cases[] = {
      // A link down whose reason (intrInfo bits 25:20 = 33) is the peer's.
      {149, " NETIR_LINK_EVT  Fatal   XC0 i0 Link 01 (0x021425c6 0x00000000 0x00000000)", gd::Action::drain_and_reset,
       "NETIR_LINK_EVT, link-down reason 33: RESET_GPU, INVESTIGATE_PEER_DEVICE"},
      // Reason 38, the software's own: the decode ignores it, whatever the word.
      {149, " NETIR_LINK_EVT  Fatal   XC0 i0 Link 04 (0x026025c6 0x00000000)", gd::Action::none, "NETIR_LINK_EVT, link-down reason 38: IGNORE"},
      {149, " NETIR_BER_EVENT Nonfatal XC0 i0 Link 03 (0x00086226 0x00000001)", gd::Action::none,
       "NETIR_BER_EVENT errorStatus 0x1: IGNORE, INVESTIGATE_LINK_SI_AND_CABLES"},
      // XID_154_EVAL: nothing until the driver's Xid 154 says more.
      {145, " RLW_SRC_TRACK Nonfatal XC1 i0 Link 12 (0x040988e2 0x00000008)", gd::Action::none, "RLW_SRC_TRACK errorStatus 0x8: XID_154_EVAL"},
      // Either spelling of a unit; the table, not the word, decides.
      {146, " TLW_RX/TLW_RX_PIPE0 Nonfatal XC0 i0 Link 02 (0x0000000a 0x00000004)", gd::Action::reset_gpu, "TLW_RX/TLW_RX_PIPE0 errorStatus 0x4: RESET_GPU"},
      {146, " TLW_RX_PIPE1 Nonfatal XC0 i0 Link 02 (0x0000000b 0x00000001)", gd::Action::none, "TLW_RX_PIPE1 errorStatus 0x1: IGNORE"},
      // Not in the table: the word decides, Fatal keeps the catalog's action for the code.
      {144, " SAW_MVB  Fatal   XC0 i0 Link 05 (0x00000021 0x00000040)", gd::Action::reset_gpu, "SAW_MVB, not in the decode table; the line says Fatal"},
      {144, " SAW_MVB Nonfatal XC0 i0 Link 05 (0x00000021 0x00000040)", gd::Action::none, "SAW_MVB, not in the decode table; the line says Nonfatal"},
      {149, " something else entirely", gd::Action::drain_and_reset, "something, not in the decode table; the catalog's action"},
  };
  const auto& tables = gd::builtin_tables().cuda;
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto decision = gd::decide_nvlink5(c.code, c.text, tables);
    CHECK(decision.action == c.action);
    CHECK(decision.how.starts_with(c.how));
  }
}
