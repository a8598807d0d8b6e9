#include "formats/elf_file.h"

#include "host/live_host.h"
#include "test_support/elf_builder.h"

#include <doctest/doctest.h>

#include <filesystem>

namespace {

gd::ElfResult read(const gd::TempDir& dir, const std::string& relative) {
  gd::LiveHost host;
  return gd::read_elf(host, dir / relative);
}

}  // namespace

TEST_CASE("the ELF reader finds SONAME, NEEDED, RPATH and RUNPATH") {
  gd::TempDir dir;
  gd::build_elf(dir, {"libdep.so", "libdep.so.1", {}, "", false});
  gd::build_elf(dir, {"librpath.so", "librpath.so.2", {dir / "libdep.so"}, "$ORIGIN/../lib:/opt/x", false});
  gd::build_elf(dir, {"librunpath.so", "librunpath.so.3", {dir / "libdep.so"}, "/opt/y", true});
  gd::build_elf(dir, {"app", "", {dir / "libdep.so"}, "", false});

  const auto rpath = read(dir, "librpath.so");
  REQUIRE(rpath.info);
  CHECK(rpath.info->bits == 64);
  CHECK(rpath.info->type == 3);
  CHECK(rpath.info->soname == "librpath.so.2");
  CHECK(rpath.info->rpath == "$ORIGIN/../lib:/opt/x");
  CHECK_FALSE(rpath.info->runpath);
  CHECK(std::find(rpath.info->needed.begin(), rpath.info->needed.end(), "libdep.so.1") != rpath.info->needed.end());

  const auto runpath = read(dir, "librunpath.so");
  REQUIRE(runpath.info);
  CHECK(runpath.info->runpath == "/opt/y");
  CHECK_FALSE(runpath.info->rpath);

  const auto app = read(dir, "app");
  REQUIRE(app.info);
  CHECK(app.info->interpreter.has_value());
  CHECK_FALSE(app.info->soname);
  CHECK_FALSE(app.info->notes.empty());  // the GNU build-id / ABI tag notes
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
    CHECK(read(dir, "text.so").error->kind == gd::ElfErrorKind::not_elf);
  }
  SUBCASE("empty") {
    dir.write("empty.so", "");
    CHECK(read(dir, "empty.so").error->kind == gd::ElfErrorKind::not_elf);
  }
  SUBCASE("missing") { CHECK(read(dir, "none.so").error->kind == gd::ElfErrorKind::unreadable); }
  SUBCASE("every truncation") {
    for (std::size_t cut = 0; cut < good.size(); cut += 97) {
      dir.write("cut.so", good.substr(0, cut));
      const auto result = read(dir, "cut.so");
      CHECK((result.info.has_value() || result.error.has_value()));
    }
  }
  SUBCASE("bytes flipped all over") {
    for (std::size_t at = 0; at < std::min<std::size_t>(good.size(), 4096); at += 7) {
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0xff);
      dir.write("flip.so", bad);
      const auto result = read(dir, "flip.so");
      CHECK((result.info.has_value() || result.error.has_value()));
    }
  }
  SUBCASE("a wrong byte order marker") {
    std::string bad = good;
    bad[5] = 7;
    dir.write("order.so", bad);
    CHECK(read(dir, "order.so").error->kind == gd::ElfErrorKind::bad_header);
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
  REQUIRE(result.info);
  CHECK(result.info->bits == 32);
  CHECK_FALSE(result.info->little_endian);
  CHECK(result.info->machine == 8);
  CHECK(result.info->needed.empty());
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
