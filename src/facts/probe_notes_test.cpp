// A probe names the facts it gives a source by their members: the report
// keys each source by the name fields() gives it.

#include "facts/hardware_facts.h"
#include "facts/probe_notes.h"

#include <doctest/doctest.h>

namespace {

// fields() lists one member, and not the other.
struct Partial {
  int listed = 0;
  int unlisted = 0;

  template <class F>
  void fields(F& f) const {
    f("listed_name", listed, "a fact");
  }
};

}  // namespace

TEST_CASE("sources are keyed by the name fields() gives the member, which may differ from the member's own") {
  gd::Probed<gd::PciFunction> function;
  function.source(&gd::PciFunction::pci_class, "/sys/bus/pci/devices/0000:01:00.0/class");
  function.source_of_each("sysfs", &gd::PciFunction::bdf, &gd::PciFunction::device_id);
  CHECK(function.sources.at("class") == "/sys/bus/pci/devices/0000:01:00.0/class");
  CHECK(function.sources.at("bdf") == "sysfs");
  CHECK(function.sources.at("device_id") == "sysfs");
  CHECK(function.sources.size() == 3);
  const auto layer = gd::to_layer_facts("hardware", function);
  CHECK(layer.sources.at("class") == "/sys/bus/pci/devices/0000:01:00.0/class");
}

TEST_CASE("a member fields() does not list is a bug, never a fact of a made-up name") {
  const Partial partial;
  CHECK(std::string(gd::fact_name(partial, &Partial::listed)) == "listed_name");
  CHECK_THROWS_AS(gd::fact_name(partial, &Partial::unlisted), std::logic_error);
}
