#include "util/path.h"

#include <doctest/doctest.h>

namespace gd {

TEST_CASE("base_name and dir_name split as basename(1) and dirname(1) do") {
  CHECK(base_name("/usr/lib/libcuda.so.1") == "libcuda.so.1");
  CHECK(base_name("libcuda.so.1") == "libcuda.so.1");
  CHECK(base_name("/usr/lib/") == "");
  CHECK(dir_name("/usr/lib/libcuda.so.1") == "/usr/lib");
  CHECK(dir_name("/libcuda.so.1") == "/");
  CHECK(dir_name("libcuda.so.1") == ".");
}

TEST_CASE("join_path never doubles the slash, and components skip empty ones") {
  CHECK(join_path("/", "etc") == "/etc");
  CHECK(join_path("/etc", "cdi") == "/etc/cdi");
  CHECK(join_path("/etc/", "cdi") == "/etc/cdi");
  CHECK(join_path("", "x") == "/x");
  CHECK(path_components("//usr/./lib/") == std::vector<std::string_view>{"usr", ".", "lib"});
  CHECK(path_components("/").empty());
  CHECK(path_components("a") == std::vector<std::string_view>{"a"});
}

}  // namespace gd
