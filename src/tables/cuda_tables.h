#pragma once
// The CUDA tables of rules/tables (cuda-drivers.json, forward-compat.json,
// error-codes.json), validated once at load into typed rows, and the
// questions the probes ask of them: what a driver branch supports, what a
// toolkit needs, minor-version minimums, architectures per CUDA major.

#include "model/action.h"
#include "util/checked.h"
#include "util/version.h"

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct ToolkitRow {
  Version cuda;       // 12.4
  Version linux_min;  // the driver the toolkit shipped with
  bool operator==(const ToolkitRow&) const = default;
};
struct MajorMinimumRow {
  int major = 0;
  Version minimum;  // a driver (minor-version compatibility) or a compute capability
  bool operator==(const MajorMinimumRow&) const = default;
};
struct BranchRow {
  int branch = 0;
  Version cuda;  // what the branch reports to cuDriverGetVersion
  bool operator==(const BranchRow&) const = default;
};
struct PtxIsaRow {
  Version isa;   // 8.4
  Version cuda;  // the CUDA release that introduced it, 12.4: a driver must support that CUDA to JIT it
  bool operator==(const PtxIsaRow&) const = default;
};
struct ForwardCompatRow {
  Version cuda;
  std::vector<int> hosts;  // host branches the cuda-compat package supports
  bool operator==(const ForwardCompatRow&) const = default;
};
// A code of NVIDIA's Xid catalog: NVIDIA's words (mnemonic, meaning, the
// immediate and investigatory resolution buckets) and gpudoctor's (whose
// fault, what a fleet should do, the advice a finding prints).
struct XidRow {
  std::int64_t code = 0;
  std::string mnemonic, meaning, immediate, investigatory, origin, advice;
  Action action = Action::none;
  bool operator==(const XidRow&) const = default;
};

// A row of the Xid catalog's NVLink5 decode (Xid 144-150): the units and
// exact errorStatus values it covers, NVIDIA's buckets, and gpudoctor's action.
struct Nvlink5Row {
  std::int64_t xid = 0;
  std::vector<std::string> units;
  std::vector<std::uint32_t> status;
  std::string immediate, investigatory;
  Action action = Action::none;
  bool operator==(const Nvlink5Row&) const = default;
};

// NETIR_LINK_EVT's link-down reasons (intrInfo bits 25:20), the same way.
struct LinkDownReasonRow {
  std::vector<std::int64_t> reasons;
  std::string immediate, investigatory;
  Action action = Action::none;
  bool operator==(const LinkDownReasonRow&) const = default;
};

// An NVSwitch SXid code as NVIDIA's Fabric Manager guide lists it: its
// name, its class (non-fatal, fatal, always-fatal, other, not-in-guide) and
// what a fleet should do (gpudoctor's).
struct SxidRow {
  std::int64_t code = 0;
  std::string name, klass;
  Action action = Action::none;
  bool operator==(const SxidRow&) const = default;
};

// A PyTorch wheel index (download.pytorch.org/whl/cu128) and the SASS its builds carry.
struct TorchIndexRow {
  std::string index;  // cu128
  Version cuda;       // 12.8
  std::vector<int> sass;  // 75, 80, ..., 120
  bool operator==(const TorchIndexRow&) const = default;
};

struct ErrorCodeRow {
  std::string api;  // cuda, nvml
  std::int64_t code = 0;
  std::string name, layer, meaning;
  bool operator==(const ErrorCodeRow&) const = default;
};

class CudaTables {
 public:
  // Validates one table document ("table": "cuda-drivers" and so on). Returns
  // the first problem, naming the list and row ("toolkits row 3: ..."); on a
  // problem the table keeps nothing of the document.
  Checked<> load(const boost::json::object& table);
  // Which of the three tables were loaded; a rule set needs all of them.
  std::vector<std::string> missing_tables() const;

  // The CUDA version a driver branch reports ("12.4" for 550); for a branch
  // the table does not list, that of the nearest older branch.
  std::optional<Version> cuda_for_branch(int branch) const;
  // The driver the toolkit of this CUDA minor ("12.4") shipped with.
  std::optional<Version> toolkit_driver(const Version& cuda) const;
  // The oldest driver for minor-version compatibility within a major; none before 11.
  std::optional<Version> mvc_minimum(int major) const;
  // The lowest compute capability a CUDA major can build for.
  std::optional<Version> min_compute_capability(int major) const;
  // The CUDA release a PTX ISA version came with ("8.4" -> 12.4); a driver
  // JIT-compiles PTX only up to the ISA of the CUDA version it supports.
  std::optional<Version> cuda_for_ptx_isa(const Version& isa) const;
  // Host branches a cuda-compat package of this CUDA minor supports.
  std::vector<int> forward_compat_hosts(const Version& cuda) const;
  const std::vector<std::string>& forward_compat_unsupported_brands() const { return m_unsupported_brands; }

  const std::vector<ToolkitRow>& toolkits() const { return m_toolkits; }
  const std::vector<BranchRow>& branches() const { return m_branches; }
  const std::vector<ForwardCompatRow>& forward_compat() const { return m_forward_compat; }
  const std::vector<ErrorCodeRow>& error_codes() const { return m_error_codes; }
  const std::string& error_codes_source() const { return m_error_codes_source; }
  const XidRow* xid(std::int64_t code) const;
  const SxidRow* sxid(std::int64_t code) const;
  // nvlink5-decode.json: the row of an Xid 144-150 unit and errorStatus; a link-down unit's reason row.
  const Nvlink5Row* nvlink5_row(std::int64_t xid, std::string_view unit, std::uint32_t status) const;
  bool is_link_down_unit(std::string_view unit) const;
  const LinkDownReasonRow* link_down_reason(std::int64_t reason) const;
  // The advice for an action the decode gives ("BUS_ID" names the GPU); null where the table has none.
  const std::string* nvlink5_advice(Action action) const;
  // Newest first, as the table lists them; empty without torch-wheels.json.
  const std::vector<TorchIndexRow>& torch_indexes() const { return m_torch_indexes; }
  // Every index PyTorch published from cu118 on, as numbers (118 ... 130).
  const std::vector<int>& torch_published() const { return m_torch_published; }
  // The indexes a torch minor ("2.5") was built for; empty when the table does not know it.
  std::vector<int> torch_release_indexes(const Version& torch) const;
  // The table's install command for torch ("torch", "torch==2.5.1") from an index ("cu124").
  std::string torch_install_command(std::string_view torch, std::string_view index) const;
  // framework-installs.json: the sentence of this kind ("libraries", "gpu_code", ...) for a
  // framework, else the "*" row's, with its {placeholders} filled from values; "" when neither has one.
  std::string framework_install(std::string_view framework, std::string_view kind,
                                const std::map<std::string, std::string>& values) const;

  // What the rule set compiled at build time stores of it (util/binary_form.h);
  // == compares every member, so the build's check finds one left out here.
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_have_drivers, self.m_have_forward_compat, self.m_have_error_codes,
      self.m_have_framework_installs, self.m_framework_installs, self.m_toolkits, self.m_mvc,
      self.m_branches, self.m_architectures, self.m_ptx_isa, self.m_forward_compat,
      self.m_unsupported_brands, self.m_error_codes, self.m_xids, self.m_sxids, self.m_nvlink5,
      self.m_link_down_units, self.m_link_down_reasons, self.m_nvlink5_advice, self.m_torch_indexes,
      self.m_torch_published, self.m_torch_releases, self.m_torch_install, self.m_error_codes_source);
  }
  bool operator==(const CudaTables&) const = default;

 private:
  Checked<> load_drivers(const boost::json::object& table);
  std::vector<PtxIsaRow> m_ptx_isa;
  Checked<> load_forward_compat(const boost::json::object& table);
  Checked<> load_error_codes(const boost::json::object& table);
  Checked<> load_xids(const boost::json::object& table);
  Checked<> load_sxids(const boost::json::object& table);
  Checked<> load_nvlink5(const boost::json::object& table);
  Checked<> load_torch_wheels(const boost::json::object& table);
  Checked<> load_framework_installs(const boost::json::object& table);

  bool m_have_drivers = false, m_have_forward_compat = false, m_have_error_codes = false, m_have_framework_installs = false;
  std::map<std::string, std::map<std::string, std::string>, std::less<>> m_framework_installs;  // framework -> kind -> sentence
  std::vector<ToolkitRow> m_toolkits;
  std::vector<MajorMinimumRow> m_mvc;
  std::vector<BranchRow> m_branches;
  std::vector<MajorMinimumRow> m_architectures;
  std::vector<ForwardCompatRow> m_forward_compat;
  std::vector<std::string> m_unsupported_brands;
  std::vector<ErrorCodeRow> m_error_codes;
  std::vector<XidRow> m_xids;
  std::vector<SxidRow> m_sxids;
  std::vector<Nvlink5Row> m_nvlink5;
  std::vector<std::string> m_link_down_units;
  std::vector<LinkDownReasonRow> m_link_down_reasons;
  std::map<Action, std::string> m_nvlink5_advice;
  std::vector<TorchIndexRow> m_torch_indexes;
  std::vector<int> m_torch_published;
  std::vector<std::pair<Version, std::vector<int>>> m_torch_releases;
  std::string m_torch_install;
  std::string m_error_codes_source;
};

}  // namespace gd
