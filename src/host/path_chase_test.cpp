#include "host/path_chase.h"

#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <cerrno>

using gd::chase;
using gd::FollowFinal;

TEST_CASE("chase resolves symlinks inside the root and never escapes it") {
  gd::TempDir root;
  root.write("usr/lib/libcuda.so.550.54.14", "elf");
  root.symlink("usr/lib/libcuda.so.1", "libcuda.so.550.54.14");
  root.symlink("usr/lib/absolute.so", "/usr/lib/libcuda.so.1");
  root.symlink("usr/lib/escape", "../../../../../etc");
  root.symlink("lib", "usr/lib");
  root.mkdir("etc");
  const auto base = root.path();

  SUBCASE("relative symlink") {
    CHECK(chase(base, "/usr/lib/libcuda.so.1", FollowFinal::yes).value() == base + "/usr/lib/libcuda.so.550.54.14");
  }
  SUBCASE("absolute symlink is taken relative to the root") {
    CHECK(chase(base, "/usr/lib/absolute.so", FollowFinal::yes).value() == base + "/usr/lib/libcuda.so.550.54.14");
  }
  SUBCASE("symlinked directory on the way") {
    CHECK(chase(base, "/lib/libcuda.so.1", FollowFinal::yes).value() == base + "/usr/lib/libcuda.so.550.54.14");
  }
  SUBCASE("../ above the root stays at the root") {
    CHECK(chase(base, "/usr/lib/escape", FollowFinal::yes).value() == base + "/etc");
    CHECK(chase(base, "/../../etc/passwd", FollowFinal::yes).value() == base + "/etc/passwd");
  }
  SUBCASE("final symlink kept when asked") {
    CHECK(chase(base, "/usr/lib/libcuda.so.1", FollowFinal::no).value() == base + "/usr/lib/libcuda.so.1");
  }
  SUBCASE("missing final component is returned, missing directory is an error") {
    CHECK(chase(base, "/usr/lib/nothing", FollowFinal::yes).value() == base + "/usr/lib/nothing");
    CHECK(chase(base, "/nowhere/x", FollowFinal::yes).error().value() == ENOENT);
  }
}

TEST_CASE("chase stops a symlink loop with ELOOP") {
  gd::TempDir root;
  root.symlink("a", "b");
  root.symlink("b", "a");
  CHECK(chase(root.path(), "/a", FollowFinal::yes).error().value() == ELOOP);
}
