#include "snapshot/stored_files.h"

#include <doctest/doctest.h>

#include <cerrno>

TEST_CASE("memory files resolve symlinks inside themselves, as a snapshot root does") {
  gd::MemoryFiles files;
  files.add_file("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "ELF", 0644);
  files.add_link("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.550.54.15");
  files.add_link("/lib", "usr/lib");
  files.add_link("/escape", "../../../../etc/shadow");
  files.add_link("/absolute", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  files.add_link("/loop", "loop");
  files.add_directory("/empty");

  CHECK(files.read_file("/lib/x86_64-linux-gnu/libcuda.so.1", 100).value() == "ELF");
  CHECK(files.read_file("/absolute", 100).value() == "ELF");
  CHECK(files.read_range("/absolute", 1, 5).value() == "LF");
  CHECK(files.read_link("/lib/x86_64-linux-gnu/libcuda.so.1").value() == "libcuda.so.550.54.15");
  CHECK(files.stat("/lib/x86_64-linux-gnu/libcuda.so.1").value().size == 3);
  CHECK(files.stat("/lib").value().type == gd::FileType::directory);
  CHECK(files.read_file("/escape", 100).error().value() == ENOENT);  // ".." stops at the root: /etc/shadow is not there
  CHECK(files.read_file("/loop", 100).error().value() == ELOOP);
  CHECK(files.list_dir("/lib/x86_64-linux-gnu").value() == std::vector<std::string>{"libcuda.so.1", "libcuda.so.550.54.15"});
  CHECK(files.list_dir("/empty").value().empty());
  CHECK(files.list_dir("/absolute").error().value() == ENOTDIR);
  CHECK(files.read_file("/usr", 10).error().value() == EISDIR);
  CHECK(files.read_file("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15/x", 10).error().value() == ENOTDIR);
  CHECK(files.read_link("/usr").error().value() == EINVAL);
}

TEST_CASE("links into a deep tree resolve, step by step; a path resolved past PATH_MAX is refused") {
  gd::MemoryFiles files;
  std::string deep;
  for (int i = 0; i < 350; ++i) deep += "/directory";  // 3,500 characters
  files.add_file(deep + "/f", "x", 0644);
  files.add_link("/a", deep.substr(1));
  files.add_link(deep + "/up", "../../..");
  CHECK(files.read_file("/a/f", 10).value() == "x");
  CHECK(files.read_file("/a/up/directory/directory/directory/f", 10).value() == "x");
  CHECK(files.read_file("/a/" + std::string(700, 'n'), 10).error().value() == ENAMETOOLONG);
}

TEST_CASE("an archive's top directories linked into a tree 1,500 directories deep resolve like any other") {
  // Each step looks up one name in one directory: a walk through the link
  // used to compare whole paths thousands of bytes long at every step.
  gd::MemoryFiles files;
  std::string deep;
  for (int i = 0; i < 1500; ++i) deep += "/d";
  files.add_file(deep + "/libcuda.so.1", "ELF", 0644);
  for (const char* top : {"/usr", "/lib", "/etc", "/proc", "/sys"}) files.add_link(top, deep);
  CHECK(files.read_file("/usr/libcuda.so.1", 10).value() == "ELF");
  CHECK(files.read_file("/sys/d/libcuda.so.1", 10).error().value() == ENOENT);
  CHECK(files.list_dir("/lib").value() == std::vector<std::string>{"libcuda.so.1"});
  CHECK(files.stat("/etc").value().type == gd::FileType::directory);
  CHECK(files.read_link("/proc").value() == deep);
  CHECK(files.read_file("/usr/../d/libcuda.so.1", 10).value() == "ELF");  // ".." climbs inside the link's target
}
