#include "probes/toolchains.h"

#include "host/host_paths.h"
#include "probes/python_envs.h"
#include "util/json_fields.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <boost/json.hpp>

#include <set>

namespace gd {

namespace {

// nvcc's CUDA version from files: the toolkit's version.json, else its
// nvidia_cuda_nvcc dist-info (pip-style toolkits, as on CUDA 13 installs).
std::optional<std::pair<std::string, std::string>> nvcc_version(Host& host, const std::string& root) {
  if (auto text = host.read_file(root + "/version.json", 64 * 1024)) {
    boost::system::error_code error;
    auto document = boost::json::parse(*text, error);
    if (!error && document.is_object())
      if (auto version = as_string(value_at(document.as_object(), {"cuda_nvcc", "version"})); version && Version::parse(*version))
        return std::pair{std::move(*version), root + "/version.json"};
  }
  for (const auto& [name, version] : installed_packages(host, root + "/dist-info"))
    if (name == "nvidia_cuda_nvcc" && Version::parse(version)) return std::pair{version, root + "/dist-info"};
  return std::nullopt;
}

// "#if __GNUC__ > 13" in the toolkit's host_config.h: the newest gcc nvcc accepts.
std::optional<std::int64_t> max_gcc_of(Host& host, const std::string& toolkit) {
  auto text = host.read_file(toolkit + "/include/crt/host_config.h", 256 * 1024);
  if (!text) return std::nullopt;
  const std::string_view marker = "#if __GNUC__ > ";
  const auto at = text->find(marker);
  if (at == std::string::npos) return std::nullopt;
  std::int64_t value = 0;
  std::size_t i = at + marker.size(), digits = 0;
  for (; i < text->size() && digits < 3 && (*text)[i] >= '0' && (*text)[i] <= '9'; ++i, ++digits) value = value * 10 + ((*text)[i] - '0');
  return digits ? std::optional<std::int64_t>(value) : std::nullopt;
}

// The major of a gcc from its real file name (gcc-12, x86_64-linux-gnu-gcc-14),
// else from the one version directory under /usr/lib/gcc/<triplet>/.
std::optional<std::int64_t> gcc_major_of(Host& host, const std::string& real) {
  const std::string name(base_name(real));
  const auto dash = name.rfind('-');
  if (name.find("gcc") != std::string::npos || name.find("g++") != std::string::npos)
    if (dash != std::string::npos && dash + 1 < name.size() && name.find_first_not_of("0123456789", dash + 1) == std::string::npos &&
        name.size() - dash - 1 <= 3)
      return std::stoll(name.substr(dash + 1));
  if (auto triplets = host.list_dir("/usr/lib/gcc"); triplets && triplets->size() == 1)
    if (auto versions = host.list_dir("/usr/lib/gcc/" + triplets->front()); versions && versions->size() == 1) {
      const auto major = versions->front().substr(0, versions->front().find('.'));
      if (!major.empty() && major.size() <= 3 && major.find_first_not_of("0123456789") == std::string::npos) return std::stoll(major);
    }
  return std::nullopt;
}

// The host compiler a build with nvcc would use: NVCC_CCBIN (nvcc's own
// variable), else the gcc first on PATH.
void find_host_compiler(Host& host, ToolchainFacts& toolchain) {
  std::optional<std::string> compiler = host.env("NVCC_CCBIN");
  if (compiler && !compiler->starts_with("/")) compiler = find_on_path(host, *compiler);
  if (!compiler) compiler = find_on_path(host, "gcc");
  if (!compiler) return;
  const std::string real = real_path(host, *compiler);
  if (real.find("clang") != std::string::npos) return;  // clang has its own range; not judged here
  toolchain.host_compiler = printable(real, 300);
  toolchain.host_compiler_major = gcc_major_of(host, real);
  if (toolchain.host_compiler_major && toolchain.max_gcc) toolchain.host_compiler_supported = *toolchain.host_compiler_major <= *toolchain.max_gcc;
}

}  // namespace

void find_toolchains(Host& host, ApplicationFacts& facts) {
  std::vector<std::pair<std::string, bool>> candidates;  // bin directory, is it PATH's first nvcc
  bool first = true;
  const std::string path = host.env("PATH").value_or("");
  for (auto dir : split(path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string nvcc = std::string(dir) + "/nvcc";
    if (auto info = host.stat(nvcc); info && info->type == FileType::regular) {
      candidates.emplace_back(std::string(dir), first);
      first = false;
    }
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (auto home = host.env(variable); home && home->starts_with("/")) candidates.emplace_back(*home + "/bin", false);
  if (auto entries = host.list_dir("/usr/local"))
    for (const auto& entry : *entries)
      if (entry.starts_with("cuda")) candidates.emplace_back("/usr/local/" + entry + "/bin", false);
  std::set<std::string> seen;
  for (const auto& [bin, on_path] : candidates) {
    const std::string nvcc = bin + "/nvcc";
    const std::string real = real_path(host, nvcc);
    if (facts.toolchains.size() >= 16 || !host.stat(nvcc) || !seen.insert(real).second) continue;
    ToolchainFacts toolchain;
    toolchain.nvcc = printable(nvcc, 300);
    toolchain.on_path = on_path;
    const std::string toolkit = dir_name(dir_name(real));
    if (auto version = nvcc_version(host, toolkit)) {
      toolchain.version = printable(version->first, 40);
      toolchain.version_source = printable(version->second, 300);
    }
    if (on_path) {  // only the compiler a build here runs is judged
      toolchain.max_gcc = max_gcc_of(host, toolkit);
      find_host_compiler(host, toolchain);
    }
    facts.toolchains.push_back(std::move(toolchain));
  }
}

void compare_extension_builds(ApplicationFacts& facts) {
  const ToolchainFacts* build = nullptr;
  for (const auto& toolchain : facts.toolchains)
    if (toolchain.on_path && toolchain.version) build = &toolchain;
  if (!build) return;
  const auto nvcc = Version::parse(*build->version);
  for (const auto& framework : facts.frameworks) {
    const auto cuda = framework.cuda ? Version::parse(*framework.cuda) : std::nullopt;
    if (!cuda || !nvcc) continue;
    ExtensionBuild entry{.framework = framework_label(framework),
                         .framework_cuda = *framework.cuda,
                         .nvcc = build->nvcc,
                         .nvcc_version = *build->version};
    if (cuda->major() != nvcc->major()) entry.relation = BuildRelation::major_differs;
    else if (cuda->minor() != nvcc->minor()) entry.relation = BuildRelation::minor_differs;
    facts.extension_builds.push_back(std::move(entry));
  }
}

}  // namespace gd
