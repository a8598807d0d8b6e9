#include "probes/python_envs.h"

#include <algorithm>

#include "host/host_paths.h"
#include "loader/search_path.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

namespace gd {
namespace {

// The quoted value of `name = '...'` or `name: Optional[str] = '...'`; "None" for None.
std::optional<std::string> assigned(std::string_view line, std::string_view name) {
  if (!line.starts_with(name)) return std::nullopt;
  const auto rest = line.substr(name.size());
  if (rest.empty() || (rest.front() != ' ' && rest.front() != ':' && rest.front() != '=')) return std::nullopt;
  const auto equals = rest.find('=');
  if (equals == std::string_view::npos) return std::nullopt;
  const auto value = trim(rest.substr(equals + 1));
  if (value == "None") return std::string("None");
  if (value.size() < 2 || (value.front() != '\'' && value.front() != '"')) return std::nullopt;
  const auto end = value.find(value.front(), 1);
  if (end == std::string_view::npos) return std::nullopt;
  return printable(value.substr(1, end - 1), 60);
}

// The string or literal after `'key'` and its ':' or ',' in a dict or
// tuple list: `'cuda_version': '12.3'`, `('is_cuda_build', True)`.
std::optional<std::string> keyed_value(std::string_view text, std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  const auto at = text.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  auto rest = trim(text.substr(at + quoted.size()));
  if (rest.empty() || (rest.front() != ':' && rest.front() != ',')) return std::nullopt;
  rest = trim(rest.substr(1));
  if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
    const auto end = rest.find(rest.front(), 1);
    if (end == std::string_view::npos) return std::nullopt;
    return printable(rest.substr(1, end - 1), 60);
  }
  const auto end = rest.find_first_of(",)}]");
  return printable(trim(rest.substr(0, end)), 60);
}

}  // namespace

std::map<std::string, std::string> read_python_strings(Host& host, const std::string& file) {
  std::map<std::string, std::string> values;
  auto text = host.read_file(file, 64 * 1024);
  if (!text) return values;
  for (auto line : lines(*text)) {
    // `name = '...'`, or annotated: `name: str = "..."` (jax/version.py)
    const auto equals = line.find('=');
    if (equals == std::string_view::npos || values.size() >= 64) continue;
    const auto name = trim(line.substr(0, std::min(equals, line.find(':'))));
    if (name.empty() || name.size() > 40 || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string_view::npos)
      continue;
    if (auto value = assigned(line, name); value && *value != "None") values.emplace(std::string(name), *value);
  }
  return values;
}

std::optional<TensorflowBuildInfo> read_tensorflow_build_info(Host& host, const std::string& file) {
  auto text = host.read_file(file, 64 * 1024);
  if (!text) return std::nullopt;
  TensorflowBuildInfo info;
  if (auto cuda = keyed_value(*text, "cuda_version"); cuda && Version::parse(*cuda)) info.cuda = *cuda;
  if (auto cudnn = keyed_value(*text, "cudnn_version"); cudnn && Version::parse(*cudnn)) info.cudnn = *cudnn;
  if (auto flag = keyed_value(*text, "is_cuda_build"); flag == "True" || flag == "False") info.is_cuda_build = *flag == "True";
  // 'cuda_compute_capabilities': ['sm_60', 'sm_70', 'compute_90']
  if (const auto at = text->find("'cuda_compute_capabilities'"); at != std::string::npos) {
    const auto open = text->find('[', at), close = text->find(']', at);
    if (open != std::string::npos && close != std::string::npos && open < close && close - open < 4096)
      for (auto item : split(std::string_view(*text).substr(open + 1, close - open - 1), ',')) {
        item = trim(item);
        if (item.size() > 2 && (item.front() == '\'' || item.front() == '"')) item = item.substr(1, item.size() - 2);
        if ((item.starts_with("sm_") || item.starts_with("compute_")) && info.compute_capabilities.size() < 64)
          info.compute_capabilities.push_back(printable(item, 20));
      }
  }
  return info;
}

std::vector<std::string> conda_prefixes(Host& host) {
  std::vector<std::string> prefixes;
  auto add = [&](const std::string& prefix) {
    if (prefix.starts_with("/") && prefix != "/" && host.list_dir(prefix + "/conda-meta") &&
        std::find(prefixes.begin(), prefixes.end(), prefix) == prefixes.end())
      prefixes.push_back(prefix);
  };
  if (auto prefix = host.env("CONDA_PREFIX")) add(*prefix);
  if (auto python = find_on_path(host, "python3")) {
    add(dir_name(dir_name(*python)));
    if (const std::string real = real_path(host, *python); real.starts_with("/")) add(dir_name(dir_name(real)));
  }
  return prefixes;
}

std::vector<std::string> python_site_dirs(Host& host) {
  std::vector<std::string> sites;
  auto add_python_lib = [&](const std::string& lib_dir) {
    auto entries = host.list_dir(lib_dir);
    if (!entries) return;
    for (const auto& entry : *entries)
      if (entry.starts_with("python3"))
        for (const char* sub : {"/site-packages", "/dist-packages"})
          if (const std::string site = lib_dir + "/" + entry + sub; std::find(sites.begin(), sites.end(), site) == sites.end())
            sites.push_back(site);
  };
  for (const char* variable : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto prefix = host.env(variable); prefix && prefix->starts_with("/")) add_python_lib(*prefix + "/lib");
  // The python3 a program here would run: a venv whose bin/ is on PATH
  // without VIRTUAL_ENV (ENV PATH=/opt/venv/bin:$PATH in images), else the
  // prefix of the interpreter it leads to (/opt/conda, pyenv, /usr/local).
  if (auto python = find_on_path(host, "python3")) {
    const std::string prefix = dir_name(dir_name(*python));
    if (host.exists(prefix + "/pyvenv.cfg")) add_python_lib(prefix + "/lib");
    else if (python->ends_with("/shims/python3") && host.exists(prefix + "/versions")) {
      // pyenv: a shell-script shim; the versions it selects are in PYENV_VERSION, else <root>/version.
      std::string selected = host.env("PYENV_VERSION").value_or("");
      if (selected.empty())
        if (auto text = host.read_file(prefix + "/version", 4096)) selected = *text;
      std::replace(selected.begin(), selected.end(), '\n', ':');
      for (auto version : split(selected, ':'))
        if (version = trim(version); !version.empty() && version.front() != '#' && version.find('/') == std::string_view::npos)
          add_python_lib(prefix + "/versions/" + std::string(version) + "/lib");
    }
    else if (const std::string real = real_path(host, *python); real.starts_with("/")) add_python_lib(dir_name(dir_name(real)) + "/lib");
  }
  add_python_lib("/usr/local/lib");
  // The user site, which Python adds outside virtual environments (pip install --user).
  if (!host.env("VIRTUAL_ENV"))
    if (auto home = host.env("HOME"); home && home->starts_with("/") && *home != "/") add_python_lib(*home + "/.local/lib");
  if (std::find(sites.begin(), sites.end(), "/usr/lib/python3/dist-packages") == sites.end()) sites.push_back("/usr/lib/python3/dist-packages");
  return sites;
}

std::optional<TorchVersion> read_torch_version(Host& host, const std::string& version_py) {
  auto text = host.read_file(version_py, 16 * 1024);
  if (!text) return std::nullopt;
  TorchVersion torch;
  for (auto line : lines(*text)) {
    if (auto version = assigned(line, "__version__"); version && *version != "None") torch.version = *version;
    if (auto cuda = assigned(line, "cuda")) {
      if (*cuda == "None") torch.cpu_only = true;
      else if (Version::parse(*cuda)) torch.cuda = *cuda;
    }
  }
  return torch;
}

std::vector<std::pair<std::string, std::string>> installed_packages(Host& host, const std::string& site) {
  std::vector<std::pair<std::string, std::string>> packages;
  auto entries = host.list_dir(site);
  if (!entries) return packages;
  for (const auto& entry : *entries) {
    if (!entry.ends_with(".dist-info") || packages.size() >= 4096) continue;
    const auto stem = std::string_view(entry).substr(0, entry.size() - 10);
    const auto dash = stem.find('-');
    if (dash == std::string_view::npos) continue;
    packages.emplace_back(printable(stem.substr(0, dash), 80), printable(stem.substr(dash + 1), 40));
  }
  return packages;
}

std::string normalized_package_name(std::string_view name) {
  std::string normal = to_lower(name);
  std::replace_if(normal.begin(), normal.end(), [](char c) { return c == '-' || c == '.'; }, '_');
  return normal;
}

std::optional<std::pair<std::string, std::string>> find_distribution(const std::vector<std::pair<std::string, std::string>>& installed,
                                                                     const std::function<bool(std::string_view)>& wanted) {
  for (const auto& [name, version] : installed)
    if (auto normal = normalized_package_name(name); wanted(normal)) return std::pair{std::move(normal), version};
  return std::nullopt;
}

std::optional<int> package_cuda_major(std::string_view name) {
  const std::string normal = normalized_package_name(name);
  auto leading_major = [](std::string_view digits) -> std::optional<int> {
    // "12x" and "12" are 12; "117" (CUDA 11.7) is 11, "102" is 10.
    std::size_t count = 0;
    while (count < digits.size() && digits[count] >= '0' && digits[count] <= '9') ++count;
    if (count < 2) return std::nullopt;
    return (digits[0] - '0') * 10 + (digits[1] - '0');
  };
  for (const std::string_view prefix : {"cupy_cuda", "jax_cuda"})
    if (normal.starts_with(prefix)) return leading_major(std::string_view(normal).substr(prefix.size()));
  if (normal.starts_with("nvidia_")) {
    const auto at = normal.rfind("_cu");
    if (at != std::string::npos && at + 3 < normal.size() && normal.find_first_not_of("0123456789", at + 3) == std::string::npos)
      return leading_major(std::string_view(normal).substr(at + 3));
  }
  return std::nullopt;
}

VersionRelation pin_relation(std::string_view installed, std::string_view pinned) {
  const auto have = Version::parse(installed), want = Version::parse(pinned);
  if (!have || !want) return installed == pinned ? VersionRelation::same : VersionRelation::unknown;
  return *have < *want ? VersionRelation::older : *want < *have ? VersionRelation::newer : VersionRelation::same;
}

std::vector<std::pair<std::string, std::string>> pinned_requirements(Host& host, const std::string& metadata) {
  std::vector<std::pair<std::string, std::string>> pins;
  auto text = host.read_file(metadata, 512 * 1024);
  if (!text) return pins;
  for (auto line : lines(*text)) {
    if (line.empty()) break;  // the headers end at the first empty line; the description follows
    if (!line.starts_with("Requires-Dist:") || pins.size() >= 256) continue;
    auto requirement = trim(line.substr(14));
    requirement = requirement.substr(0, requirement.find(';'));
    const auto equals = requirement.find("==");
    if (equals == std::string_view::npos) continue;
    // "torch==2.5.1", "torch (==2.5.1)", "nvidia-cudnn-cu12[extra]==9.1.0.70"
    auto name = std::string(trim(requirement.substr(0, equals)));
    name = std::string(trim(name.substr(0, name.find_first_of("[( "))));
    auto version = trim(requirement.substr(equals + 2));
    if (version.ends_with(')')) version = trim(version.substr(0, version.size() - 1));
    if (name.empty() || version.empty() || version.find_first_of(" ,<>=!*") != std::string_view::npos) continue;
    pins.emplace_back(printable(normalized_package_name(name), 80), printable(version, 40));
  }
  return pins;
}

std::string public_version(std::string_view version) { return std::string(version.substr(0, version.find('+'))); }

}  // namespace gd
