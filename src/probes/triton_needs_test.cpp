// Triton's own search for libcuda, case by case: TRITON_LIBCUDA_PATH wins
// unchecked; the ld.so.cache comes first and LD_LIBRARY_PATH only when the
// cache names no libcuda.so.1; -lcuda wants the unversioned name.

#include "probes/triton_needs.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

namespace {

const std::string k_site = "/venv/lib/python3.11/site-packages";

}  // namespace

TEST_CASE("TRITON_LIBCUDA_PATH is taken as it is") {
  gd::ProbeFixture f;
  f.host.env_var("TRITON_LIBCUDA_PATH", "/nowhere");
  auto context = f.context();
  const auto triton = gd::check_triton(context, "3.1.0", k_site);
  CHECK(triton.libcuda_dirs_source == "TRITON_LIBCUDA_PATH");
  CHECK(triton.finds_libcuda);
  CHECK(triton.links_libcuda == false);  // and -lcuda then finds nothing there
}

TEST_CASE("without the cache, LD_LIBRARY_PATH entries that hold libcuda.so.1") {
  gd::ProbeFixture f;
  f.host.env_var("LD_LIBRARY_PATH", "/empty:/opt/driver:/also-empty");
  f.host.file("/opt/driver/libcuda.so.1", "").file("/opt/driver/libcuda.so", "").dir("/empty");
  f.host.file("/usr/bin/gcc", "").env_var("PATH", "/usr/bin");
  auto context = f.context();
  const auto triton = gd::check_triton(context, "3.1.0", k_site);
  CHECK(triton.libcuda_dirs_source == "LD_LIBRARY_PATH");
  CHECK(triton.libcuda_dirs == std::vector<std::string>{"/opt/driver"});
  CHECK(triton.finds_libcuda);
  CHECK(triton.link_libcuda == "/opt/driver/libcuda.so");
  CHECK(triton.c_compiler == "/usr/bin/gcc");
}

TEST_CASE("libcuda.so.1 on no path Triton searches: not found, and no link check") {
  gd::ProbeFixture f;
  f.host.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "");  // a default directory: the loader finds it, Triton does not
  f.host.env_var("CC", "/opt/cc");
  auto context = f.context();
  const auto triton = gd::check_triton(context, "3.1.0", k_site);
  CHECK(triton.libcuda_dirs_source == "none");
  CHECK_FALSE(triton.finds_libcuda);
  CHECK_FALSE(triton.links_libcuda);
  CHECK(triton.c_compiler == "/opt/cc");
}

TEST_CASE("LIBRARY_PATH's stubs let -lcuda link") {
  gd::ProbeFixture f;
  f.host.env_var("LD_LIBRARY_PATH", "/opt/driver");
  f.host.file("/opt/driver/libcuda.so.1", "");
  f.host.env_var("LIBRARY_PATH", "/usr/local/cuda/lib64/stubs");
  f.host.file("/usr/local/cuda/lib64/stubs/libcuda.so", "");
  auto context = f.context();
  const auto triton = gd::check_triton(context, "3.1.0", k_site);
  CHECK(triton.links_libcuda == true);
  CHECK(triton.link_libcuda == "/usr/local/cuda/lib64/stubs/libcuda.so");
  CHECK_FALSE(triton.c_compiler);
}
