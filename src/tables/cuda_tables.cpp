#include "tables/cuda_tables.h"

#include "tables/table_rows.h"
#include "util/json_fields.h"
#include "util/text.h"

#include <algorithm>
#include <array>

namespace gd {
namespace json = boost::json;

namespace {

template <class Row>
Checked<> read_major_minimums(const json::object& table, const char* list, const char* field, std::vector<Row>& out) {
  return RowReader(table, list).each([&](const json::object& row) -> Checked<> {
    Row parsed;
    if (auto read = number_field(row, "major", 1, 99, parsed.major); !read) return read;
    if (auto read = version_field(row, field, parsed.minimum); !read) return read;
    out.push_back(std::move(parsed));
    return {};
  });
}

}  // namespace

Checked<> CudaTables::load(const json::object& table) {
  const std::string name = string_field(table, "table");
  if (name == "cuda-drivers") return load_drivers(table);
  if (name == "forward-compat") return load_forward_compat(table);
  if (name == "error-codes") return load_error_codes(table);
  if (name == "xid-codes") return load_xids(table);
  if (name == "sxid-codes") return load_sxids(table);
  if (name == "nvlink5-decode") return load_nvlink5(table);
  if (name == "torch-wheels") return load_torch_wheels(table);
  if (name == "framework-installs") return load_framework_installs(table);
  return problem("unknown table \"" + name + "\" (known: pci-chips, cuda-drivers, forward-compat, error-codes, xid-codes, sxid-codes, nvlink5-decode, torch-wheels, "
                 "framework-installs)");
}

std::vector<std::string> CudaTables::missing_tables() const {
  std::vector<std::string> missing;
  if (!m_have_drivers) missing.emplace_back("cuda-drivers");
  if (!m_have_forward_compat) missing.emplace_back("forward-compat");
  if (!m_have_error_codes) missing.emplace_back("error-codes");
  if (!m_have_framework_installs) missing.emplace_back("framework-installs");
  return missing;
}

Checked<> CudaTables::load_drivers(const json::object& table) {
  std::vector<ToolkitRow> toolkits;
  std::vector<MajorMinimumRow> mvc, architectures;
  std::vector<BranchRow> branches;
  Checked<> read = RowReader(table, "toolkits").each([&](const json::object& row) -> Checked<> {
    ToolkitRow parsed;
    if (auto read = version_field(row, "cuda", parsed.cuda); !read) return read;
    if (auto read = version_field(row, "linux_min", parsed.linux_min); !read) return read;
    toolkits.push_back(std::move(parsed));
    return {};
  });
  if (read) read = read_major_minimums(table, "minor_version_compatibility", "linux_min", mvc);
  if (read)
    read = RowReader(table, "branches").each([&](const json::object& row) -> Checked<> {
      BranchRow parsed;
      if (auto read = number_field(row, "branch", 1, 9999, parsed.branch); !read) return read;
      if (auto read = version_field(row, "cuda", parsed.cuda); !read) return read;
      branches.push_back(std::move(parsed));
      return {};
    });
  if (read) read = read_major_minimums(table, "architectures", "min_cc", architectures);
  std::vector<PtxIsaRow> ptx_isa;
  if (read && table.contains("ptx_isa"))
    read = RowReader(table, "ptx_isa").each([&](const json::object& row) -> Checked<> {
      PtxIsaRow parsed;
      if (auto read = version_field(row, "isa", parsed.isa); !read) return read;
      if (auto read = version_field(row, "cuda", parsed.cuda); !read) return read;
      ptx_isa.push_back(std::move(parsed));
      return {};
    });
  if (!read) return read;
  m_ptx_isa = std::move(ptx_isa);
  m_toolkits = std::move(toolkits);
  m_mvc = std::move(mvc);
  m_branches = std::move(branches);
  m_architectures = std::move(architectures);
  m_have_drivers = true;
  return {};
}

std::optional<Version> CudaTables::cuda_for_ptx_isa(const Version& isa) const {
  for (const auto& row : m_ptx_isa)
    if (row.isa == isa) return row.cuda;
  return std::nullopt;
}

Checked<> CudaTables::load_forward_compat(const json::object& table) {
  std::vector<ForwardCompatRow> packages;
  Checked<> read = RowReader(table, "packages").each([&](const json::object& row) -> Checked<> {
    ForwardCompatRow parsed;
    if (auto read = version_field(row, "cuda", parsed.cuda); !read) return read;
    const auto* hosts = row.if_contains("hosts");
    if (!hosts || !hosts->is_array()) return problem(std::string("needs a \"hosts\" list of driver branches"));
    for (const auto& host : hosts->get_array()) {
      if (!host.is_int64() || host.get_int64() < 1 || host.get_int64() > 9999)
        return problem(std::string("\"hosts\" holds driver branches (numbers), not ") + json::serialize(host));
      parsed.hosts.push_back(static_cast<int>(host.get_int64()));
    }
    packages.push_back(std::move(parsed));
    return {};
  });
  if (!read) return read;
  std::vector<std::string> brands;
  const auto* listed = table.if_contains("unsupported_brands");
  if (!listed || !listed->is_array()) return problem("needs an \"unsupported_brands\" list");
  for (const auto& brand : listed->get_array()) {
    if (!brand.is_string()) return problem("\"unsupported_brands\" holds brand names");
    brands.emplace_back(brand.get_string());
  }
  m_forward_compat = std::move(packages);
  m_unsupported_brands = std::move(brands);
  m_have_forward_compat = true;
  return {};
}

Checked<> CudaTables::load_error_codes(const json::object& table) {
  std::vector<ErrorCodeRow> codes;
  Checked<> read = RowReader(table, "codes").each([&](const json::object& row) -> Checked<> {
    ErrorCodeRow parsed;
    const auto code = int_field(row, "code");
    if (!code) return problem(std::string("\"code\" must be a number"));
    parsed.code = *code;
    for (auto [key, out] : {std::pair{"api", &parsed.api}, {"name", &parsed.name}, {"layer", &parsed.layer},
                            {"meaning", &parsed.meaning}})
      if (auto read = text_field(row, key, *out); !read) return read;
    codes.push_back(std::move(parsed));
    return {};
  });
  if (!read) return read;
  m_error_codes = std::move(codes);
  m_error_codes_source = string_field(table, "source");
  m_have_error_codes = true;
  return {};
}

Checked<> CudaTables::load_torch_wheels(const json::object& table) {
  std::vector<TorchIndexRow> rows;
  Checked<> read = RowReader(table, "indexes").each([&](const json::object& row) -> Checked<> {
    TorchIndexRow parsed;
    if (auto read = text_field(row, "index", parsed.index); !read) return read;
    if (!parsed.index.starts_with("cu") || parsed.index.size() < 4 || parsed.index.find_first_not_of("0123456789", 2) != std::string::npos)
      return problem(std::string("\"index\" is a wheel index tag such as cu128"));
    if (auto read = version_field(row, "cuda", parsed.cuda); !read) return read;
    const auto* sass = row.if_contains("sass");
    if (!sass || !sass->is_array() || sass->get_array().empty()) return problem(std::string("needs a \"sass\" list of compute capabilities"));
    for (const auto& cc : sass->get_array()) {
      const auto version = cc.is_string() ? Version::parse(cc.get_string()) : std::nullopt;
      if (!version || version->major() > 99 || version->minor() > 9) return problem(std::string("\"sass\" holds compute capabilities such as \"9.0\""));
      parsed.sass.push_back(static_cast<int>(version->major() * 10 + version->minor()));
    }
    rows.push_back(std::move(parsed));
    return {};
  });
  if (!read) return read;
  // "cu128" -> 128
  const auto tag_number = [](const json::value& tag) -> std::optional<int> {
    if (!tag.is_string()) return std::nullopt;
    const std::string_view text = tag.get_string();
    if (!text.starts_with("cu") || text.size() < 4 || text.size() > 6 || text.find_first_not_of("0123456789", 2) != std::string_view::npos)
      return std::nullopt;
    return std::stoi(std::string(text.substr(2)));
  };
  std::vector<int> published;
  if (const auto* list = table.if_contains("published"); list && list->is_array())
    for (const auto& tag : list->get_array()) {
      const auto number = tag_number(tag);
      if (!number) return problem(std::string("\"published\" holds index tags such as \"cu128\""));
      published.push_back(*number);
    }
  std::vector<std::pair<Version, std::vector<int>>> releases;
  if (table.contains("releases"))
    read = RowReader(table, "releases").each([&](const json::object& row) -> Checked<> {
      Version torch;
      if (auto read = version_field(row, "torch", torch); !read) return read;
      const auto* indexes = row.if_contains("indexes");
      if (!indexes || !indexes->is_array()) return problem(std::string("needs an \"indexes\" list"));
      std::vector<int> numbers;
      for (const auto& tag : indexes->get_array()) {
        const auto number = tag_number(tag);
        if (!number) return problem(std::string("\"indexes\" holds index tags such as \"cu128\""));
        numbers.push_back(*number);
      }
      releases.emplace_back(torch, std::move(numbers));
      return {};
    });
  if (!read) return read;
  const std::string install = string_field(table, "install");
  if (install.find("{torch}") == std::string::npos || install.find("{index}") == std::string::npos)
    return problem(std::string("needs an \"install\" command with {torch} and {index} in it"));
  m_torch_install = install;
  m_torch_indexes = std::move(rows);
  m_torch_published = std::move(published);
  m_torch_releases = std::move(releases);
  return {};
}

std::string CudaTables::torch_install_command(std::string_view torch, std::string_view index) const {
  return replace_all(replace_all(m_torch_install, "{torch}", torch), "{index}", index);
}

namespace {

constexpr std::array<std::string_view, 7> k_install_kinds = {"libraries", "gpu_code", "gpu_code_unknown_driver", "gpu_code_unavailable",
                                                             "gpu_code_unavailable_unknown_driver", "other_build", "other_release"};
constexpr std::array<std::string_view, 7> k_install_placeholders = {"pin", "cuda", "cudnn", "arch", "cc", "driver_major", "torch_install"};

// Every {name} in a sentence must be one the probes fill.
Checked<> known_placeholders(std::string_view text) {
  for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const auto close = text.find('}', open);
    if (close == std::string_view::npos) return problem("a \"{\" is never closed");
    const auto name = text.substr(open + 1, close - open - 1);
    if (std::find(k_install_placeholders.begin(), k_install_placeholders.end(), name) == k_install_placeholders.end())
      return problem("{" + std::string(name) + "} is no placeholder (pin, cuda, cudnn, arch, cc, driver_major, torch_install)");
  }
  return {};
}

}  // namespace

Checked<> CudaTables::load_framework_installs(const json::object& table) {
  std::map<std::string, std::map<std::string, std::string>, std::less<>> rows;
  Checked<> read = RowReader(table, "frameworks").each([&](const json::object& row) -> Checked<> {
    std::string framework;
    if (auto named = text_field(row, "framework", framework); !named) return named;
    auto& texts = rows[framework];
    for (const auto& [key, value] : row) {
      if (key == "framework") continue;
      if (std::find(k_install_kinds.begin(), k_install_kinds.end(), std::string_view(key)) == k_install_kinds.end())
        return problem("\"" + std::string(key) + "\" is no kind of install sentence");
      if (!value.is_string() || value.get_string().empty()) return problem("\"" + std::string(key) + "\" must be a sentence");
      if (auto placeholders = known_placeholders(value.get_string()); !placeholders)
        return problem("\"" + std::string(key) + "\": " + placeholders.error());
      texts.emplace(std::string(key), std::string(value.get_string()));
    }
    return {};
  });
  if (!read) return read;
  const auto any = rows.find("*");
  if (any == rows.end() || !any->second.contains("gpu_code") || !any->second.contains("other_build"))
    return problem("needs a \"*\" row with \"gpu_code\" and \"other_build\" for every other framework");
  m_framework_installs = std::move(rows);
  m_have_framework_installs = true;
  return {};
}

std::string CudaTables::framework_install(std::string_view framework, std::string_view kind,
                                          const std::map<std::string, std::string>& values) const {
  const std::string* text = nullptr;
  for (std::string_view row : {framework, std::string_view("*")}) {
    const auto found = m_framework_installs.find(row);
    if (found == m_framework_installs.end()) continue;
    if (const auto sentence = found->second.find(std::string(kind)); sentence != found->second.end()) {
      text = &sentence->second;
      break;
    }
  }
  if (!text) return {};
  std::string filled = *text;
  for (const auto& [name, value] : values) filled = replace_all(filled, "{" + name + "}", value);
  return filled;
}

std::vector<int> CudaTables::torch_release_indexes(const Version& torch) const {
  for (const auto& [release, indexes] : m_torch_releases)
    if (release.major() == torch.major() && release.minor() == torch.minor()) return indexes;
  return {};
}

namespace {

// The code and action fields the Xid and SXid tables share.
Checked<> read_code_and_action(const json::object& row, std::int64_t& code, Action& action) {
  const auto number = int_field(row, "code");
  if (!number || *number < 0) return problem(std::string("\"code\" must be a number"));
  code = *number;
  const auto named = parse_action(string_field(row, "action"));
  if (!named) return problem("\"action\" must be one of " + joined_names<Action>());
  action = *named;
  return {};
}

}  // namespace

Checked<> CudaTables::load_xids(const json::object& table) {
  std::vector<XidRow> rows;
  Checked<> read = RowReader(table, "codes").each([&](const json::object& row) -> Checked<> {
    XidRow parsed;
    if (auto read = read_code_and_action(row, parsed.code, parsed.action); !read) return read;
    for (auto [key, out] : {std::pair{"mnemonic", &parsed.mnemonic}, {"meaning", &parsed.meaning}, {"origin", &parsed.origin},
                            {"advice", &parsed.advice}})
      if (auto read = text_field(row, key, *out); !read) return read;
    // NVIDIA leaves the buckets of its newest codes empty.
    parsed.immediate = string_field(row, "immediate");
    parsed.investigatory = string_field(row, "investigatory");
    rows.push_back(std::move(parsed));
    return {};
  });
  if (!read) return read;
  m_xids = std::move(rows);
  return {};
}

Checked<> CudaTables::load_sxids(const json::object& table) {
  std::vector<SxidRow> rows;
  Checked<> read = RowReader(table, "codes").each([&](const json::object& row) -> Checked<> {
    SxidRow parsed;
    if (auto read = read_code_and_action(row, parsed.code, parsed.action); !read) return read;
    if (auto read = text_field(row, "name", parsed.name); !read) return read;
    parsed.klass = string_field(row, "class");
    static constexpr std::array<std::string_view, 5> classes{"non-fatal", "fatal", "always-fatal", "other", "not-in-guide"};
    if (std::find(classes.begin(), classes.end(), parsed.klass) == classes.end())
      return problem("\"class\" must be one of non-fatal, fatal, always-fatal, other, not-in-guide");
    rows.push_back(std::move(parsed));
    return {};
  });
  if (!read) return read;
  m_sxids = std::move(rows);
  return {};
}

namespace {

// NVIDIA's two buckets and gpudoctor's action, as both decode lists give them.
Checked<> read_buckets(const json::object& row, std::string& immediate, std::string& investigatory, Action& action) {
  if (auto read = text_field(row, "immediate", immediate); !read) return read;
  if (auto read = text_field(row, "investigatory", investigatory); !read) return read;
  const auto named = parse_action(string_field(row, "action"));
  if (!named) return problem("\"action\" must be one of " + joined_names<Action>());
  action = *named;
  return {};
}

}  // namespace

Checked<> CudaTables::load_nvlink5(const json::object& table) {
  std::vector<Nvlink5Row> rows;
  Checked<> read = RowReader(table, "rows").each([&](const json::object& row) -> Checked<> {
    Nvlink5Row parsed;
    const auto xid = int_field(row, "xid");
    if (!xid || *xid < 144 || *xid > 150) return problem(std::string("\"xid\" must be a number from 144 to 150"));
    parsed.xid = *xid;
    if (auto read = text_list_field(row, "units", parsed.units); !read) return read;
    for (const auto& text : strings_field(row, "status")) {
      const auto status = parse_hex(text);
      if (!status || !text.starts_with("0x")) return problem("\"status\" holds hex numbers (\"0x80000000\"), not \"" + text + "\"");
      parsed.status.push_back(*status);
    }
    if (parsed.status.empty()) return problem(std::string("needs a \"status\" list"));
    if (auto read = read_buckets(row, parsed.immediate, parsed.investigatory, parsed.action); !read) return read;
    rows.push_back(std::move(parsed));
    return {};
  });
  std::vector<LinkDownReasonRow> reasons;
  if (read)
    read = RowReader(table, "link_down_reasons").each([&](const json::object& row) -> Checked<> {
      LinkDownReasonRow parsed;
      if (const auto* list = array_field(row, "reasons"))
        for (const auto& item : *list)
          if (const auto reason = as_int(&item); reason && *reason >= 0 && *reason < 64) parsed.reasons.push_back(*reason);
      if (parsed.reasons.empty()) return problem(std::string("needs \"reasons\", numbers from 0 to 63 (intrInfo bits 25:20)"));
      if (auto read = read_buckets(row, parsed.immediate, parsed.investigatory, parsed.action); !read) return read;
      reasons.push_back(std::move(parsed));
      return {};
    });
  std::map<Action, std::string> advice;
  if (read)
    if (const auto* sentences = object_field(table, "advice"))
      for (const auto& [name, sentence] : *sentences) {
        const auto action = parse_action(name);
        if (!action || !sentence.is_string() || sentence.get_string().empty())
          read = problem("\"advice\" maps an action (" + joined_names<Action>() + ") to a sentence");
        else
          advice[*action] = std::string(sentence.get_string());
      }
  if (!read) return read;
  m_nvlink5_advice = std::move(advice);
  m_nvlink5 = std::move(rows);
  m_link_down_units = strings_field(table, "link_down_units");
  m_link_down_reasons = std::move(reasons);
  return {};
}

const Nvlink5Row* CudaTables::nvlink5_row(std::int64_t xid, std::string_view unit, std::uint32_t status) const {
  for (const auto& row : m_nvlink5)
    if (row.xid == xid && std::find(row.units.begin(), row.units.end(), unit) != row.units.end() &&
        std::find(row.status.begin(), row.status.end(), status) != row.status.end())
      return &row;
  return nullptr;
}

bool CudaTables::is_link_down_unit(std::string_view unit) const {
  return std::find(m_link_down_units.begin(), m_link_down_units.end(), unit) != m_link_down_units.end();
}

const LinkDownReasonRow* CudaTables::link_down_reason(std::int64_t reason) const {
  for (const auto& row : m_link_down_reasons)
    if (std::find(row.reasons.begin(), row.reasons.end(), reason) != row.reasons.end()) return &row;
  return nullptr;
}

const std::string* CudaTables::nvlink5_advice(Action action) const {
  const auto found = m_nvlink5_advice.find(action);
  return found == m_nvlink5_advice.end() ? nullptr : &found->second;
}

const SxidRow* CudaTables::sxid(std::int64_t code) const {
  for (const auto& row : m_sxids)
    if (row.code == code) return &row;
  return nullptr;
}

const XidRow* CudaTables::xid(std::int64_t code) const {
  for (const auto& row : m_xids)
    if (row.code == code) return &row;
  return nullptr;
}

std::optional<Version> CudaTables::cuda_for_branch(int branch) const {
  const BranchRow* best = nullptr;
  for (const auto& row : m_branches)
    if (row.branch <= branch && (!best || row.branch >= best->branch)) best = &row;
  return best ? std::optional(best->cuda) : std::nullopt;
}

std::optional<Version> CudaTables::toolkit_driver(const Version& cuda) const {
  for (const auto& row : m_toolkits)
    if (row.cuda == cuda) return row.linux_min;
  return std::nullopt;
}

std::optional<Version> CudaTables::mvc_minimum(int major) const {
  for (const auto& row : m_mvc)
    if (row.major == major) return row.minimum;
  return std::nullopt;
}

std::optional<Version> CudaTables::min_compute_capability(int major) const {
  for (const auto& row : m_architectures)
    if (row.major == major) return row.minimum;
  return std::nullopt;
}

std::vector<int> CudaTables::forward_compat_hosts(const Version& cuda) const {
  std::vector<int> hosts;
  for (const auto& row : m_forward_compat)
    if (row.cuda == cuda) hosts.insert(hosts.end(), row.hosts.begin(), row.hosts.end());
  return hosts;
}

}  // namespace gd
