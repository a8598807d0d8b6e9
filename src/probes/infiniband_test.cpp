#include "probes/infiniband.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("infiniband: a port's states, rate and its two link counters; a counter that cannot be read is unknown") {
  gd::FakeHost host;
  const std::string port = "/sys/class/infiniband/mlx5_0/ports/1/";
  host.file(port + "state", "4: ACTIVE\n").file(port + "phys_state", "5: LinkUp\n");
  host.file(port + "rate", "400 Gb/sec (4X NDR)\n").file(port + "link_layer", "InfiniBand\n");
  host.file(port + "counters/link_downed", "12\n").file(port + "counters/link_error_recovery", "3\n");
  const std::string roce = "/sys/class/infiniband/mlx5_1/ports/1/";
  host.file(roce + "state", "4: ACTIVE\n").file(roce + "link_layer", "Ethernet\n");
  host.file(roce + "counters/link_downed", "lots\n");  // junk: not a count
  const auto read = gd::read_ib_ports(host);
  REQUIRE(read.ports.size() == 2);
  CHECK(read.ports[0].state == "ACTIVE");
  CHECK(read.ports[0].phys_state == "LinkUp");
  CHECK(read.ports[0].link_downed == 12);
  CHECK(read.ports[0].link_error_recovery == 3);
  CHECK(read.ports[1].link_layer == "Ethernet");
  CHECK_FALSE(read.ports[1].link_downed);
  CHECK_FALSE(read.ports[1].link_error_recovery);
  CHECK_FALSE(read.cut);
}
