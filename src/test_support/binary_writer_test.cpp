// The one writer of each binary format, held to the real tools that read
// those formats (readelf, ldconfig, modinfo) and to gpudoctor's own readers:
// a scenario built from these files shows what the real tool would see.

#include "test_support/binary_writer.h"

#include "child/child_runner.h"
#include "formats/elf_file.h"
#include "formats/fatbin.h"
#include "formats/go_buildinfo.h"
#include "formats/modinfo.h"
#include "host/live_host.h"
#include "loader/ld_cache.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <string>
#include <vector>

namespace {

// The tool's stdout, or "" (with a message) where this machine lacks it.
std::string tool_output(const std::vector<std::string>& argv) {
  const auto result = gd::run_child(argv, std::chrono::seconds(60));
  if (result.exit != 0) MESSAGE(argv[0] << " failed (" << result.exit.value_or(-1) << "): " << result.error_output);
  return result.output;
}

bool has_tool(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace

TEST_CASE("tiny_elf: readelf and read_elf see the same SONAME, NEEDED, RUNPATH and sections") {
  gd::TempDir dir;
  dir.write("libx.so.1", gd::tiny_elf({.soname = "libx.so.1",
                                       .needed = {"libdep.so.2", "libc.so.6"},
                                       .runpath = "$ORIGIN/../lib:/opt/x",
                                       .fwd_note = R"({"cuda": "12.8"})",
                                       .fatbin = std::vector<gd::FatbinEntrySpec>{{.kind = 2, .arch = 90, .major = 1, .minor = 7}}}));
  const std::string dynamic = tool_output({"readelf", "-dW", dir / "libx.so.1"});
  CHECK(dynamic.find("Library soname: [libx.so.1]") != std::string::npos);
  CHECK(dynamic.find("Shared library: [libdep.so.2]") != std::string::npos);
  CHECK(dynamic.find("Shared library: [libc.so.6]") != std::string::npos);
  CHECK(dynamic.find("Library runpath: [$ORIGIN/../lib:/opt/x]") != std::string::npos);
  const std::string sections = tool_output({"readelf", "-SW", dir / "libx.so.1"});
  CHECK(sections.find(".nv_fatbin") != std::string::npos);
  CHECK(sections.find(".note.cuda.fwd_compatibility") != std::string::npos);
  const std::string notes = tool_output({"readelf", "-nW", dir / "libx.so.1"});
  CHECK(notes.find("NVIDIA Corporation") != std::string::npos);

  gd::LiveHost host;
  const auto elf = gd::read_elf(host, dir / "libx.so.1");
  REQUIRE(elf);
  CHECK(elf->soname == "libx.so.1");
  CHECK(elf->needed == std::vector<std::string>{"libdep.so.2", "libc.so.6"});
  CHECK(elf->runpath == "$ORIGIN/../lib:/opt/x");
  CHECK_FALSE(elf->rpath);
  CHECK(gd::read_fatbin(host, dir / "libx.so.1").sass == std::set<int>{90});

  dir.write("libold.so.1", gd::tiny_elf({.soname = "libold.so.1", .rpath = "/opt/old", .machine = 183}));
  const std::string old = tool_output({"readelf", "-hdW", dir / "libold.so.1"});
  CHECK(old.find("Library rpath: [/opt/old]") != std::string::npos);
  CHECK(old.find("AArch64") != std::string::npos);
}

TEST_CASE("fatbin_elf: readelf lists the section; read_fatbin reads its entries, and says when it is damaged") {
  gd::TempDir dir;
  const std::vector<gd::FatbinEntrySpec> entries{{.kind = 2, .arch = 80, .major = 1, .minor = 7},
                                                 {.kind = 1, .arch = 90, .major = 8, .minor = 4}};
  dir.write("libgpu.so", gd::fatbin_elf(entries));
  CHECK(tool_output({"readelf", "-SW", dir / "libgpu.so"}).find(".nv_fatbin") != std::string::npos);
  gd::LiveHost host;
  const auto contents = gd::read_fatbin(host, dir / "libgpu.so");
  CHECK(contents.has_fatbin);
  CHECK(contents.sass == std::set<int>{80});
  CHECK(contents.ptx == std::map<int, std::string>{{90, "8.4"}});
  CHECK(contents.problems.empty());
  dir.write("libbad.so", gd::fatbin_elf(entries, true));
  const auto damaged = gd::read_fatbin(host, dir / "libbad.so");
  CHECK(damaged.has_fatbin);
  CHECK_FALSE(damaged.problems.empty());
}

TEST_CASE("go_program: readelf finds .go.buildinfo and its magic, readelf -p shows the module lines; read_go_buildinfo reads them") {
  gd::TempDir dir;
  dir.write("containerd", gd::go_program("go1.22.12", "path\tgithub.com/containerd/containerd/cmd/containerd\nbuild\tCGO_ENABLED=1\n"));
  CHECK(tool_output({"readelf", "-SW", dir / "containerd"}).find(".go.buildinfo") != std::string::npos);
  // The section's first 16 bytes as readelf dumps them: the magic, pointer size 8, flag 2 (strings inline).
  CHECK(tool_output({"readelf", "-x", ".go.buildinfo", dir / "containerd"}).find("ff20476f 20627569 6c64696e 663a0802") !=
        std::string::npos);
  CHECK(tool_output({"readelf", "-p", ".go.buildinfo", dir / "containerd"}).find("github.com/containerd/containerd/cmd/containerd") !=
        std::string::npos);
  gd::LiveHost host;
  const auto info = gd::read_go_buildinfo(host, dir / "containerd");
  REQUIRE(info);
  CHECK(info->go_version == "go1.22.12");
  CHECK(info->main_path == "github.com/containerd/containerd/cmd/containerd");
}

TEST_CASE("tiny_module: modinfo reads the fields gpudoctor reads") {
  gd::TempDir dir;
  dir.write("nvidia.ko", gd::tiny_module({{"version", "550.54.15"}, {"license", "Dual MIT/GPL"},
                                          {"vermagic", "6.1.0-18-amd64 SMP preempt mod_unload modversions "},
                                          {"firmware", "nvidia/550.54.15/gsp_ga10x.bin"}}));
  gd::LiveHost host;
  const auto parsed = gd::read_modinfo(host, dir / "nvidia.ko");
  REQUIRE(parsed);
  CHECK(parsed->version == "550.54.15");
  CHECK(parsed->firmware == std::vector<std::string>{"nvidia/550.54.15/gsp_ga10x.bin"});
  const std::string modinfo = has_tool("/usr/sbin/modinfo") ? "/usr/sbin/modinfo" : "/sbin/modinfo";
  if (!has_tool(modinfo)) {
    MESSAGE("modinfo(8) is not installed (Debian: kmod); only gpudoctor's reader was checked");
    return;
  }
  CHECK(tool_output({modinfo, "-F", "version", dir / "nvidia.ko"}) == "550.54.15\n");
  CHECK(tool_output({modinfo, "-F", "license", dir / "nvidia.ko"}) == "Dual MIT/GPL\n");
  CHECK(tool_output({modinfo, "-F", "firmware", dir / "nvidia.ko"}) == "nvidia/550.54.15/gsp_ga10x.bin\n");
}

TEST_CASE("tiny_module signed: the signature is found after the ELF file, as kmod finds it") {
  gd::TempDir dir;
  dir.write("signed.ko", gd::tiny_module({{"version", "550.120"}}, true));
  dir.write("plain.ko", gd::tiny_module({{"version", "550.120"}}));
  gd::LiveHost host;
  const auto signed_ = gd::read_modinfo(host, dir / "signed.ko");
  REQUIRE(signed_);
  CHECK(signed_->version == "550.120");
  CHECK(signed_->signature_appended);
  const auto plain = gd::read_modinfo(host, dir / "plain.ko");
  REQUIRE(plain);
  CHECK_FALSE(plain->signature_appended);
  const std::string modinfo = has_tool("/usr/sbin/modinfo") ? "/usr/sbin/modinfo" : "/sbin/modinfo";
  if (!has_tool(modinfo)) return;
  CHECK(tool_output({modinfo, "-F", "version", dir / "signed.ko"}) == "550.120\n");  // the ELF file still reads
  CHECK(tool_output({modinfo, "-F", "sig_id", dir / "plain.ko"}).empty());
}

TEST_CASE("tiny_module compressed by the real xz, zstd and gzip as the kernel's modules_install does") {
  gd::TempDir dir;
  const auto module = gd::tiny_module({{"version", "570.86.15"}, {"license", "NVIDIA"},
                                       {"vermagic", "6.8.0-45-generic SMP preempt mod_unload modversions "}});
  gd::LiveHost host;
  const std::string modinfo = has_tool("/usr/sbin/modinfo") ? "/usr/sbin/modinfo" : "/sbin/modinfo";
  // scripts/Makefile.modinst: xz --check=crc32 --lzma2=dict=1MiB, zstd -T0, gzip -n.
  const std::vector<std::pair<std::string, std::vector<std::string>>> tools{
      {"/usr/bin/xz", {"/usr/bin/xz", "--check=crc32", "--lzma2=dict=1MiB", "-f"}},
      {"/usr/bin/zstd", {"/usr/bin/zstd", "-T0", "--rm", "-f", "-q"}},
      {"/usr/bin/gzip", {"/usr/bin/gzip", "-n", "-f"}}};
  const std::vector<std::string> suffixes{".xz", ".zst", ".gz"};
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const auto& [tool, argv] = tools[i];
    if (!has_tool(tool)) {
      MESSAGE(tool << " is not installed (Debian: xz-utils, zstd, gzip); its .ko" << suffixes[i] << " was not checked");
      continue;
    }
    const std::string name = "nvidia" + std::to_string(i) + ".ko";
    dir.write(name, module);
    auto command = argv;
    command.push_back(dir / name);
    tool_output(command);
    const std::string packed = dir / (name + suffixes[i]);
    REQUIRE(host.exists(packed));
    const auto parsed = gd::read_modinfo(host, packed);
    REQUIRE_MESSAGE(parsed, parsed.error());
    CHECK(parsed->version == "570.86.15");
    CHECK(parsed->vermagic == "6.8.0-45-generic SMP preempt mod_unload modversions ");
    // kmod reads each compression it was built with: `kmod --version` lists them (+XZ +ZSTD; Debian 12 has -ZLIB).
    const std::string features = has_tool("/usr/bin/kmod") ? tool_output({"/usr/bin/kmod", "--version"}) : "";
    const std::string feature = i == 0 ? "+XZ" : i == 1 ? "+ZSTD" : "+ZLIB";
    if (has_tool(modinfo) && features.find(feature) != std::string::npos)
      CHECK(tool_output({modinfo, "-F", "version", packed}) == "570.86.15\n");
    else
      MESSAGE("this kmod reads no .ko" << suffixes[i] << " (" << feature << " missing): only gpudoctor's reader was checked");
    // Cut short, as a full disk or an interrupted DKMS build leaves it.
    auto bytes = host.read_file(packed, 1 << 20).value();
    const auto cut = gd::modinfo_of_bytes(bytes.substr(0, bytes.size() / 2), gd::module_compression("x.ko" + suffixes[i]));
    REQUIRE_FALSE(cut);
    CHECK(cut.error().find("damaged or cut short") != std::string::npos);
  }
}

TEST_CASE("ld_cache: ldconfig -p lists the entries in ldconfig's own order, and parse_ld_cache finds them") {
  gd::TempDir dir;
  dir.write("ld.so.cache", gd::ld_cache({{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"},
                                         {"libz.so.1", "/lib/libz.so.1"},
                                         {"libz.so.1", "/lib64/aarch64/libz.so.1", 0x0a03}}));
  const std::string listed = tool_output({has_tool("/sbin/ldconfig") ? "/sbin/ldconfig" : "ldconfig", "-p", "-C", dir / "ld.so.cache"});
  CHECK(listed.find("3 libs found in cache") != std::string::npos);
  const auto cuda = listed.find("libcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1");
  const auto z = listed.find("libz.so.1 (libc6,x86-64) => /lib/libz.so.1");
  CHECK(cuda != std::string::npos);
  CHECK(z != std::string::npos);
  CHECK(z < cuda);  // descending by name, as ldconfig writes a cache and glibc's binary search expects
  CHECK(listed.find("libz.so.1 (libc6,AArch64) => /lib64/aarch64/libz.so.1") != std::string::npos);
  const auto parsed = gd::parse_ld_cache(gd::ld_cache({{"libz.so.1", "/lib/libz.so.1"}}));
  REQUIRE(parsed);
  CHECK(parsed->lookup("libz.so.1", 0x0303, {0x0303}) == "/lib/libz.so.1");
}

TEST_CASE("pci_vpd: the tags and lengths of PCI VPD, and RV's checksum that makes the bytes up to it sum to zero") {
  const std::string vpd = gd::pci_vpd("ConnectX-7", {{"PN", "692-9X760"}, {"VA", "MLX:MN=MLNX:SMDL=SW_MNG"}});
  REQUIRE(vpd.size() > 20);
  CHECK(static_cast<unsigned char>(vpd[0]) == 0x82);
  CHECK((static_cast<unsigned char>(vpd[1]) | static_cast<unsigned char>(vpd[2]) << 8) == 10);
  CHECK(vpd.substr(3, 10) == "ConnectX-7");
  CHECK(static_cast<unsigned char>(vpd[13]) == 0x90);
  const std::size_t resource = static_cast<unsigned char>(vpd[14]) | static_cast<unsigned char>(vpd[15]) << 8;
  CHECK(16 + resource + 1 == vpd.size());  // the VPD-R resource, then the end tag
  CHECK(vpd.back() == '\x78');
  CHECK(vpd.substr(16, 3) == std::string("PN\x09", 3));
  const auto rv = vpd.find("RV");
  REQUIRE(rv != std::string::npos);
  unsigned sum = 0;
  for (std::size_t i = 0; i <= rv + 3; ++i) sum += static_cast<unsigned char>(vpd[i]);
  CHECK(sum % 256 == 0);
}
