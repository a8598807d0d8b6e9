#pragma once
// Builds throw-away ELF files with the exact SONAME, NEEDED, RPATH and
// RUNPATH a test needs, with the system's C compiler, at test time.

#include "child/child_runner.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace gd {

struct ElfSpec {
  std::string output;                 // relative to the TempDir
  std::string soname;                 // empty: an executable
  std::vector<std::string> needed;    // library files (absolute) to link against
  std::string rpath;                  // DT_RPATH, or DT_RUNPATH with runpath = true
  bool runpath = false;
};

inline void build_elf(const TempDir& dir, const ElfSpec& spec) {
  const std::string source = dir / (spec.output + ".c");
  dir.write(spec.output + ".c", spec.soname.empty() ? "int main(void) { return 0; }\n" : "int answer(void) { return 42; }\n");
  std::vector<std::string> argv{"cc", "-o", dir / spec.output, source};
  if (!spec.soname.empty()) {
    argv.insert(argv.end(), {"-shared", "-fPIC", "-Wl,-soname," + spec.soname});
  }
  argv.push_back("-Wl,--no-as-needed");  // keep every NEEDED even though nothing calls into it
  for (const auto& library : spec.needed) argv.push_back(library);
  if (!spec.rpath.empty()) {
    argv.push_back("-Wl,-rpath," + spec.rpath);
    argv.push_back(spec.runpath ? "-Wl,--enable-new-dtags" : "-Wl,--disable-new-dtags");
  }
  const auto result = run_child(argv, std::chrono::seconds(60));
  REQUIRE_MESSAGE(result.exit == 0, "cc failed: " << result.error_output);
}

}  // namespace gd
