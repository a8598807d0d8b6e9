#include "tables/tegra_socs.h"

#include "tables/table_rows.h"

namespace gd {
namespace json = boost::json;

Checked<> TegraTable::load(const json::object& table) {
  std::vector<TegraSocRow> socs;
  std::vector<L4tReleaseRow> releases;
  Checked<> read = RowReader(table, "socs").each([&](const json::object& row) -> Checked<> {
    TegraSocRow parsed;
    std::string architecture;
    for (auto [key, out] : {std::pair{"compatible", &parsed.compatible}, {"soc", &parsed.soc}, {"chip", &parsed.chip},
                            {"architecture", &architecture}, {"cc", &parsed.compute_capability}, {"modules", &parsed.modules},
                            {"kernel_module", &parsed.kernel_module}})
      if (auto read = text_field(row, key, *out); !read) return read;
    const auto known = enum_from_name<GpuArchitecture>(architecture);
    if (!known) return problem("\"architecture\" is none of " + joined_names<GpuArchitecture>());
    parsed.architecture = *known;
    if (!parsed.compatible.starts_with("nvidia,tegra")) return problem("\"compatible\" must be a device-tree name like nvidia,tegra234");
    if (!Version::parse(parsed.compute_capability)) return problem("\"cc\" must be a compute capability like 8.7");
    socs.push_back(std::move(parsed));
    return {};
  });
  if (read)
    read = RowReader(table, "releases").each([&](const json::object& row) -> Checked<> {
      L4tReleaseRow parsed;
      for (auto [key, out] : {std::pair{"l4t", &parsed.l4t}, {"jetpack", &parsed.jetpack}, {"cuda", &parsed.cuda}})
        if (auto read = text_field(row, key, *out); !read) return read;
      const auto l4t = Version::parse(parsed.l4t);
      if (!l4t || l4t->text() != parsed.l4t || parsed.l4t.find('.') == std::string::npos)
        return problem("\"l4t\" must be major.minor like 36.4");
      if (!Version::parse(parsed.cuda)) return problem("\"cuda\" must be a version like 12.6");
      releases.push_back(std::move(parsed));
      return {};
    });
  if (!read) return read;
  m_socs = std::move(socs);
  m_releases = std::move(releases);
  return {};
}

const TegraSocRow* TegraTable::soc(std::string_view compatible) const {
  for (const auto& row : m_socs)
    if (row.compatible == compatible) return &row;
  return nullptr;
}

const L4tReleaseRow* TegraTable::release(std::string_view l4t) const {
  const auto wanted = Version::parse(l4t);
  if (!wanted) return nullptr;
  const std::string key = std::to_string(wanted->major()) + "." + std::to_string(wanted->minor());
  for (const auto& row : m_releases)
    if (row.l4t == key) return &row;
  return nullptr;
}

}  // namespace gd
