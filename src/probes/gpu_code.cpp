#include "probes/gpu_code.h"

#include "probes/install_hints.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <map>

namespace gd {

namespace {

int arch_of(const std::string& compute_capability) {
  const auto version = Version::parse(compute_capability);
  return version ? static_cast<int>(version->major() * 10 + version->minor()) : 0;
}

// "sm_80 sm_90a sm_100f": every SASS architecture, by number, suffixed as nvcc names it.
std::string sass_list(const FatbinContents& code) {
  std::map<int, std::string> names;
  for (int arch : code.sass) names[arch * 4] = "sm_" + std::to_string(arch);
  for (int arch : code.sass_specific) names[arch * 4 + 1] = "sm_" + std::to_string(arch) + "a";
  for (int arch : code.sass_family) names[arch * 4 + 2] = "sm_" + std::to_string(arch) + "f";
  std::string out;
  for (const auto& [order, name] : names) out += (out.empty() ? "" : " ") + name;
  return out.empty() ? "none" : out;
}

// " (PTX ISA 8.4)"; nothing where a build info lists the PTX without its ISA.
std::string isa_note(const std::string& isa) { return isa.empty() ? std::string() : " (PTX ISA " + isa + ")"; }

// "compute_90 (PTX ISA 8.4), compute_100a (PTX ISA 9.0)"
std::string ptx_list(const FatbinContents& code) {
  std::map<int, std::string> names;
  const auto add = [&](const std::map<int, std::string>& ptx, int variant, const char* suffix) {
    for (const auto& [arch, isa] : ptx) names[arch * 4 + variant] = "compute_" + std::to_string(arch) + suffix + isa_note(isa);
  };
  add(code.ptx, 0, "");
  add(code.ptx_specific, 1, "a");
  add(code.ptx_family, 2, "f");
  std::string out;
  for (const auto& [order, name] : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

// What gives this GPU code, in the framework-installs table's words: for
// torch, the newest wheel index whose builds carry SASS for it and whose CUDA
// major this driver runs (minor-version compatibility within a major); for
// anything else, the nvcc targets to add.
void add_install_hint(GpuCodeCheck& check, const FrameworkFacts& framework, int cc, const std::optional<std::string>& driver_cuda,
                      const CudaTables& tables) {
  auto values = install_values(framework);
  values["arch"] = std::to_string(cc);
  values["cc"] = compute_capability_of(cc);
  const auto driver = driver_cuda ? Version::parse(*driver_cuda) : std::nullopt;
  // The table's sentence of this kind; a framework without the unknown-driver form uses the plain one.
  const auto sentence = [&](const std::string& kind) {
    auto text = driver ? std::string() : tables.framework_install(framework.name, kind + "_unknown_driver", values);
    return text.empty() ? tables.framework_install(framework.name, kind, values) : text;
  };
  if (framework.name == "torch") {
    check.install_hint = sentence("gpu_code_unavailable");
    for (const auto& row : tables.torch_indexes()) {
      const bool runs_here = !driver || driver->major() >= row.cuda.major();
      if (!runs_here || !index_carries(row, cc)) continue;
      check.suggested_index = row.index;
      values["torch_install"] = tables.torch_install_command("torch", row.index);
      check.install_hint = sentence("gpu_code");
      return;
    }
    return;
  }
  check.install_hint = sentence("gpu_code");
}

// A build info's list ("sm_80", "sm_90a", "compute_90") as fatbin contents,
// PTX without its ISA: that PTX came with the framework's own CUDA.
FatbinContents contents_from_arch_list(const std::vector<std::string>& archs) {
  FatbinContents contents;
  for (const auto& entry : archs) {
    const bool sass = entry.starts_with("sm_");
    std::string digits = entry.substr(entry.find('_') + 1);
    const char suffix = !digits.empty() && (digits.back() == 'a' || digits.back() == 'f') ? digits.back() : 0;
    if (suffix) digits.pop_back();
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int arch = std::stoi(digits);
    contents.has_fatbin = true;
    if (sass) (suffix == 'a' ? contents.sass_specific : suffix == 'f' ? contents.sass_family : contents.sass).insert(arch);
    else (suffix == 'a' ? contents.ptx_specific : suffix == 'f' ? contents.ptx_family : contents.ptx)[arch] = "";
  }
  return contents;
}

}  // namespace

// CUDA's own answer: the driver-libs layer's once finished, else taken now
// from the child asked ahead (only where the files say too little).
const std::optional<CudaProbeFacts>& cuda_answer(const ProbeContext& context) {
  return context.driver_libs.cuda_probe ? context.driver_libs.cuda_probe : context.driver_answers.cuda_probe();
}

std::vector<Gpu> gpus_of(const ProbeContext& context) {
  std::vector<Gpu> gpus;
  for (const auto& gpu : context.hardware.gpus)
    if (gpu.compute_capability) gpus.push_back({gpu.bdf, arch_of(*gpu.compute_capability)});
  if (!gpus.empty()) return gpus;
  if (const auto& cuda = cuda_answer(context))
    for (const auto& device : cuda->devices)
      if (device.compute_capability) gpus.push_back({device.bus_id.value_or(std::to_string(device.index)), arch_of(*device.compute_capability)});
  return gpus;
}

std::optional<std::string> driver_cuda_of(const ProbeContext& context) {
  if (context.kernel_module.driver_cuda) return context.kernel_module.driver_cuda;
  if (const auto& cuda = cuda_answer(context); cuda && cuda->cuda_version) return cuda->cuda_version;
  return std::nullopt;
}

void read_gpu_code(ProbeContext& context, FrameworkFacts& framework, const std::string& file,
                   const std::vector<std::string>& build_archs, ApplicationFacts& facts) {
  FatbinContents contents;
  if (!file.empty()) {
    contents = read_fatbin(context.host, file);
    framework.library = printable(file, 300);
    framework.code_source = ".nv_fatbin of " + std::string(base_name(file));
  }
  // No readable fatbin (TensorFlow keeps its kernels in libraries we may not
  // find): the architecture list its build info records is the next best.
  if (!contents.has_fatbin && !build_archs.empty()) {
    contents = contents_from_arch_list(build_archs);
    framework.code_source = "the build info's cuda_compute_capabilities";
  }
  framework.problems = contents.problems;
  if (!contents.has_fatbin) return;
  std::vector<std::string> sass, ptx;
  for (int arch : contents.sass) sass.push_back(compute_capability_of(arch));
  for (int arch : contents.sass_specific) sass.push_back(compute_capability_of(arch) + "a");
  for (int arch : contents.sass_family) sass.push_back(compute_capability_of(arch) + "f");
  for (const auto& [arch, isa] : contents.ptx) ptx.push_back(compute_capability_of(arch) + isa_note(isa));
  for (const auto& [arch, isa] : contents.ptx_specific) ptx.push_back(compute_capability_of(arch) + "a" + isa_note(isa));
  for (const auto& [arch, isa] : contents.ptx_family) ptx.push_back(compute_capability_of(arch) + "f" + isa_note(isa));
  framework.sass = sass;
  framework.ptx = ptx;
  framework.compressed_entries = static_cast<std::int64_t>(contents.compressed_entries);
  const auto driver_cuda = driver_cuda_of(context);
  for (const auto& gpu : gpus_of(context)) {
    if (gpu.arch <= 0) continue;
    auto check = check_gpu_code(framework, contents, gpu.name, gpu.arch, driver_cuda, context.tables.cuda);
    // What a damaged fatbin hid may be the very code this GPU needs: never a false "none".
    if (!contents.problems.empty() && check.kernel_image == KernelImage::none) check.kernel_image = KernelImage::unknown;
    add_install_hint(check, framework, gpu.arch, driver_cuda, context.tables.cuda);
    facts.checks.push_back(std::move(check));
  }
}

GpuCodeCheck check_gpu_code(const FrameworkFacts& framework, const FatbinContents& code, const std::string& gpu, int cc,
                            const std::optional<std::string>& driver_cuda, const CudaTables& tables) {
  GpuCodeCheck check;
  check.framework = framework_label(framework);
  check.version = framework.version;
  check.gpu = gpu;
  check.compute_capability = compute_capability_of(cc);
  check.sass = sass_list(code);
  check.ptx = ptx_list(code);
  check.driver_cuda = driver_cuda;
  for (int arch : code.sass)
    if (within_major(arch, cc)) return check.kernel_image = KernelImage::sass, check;
  for (int arch : code.sass_family)
    if (within_major(arch, cc)) return check.kernel_image = KernelImage::sass, check;
  if (code.sass_specific.count(cc)) return check.kernel_image = KernelImage::sass, check;
  // PTX the driver can compile for this GPU, newest architecture first: the
  // one the CUDA runtime picks. Its ISA decides whether this driver knows it.
  std::map<int, std::string> usable;
  for (const auto& [arch, isa] : code.ptx)
    if (arch <= cc) usable[arch] = isa;
  for (const auto& [arch, isa] : code.ptx_family)
    if (within_major(arch, cc)) usable[arch] = isa;
  if (const auto found = code.ptx_specific.find(cc); found != code.ptx_specific.end()) usable[cc] = found->second;
  if (usable.empty()) return check.kernel_image = KernelImage::none, check;
  const auto& [arch, isa_text] = *usable.rbegin();
  const auto isa = Version::parse(isa_text);
  // PTX listed without its ISA (a build info's compute_90) came with the framework's own CUDA.
  const auto needs = isa ? tables.cuda_for_ptx_isa(*isa) : framework.cuda ? Version::parse(*framework.cuda) : std::nullopt;
  const auto driver = driver_cuda ? Version::parse(*driver_cuda) : std::nullopt;
  if (needs && driver && *driver < *needs) {
    check.kernel_image = KernelImage::ptx_needs_newer_driver;
    check.ptx_needs_cuda = needs->text();
    return check;
  }
  check.kernel_image = KernelImage::ptx_jit;
  return check;
}

}  // namespace gd
