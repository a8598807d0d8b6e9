// The fatbin reader on a library built at test time whose .nv_fatbin
// section holds two containers in nvcc's layout: SASS for sm_80 and sm_90
// (one compressed), PTX for compute_80 (ISA 8.0) and compute_90 (ISA 8.4).

#include "formats/fatbin.h"

#include "host/live_host.h"
#include "test_support/binary_writer.h"
#include "test_support/elf_builder.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

TEST_CASE("a .nv_fatbin section: SASS and PTX architectures, PTX versions, compressed entries counted") {
  const std::string bytes = gd::fatbin_container({{.kind = 2, .arch = 80, .major = 1, .minor = 7}, {.kind = 1, .arch = 80, .major = 8, .minor = 0}}) +
                            gd::fatbin_container({{.kind = 2, .arch = 90, .major = 1, .minor = 7, .flags = 0x2000},
                                                  {.kind = 1, .arch = 90, .major = 8, .minor = 4}});
  std::string initializer;
  for (auto byte : bytes) initializer += std::to_string(static_cast<unsigned char>(byte)) + ",";
  gd::TempDir dir;
  dir.write("gpu.c", "__attribute__((section(\".nv_fatbin\"), used)) const unsigned char fatbin[] = {" + initializer +
                         "};\nint answer(void) { return 42; }\n");
  const auto built = gd::run_child({"cc", "-shared", "-fPIC", "-o", dir / "libgpu.so", dir / "gpu.c"}, std::chrono::seconds(60));
  REQUIRE_MESSAGE(built.exit == 0, built.error_output);
  gd::LiveHost host;
  const auto contents = gd::read_fatbin(host, dir / "libgpu.so");
  CHECK(contents.has_fatbin);
  CHECK(contents.containers == 2);
  CHECK(contents.entries == 4);
  CHECK(contents.compressed_entries == 1);
  CHECK(contents.sass == std::set<int>{80, 90});
  CHECK(contents.ptx == std::map<int, std::string>{{80, "8.0"}, {90, "8.4"}});
  CHECK(contents.problems.empty());
  CHECK(gd::compute_capability_of(120) == "12.0");
}

TEST_CASE("a library without GPU code, and a damaged fatbin, are said as such") {
  gd::TempDir dir;
  gd::build_elf(dir, {"libplain.so", "libplain.so.1", {}, "", false});
  gd::LiveHost host;
  CHECK_FALSE(gd::read_fatbin(host, dir / "libplain.so").has_fatbin);
  dir.write("bad.c", "__attribute__((section(\".nv_fatbin\"), used)) const unsigned char fatbin[] = "
                     "{0x50,0xed,0x55,0xba,1,0,16,0,255,255,255,255,0,0,0,0};\n");
  const auto built = gd::run_child({"cc", "-shared", "-fPIC", "-o", dir / "libbad.so", dir / "bad.c"}, std::chrono::seconds(60));
  REQUIRE(built.exit == 0);
  const auto contents = gd::read_fatbin(host, dir / "libbad.so");
  CHECK(contents.has_fatbin);
  CHECK(contents.sass.empty());
  REQUIRE(contents.problems.size() == 1);
  CHECK(contents.problems[0] == "a fat binary runs past its section");
}

namespace {

// The CUDA toolkit's nvcc, where this machine has one (the development VM has CUDA 13.0).
std::optional<std::string> find_nvcc() {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/local", error))
    if (entry.path().filename().string().starts_with("cuda") && std::filesystem::exists(entry.path() / "bin/nvcc"))
      return (entry.path() / "bin/nvcc").string();
  return std::nullopt;
}

}  // namespace

TEST_CASE("real nvcc output: exactly the -gencode targets asked for, compressed and not") {
  const auto nvcc = find_nvcc();
  if (!nvcc) {
    MESSAGE("no nvcc under /usr/local/cuda*: skipped");
    return;
  }
  gd::TempDir dir;
  dir.write("k.cu", "__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }\n"
                    "extern \"C\" void launch(int* p) { k<<<1, 32>>>(p); }\n");
  gd::LiveHost host;
  {
    const auto built = gd::run_child({*nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", dir / "libdefault.so", dir / "k.cu",
                                      "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=compute_90"},
                                     std::chrono::seconds(120));
    REQUIRE_MESSAGE(built.exit == 0, built.error_output);
    const auto contents = gd::read_fatbin(host, dir / "libdefault.so");
    CHECK(contents.sass == std::set<int>{80});
    REQUIRE(contents.ptx.size() == 1);
    CHECK(contents.ptx.begin()->first == 90);
    CHECK(contents.compressed_entries >= 1);  // nvcc compresses by default
    CHECK(contents.problems.empty());
  }
  {
    const auto built = gd::run_child({*nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", dir / "libplain.so", dir / "k.cu",
                                      "-gencode", "arch=compute_75,code=sm_75", "-gencode", "arch=compute_90,code=sm_90",
                                      "-gencode", "arch=compute_100,code=compute_100", "--no-compress"},
                                     std::chrono::seconds(120));
    REQUIRE_MESSAGE(built.exit == 0, built.error_output);
    const auto contents = gd::read_fatbin(host, dir / "libplain.so");
    CHECK(contents.sass == std::set<int>{75, 90});
    REQUIRE(contents.ptx.size() == 1);
    CHECK(contents.ptx.begin()->first == 100);  // sm_100 entries have longer headers
    CHECK(contents.compressed_entries == 0);
  }
  {
    // Arch-specific ('a') and family ('f') targets, which nvcc marks with entry flags (CUDA 12.9 and later know 'f').
    const auto built = gd::run_child({*nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", dir / "libsuffixed.so", dir / "k.cu",
                                      "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90a,code=sm_90a",
                                      "-gencode", "arch=compute_100f,code=sm_100f", "-gencode", "arch=compute_100a,code=compute_100a"},
                                     std::chrono::seconds(120));
    if (built.exit != 0 && built.error_output.find("nsupported gpu architecture") != std::string::npos) {
      MESSAGE("this nvcc predates family targets: suffixed code skipped");
      return;
    }
    REQUIRE_MESSAGE(built.exit == 0, built.error_output);
    const auto contents = gd::read_fatbin(host, dir / "libsuffixed.so");
    CHECK(contents.sass == std::set<int>{80});
    CHECK(contents.sass_specific == std::set<int>{90});
    CHECK(contents.sass_family == std::set<int>{100});
    CHECK(contents.ptx.empty());
    REQUIRE(contents.ptx_specific.size() == 1);
    CHECK(contents.ptx_specific.begin()->first == 100);
    CHECK(contents.ptx_family.empty());
  }
}

TEST_CASE("a sparse .nv_fatbin of hundreds of MB of zeros is not scanned: a few reads, and said") {
  gd::TempDir dir;
  // A section that claims 300 MB from offset 1 MiB: a hole in a sparse file.
  std::string elf = gd::fatbin_elf({{.kind = 2, .arch = 80, .major = 1, .minor = 7}});
  std::uint64_t shoff = 0;
  for (int i = 7; i >= 0; --i) shoff = shoff << 8 | static_cast<unsigned char>(elf[40 + static_cast<std::size_t>(i)]);
  const auto put64 = [&](std::size_t at, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) elf[at + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
  };
  const std::uint64_t offset = 1 << 20, size = std::uint64_t{300} << 20;
  put64(static_cast<std::size_t>(shoff) + 64 + 24, offset);  // the .nv_fatbin header's sh_offset
  put64(static_cast<std::size_t>(shoff) + 64 + 32, size);    // and sh_size
  dir.write("libsparse.so", elf);
  std::filesystem::resize_file(dir / "libsparse.so", offset + size);
  gd::LiveHost host;
  const auto contents = gd::read_fatbin(host, dir / "libsparse.so");
  CHECK(contents.has_fatbin);
  CHECK(contents.entries == 0);
  REQUIRE(contents.problems.size() == 1);
  CHECK(contents.problems[0].find("KiB of zeros") != std::string::npos);
}

TEST_CASE("padding between containers is skipped") {
  gd::TempDir dir;
  const std::string bytes = gd::fatbin_container({{.kind = 2, .arch = 80, .major = 1, .minor = 7}}) + std::string(40, '\0') +
                            gd::fatbin_container({{.kind = 2, .arch = 90, .major = 1, .minor = 7}});
  std::string initializer;
  for (auto byte : bytes) initializer += std::to_string(static_cast<unsigned char>(byte)) + ",";
  dir.write("pad.c", "__attribute__((section(\".nv_fatbin\"), used)) const unsigned char fatbin[] = {" + initializer + "};\n");
  REQUIRE(gd::run_child({"cc", "-shared", "-fPIC", "-o", dir / "libpad.so", dir / "pad.c"}, std::chrono::seconds(60)).exit == 0);
  gd::LiveHost host;
  const auto contents = gd::read_fatbin(host, dir / "libpad.so");
  CHECK(contents.sass == std::set<int>{80, 90});
  CHECK(contents.problems.empty());
}
