#include "lint/dockerfile_lint.h"

#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <array>
#include <map>
#include <regex>

namespace gd {
namespace {

// ENV's key=value pairs (and the old "ENV key value" form), quotes removed.
std::vector<std::pair<std::string, std::string>> env_pairs(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  const auto first_space = text.find_first_of(" \t");
  const auto first_equals = text.find('=');
  if (first_equals == std::string_view::npos || (first_space != std::string_view::npos && first_space < first_equals)) {
    if (first_space != std::string_view::npos)
      pairs.emplace_back(std::string(text.substr(0, first_space)), std::string(trim(text.substr(first_space))));
    return pairs;
  }
  std::size_t at = 0;
  while (at < text.size() && pairs.size() < 256) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
    const auto equals = text.find('=', at);
    if (equals == std::string_view::npos) break;
    std::string key(text.substr(at, equals - at)), value;
    at = equals + 1;
    if (at < text.size() && (text[at] == '"' || text[at] == '\'')) {
      const char quote = text[at++];
      const auto end = text.find(quote, at);
      value = std::string(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
      at = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      const auto end = text.find_first_of(" \t", at);
      value = std::string(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
      at = end == std::string_view::npos ? text.size() : end;
    }
    pairs.emplace_back(std::move(key), std::move(value));
  }
  return pairs;
}

// The CUDA version of a base image: nvidia/cuda:12.4.1-runtime-ubuntu22.04 -> 12.4.
std::optional<std::string> base_cuda(std::string_view base) {
  static const std::regex pattern(R"((^|/)cuda:(\d+)\.(\d+))");
  std::cmatch match;
  const std::string text(base);
  if (!std::regex_search(text.c_str(), match, pattern)) return std::nullopt;
  return match[2].str() + "." + match[3].str();
}

constexpr VariableRuleIds k_env_rules{"dockerfile-stubs-on-loader-path", "dockerfile-capabilities-without-compute",
                                     "dockerfile-visible-devices-none"};

void check_env(Linter& lint, const Instruction& instruction) {
  for (const auto& [key, value] : env_pairs(instruction.text))
    check_gpu_variable(lint, k_env_rules, key, value, instruction.line,
                       [](const std::string& name, const std::string& fixed) { return "ENV " + name + "=" + fixed; });
}

// std::regex recurses per character: it is only ever given one shell
// command of bounded length, never a whole instruction.
constexpr std::size_t k_max_command = 2048;

std::vector<std::string> shell_commands(std::string_view text) {
  std::vector<std::string> commands;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size() && commands.size() < 4096; ++i) {
    if (i < text.size() && text[i] != ';' && text[i] != '&' && text[i] != '|' && text[i] != '\n') continue;
    const auto piece = trim(text.substr(start, i - start));
    if (!piece.empty() && piece.size() <= k_max_command) commands.emplace_back(piece);
    start = i + 1;
  }
  return commands;
}

void check_run_command(Linter& lint, const Instruction& instruction, const std::string& text, const std::optional<std::string>& base);

void check_run(Linter& lint, const Instruction& instruction, const std::optional<std::string>& base) {
  // Whole-instruction patterns first (an echo into ld.so.conf.d, then ldconfig), on bounded text.
  if (instruction.text.size() <= k_max_command) {
    static const std::regex stubs_conf(R"(([^\s'"]*/stubs)[^\n]*(ld\.so\.conf|ldconfig))");
    std::smatch match;
    if (std::regex_search(instruction.text, match, stubs_conf)) {
      lint.raise("dockerfile-stubs-in-ld-cache", instruction.line, {{"value", printable(match[1].str(), 120)}});
    }
  }
  for (const auto& command : shell_commands(instruction.text)) check_run_command(lint, instruction, command, base);
}

std::string index_tag(int number) { return "cu" + std::to_string(number); }

std::string index_list(const std::vector<int>& numbers) {
  std::string out;
  for (int number : numbers) out += (out.empty() ? "" : ", ") + index_tag(number);
  return out;
}

// The digits of a PyTorch wheel index a command names: "124" for .../whl/cu124.
std::optional<std::string> torch_index_digits(const std::string& text) {
  static const std::regex index_url(R"(download\.pytorch\.org/whl/cu(\d{3,4}))");
  std::smatch match;
  if (!std::regex_search(text, match, index_url)) return std::nullopt;
  return match[1].str();
}

// A PyTorch index that was never published (cu122: pip finds no torch), and
// a torch pin the index has no build of (torch==2.1.0 on cu124). Tags newer
// than the table knows are left alone: PyTorch adds indexes.
void check_torch_index(Linter& lint, const Instruction& instruction, const std::string& text, const std::string& digits) {
  const auto& published = lint.rules().tables.cuda.torch_published();
  if (published.empty()) return;
  // Digits from the file: any length (std::stoi would throw on 99999999999).
  const auto parsed = parse_int(digits);
  if (!parsed || *parsed > 100000) return;
  const int tag = static_cast<int>(*parsed);
  std::smatch match;
  const int newest = *std::max_element(published.begin(), published.end());
  if (tag > newest || tag < published.front()) return;
  if (std::find(published.begin(), published.end(), tag) == published.end()) {
    int nearest = published.front();
    for (int number : published)
      if (number <= tag) nearest = std::max(nearest, number);
    std::string corrected = "RUN " + instruction.text.substr(0, instruction.text.find('\n'));
    const auto at = corrected.find("/whl/" + index_tag(tag));
    if (at != std::string::npos) corrected.replace(at + 5, index_tag(tag).size(), index_tag(nearest));
    lint.raise("dockerfile-torch-index-unpublished", instruction.line,
               {{"value", index_tag(tag)}, {"nearest", index_tag(nearest)}, {"published", index_list(published)}},
               corrected.size() <= k_max_command ? std::optional<std::string>(corrected) : std::nullopt);
    return;
  }
  static const std::regex pin(R"((^|[\s'"])torch==(\d+)\.(\d+)(\.\d+)?)");
  if (!std::regex_search(text, match, pin)) return;
  const std::string version = match[2].str() + "." + match[3].str() + match[4].str();
  const auto indexes = lint.rules().tables.cuda.torch_release_indexes(*Version::parse(match[2].str() + "." + match[3].str()));
  if (indexes.empty() || std::find(indexes.begin(), indexes.end(), tag) != indexes.end()) return;
  lint.raise("dockerfile-torch-pin-not-on-index", instruction.line,
             {{"value", "torch==" + version}, {"index", index_tag(tag)}, {"indexes", index_list(indexes)}});
}

// Driver packages by the names distributions and NVIDIA's repositories use,
// and installers that bring the driver (rules/tables/driver-installers.json).
// The corrected command drops the driver packages (or installs the toolkit
// in place of the meta-package), or adds the flag that skips the driver.
void check_driver_install(Linter& lint, const Instruction& instruction, const std::string& text) {
  const auto& table = lint.rules().tables.installers;
  std::vector<std::string_view> words;
  for (auto word : split(text, ' '))
    if (!trim(word).empty()) words.push_back(trim(word));
  if (const auto* row = table.installer(words)) {
    std::optional<std::string> corrected;
    if (row->add) corrected = "RUN " + text + " " + *row->add;
    lint.raise("dockerfile-runs-driver-installer", instruction.line,
               {{"value", printable(text, 120)}, {"installer", row->name}, {"source", row->source}}, corrected);
    return;
  }
  const auto install = std::find_if(words.begin(), words.end(), [](std::string_view word) { return word == "install"; });
  static constexpr std::array<std::string_view, 7> k_managers = {"apt-get", "apt", "yum", "dnf", "microdnf", "zypper", "apk"};
  const bool managed = install != words.begin() && install != words.end() &&
                       std::any_of(words.begin(), install, [](std::string_view word) {
                         return std::find(k_managers.begin(), k_managers.end(), word) != k_managers.end();
                       });
  if (!managed) return;
  std::string found, kept;
  const DriverPackageRow* first = nullptr;
  bool remains = false;  // a package left to install once the driver's are dropped
  for (auto at = words.begin(); at != words.end(); ++at) {
    const DriverPackageRow* row = at > install && !at->starts_with("-") ? table.package(*at) : nullptr;
    std::string word(*at);
    if (row) {
      if (!first) first = row;
      found += (found.empty() ? "" : ", ") + word;
      if (!row->instead) continue;
      const auto from = word.find(row->instead->first);
      if (from != std::string::npos) word.replace(from, row->instead->first.size(), row->instead->second);
      remains = true;
    } else if (at > install && !at->starts_with("-")) {
      remains = true;
    }
    kept += (kept.empty() ? "" : " ") + word;
  }
  if (!first) return;
  std::optional<std::string> corrected;
  if (remains) corrected = "RUN " + kept;
  lint.raise("dockerfile-installs-driver", instruction.line,
             {{"value", printable(found, 120)}, {"packages", first->name}, {"source", first->source}}, corrected);
}

void check_run_command(Linter& lint, const Instruction& instruction, const std::string& text, const std::optional<std::string>& base) {
  // ldconfig run over the stubs directory.
  static const std::regex ldconfig_stubs(R"(ldconfig[^\n;&|]*\s([^\s;&|]*/stubs))");
  std::smatch match;
  if (std::regex_search(text, match, ldconfig_stubs))
    lint.raise("dockerfile-stubs-in-ld-cache", instruction.line, {{"value", printable(match[1].str(), 120)}});
  check_driver_install(lint, instruction, text);
  const auto index = torch_index_digits(text);
  if (!index) return;
  check_torch_index(lint, instruction, text, *index);
  // torch for one CUDA major on a base image of another.
  if (base && contains(text, "torch")) {
    const std::string& tag = *index;  // 121, 124, 128, 130
    const std::string wheel = tag.substr(0, tag.size() - 1) + "." + tag.substr(tag.size() - 1);
    const std::string base_major = base->substr(0, base->find('.'));
    if (wheel.substr(0, wheel.find('.')) != base_major) {
      // The index for the base's CUDA: the newest published one not newer than it (12.2 -> cu121).
      std::string base_tag = *base;
      base_tag.erase(std::remove(base_tag.begin(), base_tag.end(), '.'), base_tag.end());
      const auto parsed = parse_int(base_tag);
      if (!parsed || *parsed > 100000) return;
      const int base_number = static_cast<int>(*parsed);
      int nearest = 0;
      for (int number : lint.rules().tables.cuda.torch_published())
        if (number <= base_number && number / 10 == base_number / 10) nearest = std::max(nearest, number);
      if (nearest) base_tag = std::to_string(nearest);
      lint.raise("dockerfile-torch-cuda-major-differs", instruction.line,
                 {{"value", "cu" + tag}, {"base", *base}, {"wheel", wheel}, {"wheel_major", wheel.substr(0, wheel.find('.'))},
                  {"base_tag", base_tag}});
    }
  }
}

void check_copy(Linter& lint, const Instruction& instruction) {
  static const std::regex driver_file(R"((libcuda\.so[\w.]*|libnvidia-ml\.so[\w.]*|libnvidia-ptxjitcompiler\.so[\w.]*))");
  // The sources and destination only: a heredoc's body is file content, not a file copied.
  const std::string line = instruction.text.substr(0, instruction.text.find('\n'));
  for (auto word : split(line, ' ')) {
    if (word.size() > k_max_command || contains(word, "/stubs/")) continue;
    const std::string file(word);
    std::smatch match;
    if (std::regex_search(file, match, driver_file)) {
      lint.raise("dockerfile-copies-driver-library", instruction.line, {{"value", printable(match[1].str(), 80)}});
      return;
    }
  }
}

}  // namespace

std::vector<std::string> dockerfile_lint_ids() {
  return {"dockerfile-stubs-on-loader-path",         "dockerfile-stubs-in-ld-cache",     "dockerfile-copies-driver-library",
          "dockerfile-installs-driver",              "dockerfile-runs-driver-installer",
          "dockerfile-capabilities-without-compute",
          "dockerfile-visible-devices-none",         "dockerfile-torch-cuda-major-differs",
          "dockerfile-torch-index-unpublished",      "dockerfile-torch-pin-not-on-index"};
}

std::vector<LintFinding> lint_dockerfile(const Dockerfile& file, const RuleSet& rules) {
  Linter lint(rules);
  // The CUDA of each stage's base, following FROM <earlier stage>.
  std::vector<std::optional<std::string>> stage_cuda(file.stages.size() + 1);
  for (std::size_t i = 0; i < file.stages.size(); ++i) {
    const auto& base = file.stages[i].base;
    stage_cuda[i + 1] = base_cuda(base);
    for (std::size_t j = 0; j < i; ++j)
      if (file.stages[j].name && *file.stages[j].name == base) stage_cuda[i + 1] = stage_cuda[j + 1];
  }
  for (const auto& instruction : file.instructions) {
    const auto& base = instruction.stage < stage_cuda.size() ? stage_cuda[instruction.stage] : std::nullopt;
    if (instruction.keyword == "ENV") check_env(lint, instruction);
    else if (instruction.keyword == "RUN") check_run(lint, instruction, base);
    else if (instruction.keyword == "COPY" || instruction.keyword == "ADD") check_copy(lint, instruction);
  }
  return lint.take();
}

}  // namespace gd
