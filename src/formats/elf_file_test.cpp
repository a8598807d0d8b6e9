#include "formats/elf_file.h"

#include "host/forwarding_host.h"
#include "host/live_host.h"
#include "test_support/elf_builder.h"

#include <doctest/doctest.h>

#include <filesystem>

namespace {

gd::ElfResult read(const gd::TempDir& dir, const std::string& relative) {
  gd::LiveHost host;
  return gd::read_elf(host, dir / relative);
}

// Counts the reads a file costs: the loader reads every library it walks.
class CountingHost final : public gd::ForwardingHost {
 public:
  using ForwardingHost::ForwardingHost;
  gd::Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override {
    ++reads;
    return ForwardingHost::read_range(path, offset, size);
  }
  int reads = 0;
};

}  // namespace

TEST_CASE("a library with many NEEDED names costs three reads: the head, the dynamic section, the strings together") {
  gd::TempDir dir;
  std::vector<std::string> deps;
  for (int i = 0; i < 12; ++i) {
    const std::string name = "libdep" + std::to_string(i) + ".so";
    gd::build_elf(dir, {name, name + ".1", {}, "", false});
    deps.push_back(dir / name);
  }
  gd::build_elf(dir, {"libmany.so", "libmany.so.1", deps, "$ORIGIN", true});
  gd::LiveHost live;
  CountingHost host(live);
  const auto elf = gd::read_elf(host, dir / "libmany.so");
  REQUIRE(elf);
  for (int i = 0; i < 12; ++i)
    CHECK(std::find(elf->needed.begin(), elf->needed.end(), "libdep" + std::to_string(i) + ".so.1") != elf->needed.end());
  CHECK(elf->soname == "libmany.so.1");
  CHECK(elf->runpath == "$ORIGIN");
  CHECK(host.reads <= 4);  // the notes may lie past the head; 19 before, a read for each string
}

TEST_CASE("the ELF reader finds SONAME, NEEDED, RPATH and RUNPATH") {
  gd::TempDir dir;
  gd::build_elf(dir, {"libdep.so", "libdep.so.1", {}, "", false});
  gd::build_elf(dir, {"librpath.so", "librpath.so.2", {dir / "libdep.so"}, "$ORIGIN/../lib:/opt/x", false});
  gd::build_elf(dir, {"librunpath.so", "librunpath.so.3", {dir / "libdep.so"}, "/opt/y", true});
  gd::build_elf(dir, {"app", "", {dir / "libdep.so"}, "", false});

  const auto rpath = read(dir, "librpath.so");
  REQUIRE(rpath);
  CHECK(rpath->bits == 64);
  CHECK(rpath->type == 3);
  CHECK(rpath->soname == "librpath.so.2");
  CHECK(rpath->rpath == "$ORIGIN/../lib:/opt/x");
  CHECK_FALSE(rpath->runpath);
  CHECK(std::find(rpath->needed.begin(), rpath->needed.end(), "libdep.so.1") != rpath->needed.end());

  const auto runpath = read(dir, "librunpath.so");
  REQUIRE(runpath);
  CHECK(runpath->runpath == "/opt/y");
  CHECK_FALSE(runpath->rpath);

  const auto app = read(dir, "app");
  REQUIRE(app);
  CHECK(app->interpreter.has_value());
  CHECK_FALSE(app->soname);
  CHECK_FALSE(app->notes.empty());  // the GNU build-id / ABI tag notes
}

TEST_CASE("hostile files are errors, never crashes") {
  gd::TempDir dir;
  gd::build_elf(dir, {"libgood.so", "libgood.so.1", {}, "/opt/x", false});
  const std::string good = [&] {
    gd::LiveHost host;
    return host.read_file(dir / "libgood.so", 1 << 24).value();
  }();

  SUBCASE("text") {
    dir.write("text.so", "INPUT(-lfoo)\n");
    CHECK(read(dir, "text.so").problem().kind == gd::ElfErrorKind::not_elf);
  }
  SUBCASE("empty") {
    dir.write("empty.so", "");
    CHECK(read(dir, "empty.so").problem().kind == gd::ElfErrorKind::not_elf);
  }
  SUBCASE("missing") { CHECK(read(dir, "none.so").problem().kind == gd::ElfErrorKind::unreadable); }
  SUBCASE("every truncation") {
    for (std::size_t cut = 0; cut < good.size(); cut += 97) {
      dir.write("cut.so", good.substr(0, cut));
      const auto result = read(dir, "cut.so");
      CHECK((result || !result.error().empty()));  // an answer either way, never a crash
    }
  }
  SUBCASE("bytes flipped all over") {
    for (std::size_t at = 0; at < std::min<std::size_t>(good.size(), 4096); at += 7) {
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0xff);
      dir.write("flip.so", bad);
      const auto result = read(dir, "flip.so");
      CHECK((result || !result.error().empty()));  // an answer either way, never a crash
    }
  }
  SUBCASE("a wrong byte order marker") {
    std::string bad = good;
    bad[5] = 7;
    dir.write("order.so", bad);
    CHECK(read(dir, "order.so").problem().kind == gd::ElfErrorKind::bad_header);
  }
}

TEST_CASE("a big-endian 32-bit header is decoded") {
  gd::TempDir dir;
  std::string header(52, '\0');
  header.replace(0, 4, "\x7f" "ELF");
  header[4] = 1;                 // 32-bit
  header[5] = 2;                 // big-endian
  header[6] = 1;
  header[17] = 3;                // e_type ET_DYN, big-endian
  header[19] = 8;                // e_machine MIPS
  header[43] = 32;               // e_phentsize
  dir.write("be.so", header);
  const auto result = read(dir, "be.so");
  REQUIRE(result);
  CHECK(result->bits == 32);
  CHECK_FALSE(result->little_endian);
  CHECK(result->machine == 8);
  CHECK(result->needed.empty());
}

TEST_CASE("sections are listed by name with where their bytes lie") {
  gd::TempDir dir;
  gd::build_elf(dir, {"libsections.so", "libsections.so.1", {}, "", false});
  gd::LiveHost host;
  const auto sections = gd::read_sections(host, dir / "libsections.so");
  const auto named = [&](const std::string& name) {
    return std::find_if(sections.begin(), sections.end(), [&](const gd::ElfSection& s) { return s.name == name; });
  };
  REQUIRE(named(".dynstr") != sections.end());
  CHECK(named(".dynstr")->size > 0);
  const auto dynstr = host.read_range(dir / "libsections.so", named(".dynstr")->offset, named(".dynstr")->size).value();
  CHECK(dynstr.find("libsections.so.1") != std::string::npos);
  CHECK(named(".nv_fatbin") == sections.end());
  CHECK(gd::read_sections(host, dir / "no-such-file").empty());
}

TEST_CASE("4,096 PT_NOTE headers over one 1 MiB note: read up to the per-file cap, and the cap is said") {
  gd::TempDir dir;
  constexpr std::size_t k_headers = 4096, k_note = 1 << 20;
  const std::size_t notes_at = 64 + k_headers * 56;
  std::string file(notes_at + k_note + 4 * k_headers, '\0');
  auto put = [&](std::size_t at, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) file[at + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
  };
  file.replace(0, 4, "\x7f" "ELF");
  file[4] = 2;  // 64-bit
  file[5] = 1;  // little-endian
  file[6] = 1;
  put(16, 3, 2);          // ET_DYN
  put(18, 62, 2);         // x86-64
  put(32, 64, 8);         // e_phoff
  put(54, 56, 2);         // e_phentsize
  put(56, k_headers, 2);  // e_phnum
  for (std::size_t i = 0; i < k_headers; ++i) {
    const std::size_t header = 64 + i * 56;
    put(header, 4, 4);                        // PT_NOTE
    put(header + 8, notes_at + 4 * i, 8);     // p_offset: each a little further into the same bytes
    put(header + 32, k_note, 8);              // p_filesz
  }
  // One note filling the megabyte: namesz 4, descsz the rest, type 1, "GNU".
  put(notes_at, 4, 4);
  put(notes_at + 4, k_note - 16, 4);
  put(notes_at + 8, 1, 4);
  file.replace(notes_at + 12, 3, "GNU");
  dir.write("notes.so", file);
  const auto result = read(dir, "notes.so");
  REQUIRE(result);
  CHECK(result->notes.size() <= 256);
  REQUIRE_FALSE(result->limits.empty());
  CHECK(result->limits.front().find("PT_NOTE segments past") != std::string::npos);
}

TEST_CASE("a RUNPATH longer than 64 KiB is cut at a ':' and the cut is said") {
  gd::TempDir dir;
  std::string runpath;
  for (int i = 0; runpath.size() < 100000; ++i) runpath += (i ? ":/opt/dir" : "/opt/dir") + std::to_string(i);
  gd::build_elf(dir, {"libwide.so", "libwide.so.1", {}, runpath, true});
  const auto result = read(dir, "libwide.so");
  REQUIRE(result);
  REQUIRE(result->runpath);
  CHECK(result->runpath->size() < 65536);
  CHECK(runpath.starts_with(*result->runpath + ":"));
  REQUIRE(result->limits.size() == 1);
  CHECK(result->limits[0].find("longer than 65536 bytes") != std::string::npos);
}
