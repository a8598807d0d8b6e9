#pragma once
// The tegra-socs table (rules/tables/tegra-socs.json): a Tegra SoC's device
// tree compatible to its integrated GPU, and an L4T release to the JetPack
// and the CUDA version its libcuda supports. Validated once at load.

#include "model/gpu_kinds.h"
#include "util/checked.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct TegraSocRow {
  std::string compatible;  // "nvidia,tegra234"
  std::string soc, chip, compute_capability, modules;
  GpuArchitecture architecture = GpuArchitecture::Kepler;
  std::string kernel_module;  // what drives its GPU: nvgpu (L4T before R38), nvidia (Thor, JetPack 7)
  bool operator==(const TegraSocRow&) const = default;
};

struct L4tReleaseRow {
  std::string l4t;  // "36.4": major.minor, as /etc/nv_tegra_release's R36 and REVISION 4.x give it
  std::string jetpack, cuda;
  bool operator==(const L4tReleaseRow&) const = default;
};

class TegraTable {
 public:
  Checked<> load(const boost::json::object& table);
  const TegraSocRow* soc(std::string_view compatible) const;
  // The row of an L4T release "36.4.0" (matched on major.minor).
  const L4tReleaseRow* release(std::string_view l4t) const;

  // What the rule set compiled at build time stores of it (util/binary_form.h);
  // == compares every member, so the build's check finds one left out here.
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_socs, self.m_releases);
  }
  bool operator==(const TegraTable&) const = default;

 private:
  std::vector<TegraSocRow> m_socs;
  std::vector<L4tReleaseRow> m_releases;
};

}  // namespace gd
