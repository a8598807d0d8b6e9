// The law of which GPU code runs where (CUDA C++ Programming Guide, Binary
// and PTX Compatibility), checked case by case.

#include "probes/gpu_code.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

namespace {

std::string image(const std::set<int>& sass, const std::map<int, std::string>& ptx, int cc,
                  std::optional<std::string> driver_cuda = std::string("12.4")) {
  const auto& tables = gd::builtin_tables();
  gd::FatbinContents code;
  code.sass = sass;
  code.ptx = ptx;
  return std::string(gd::enum_name(gd::check_gpu_code({"torch"}, code, "gpu", cc, driver_cuda, tables.cuda).kernel_image));
}

}  // namespace

TEST_CASE("SASS runs on its own major with an equal or higher minor, never across majors") {
  CHECK(image({86}, {}, 89) == "sass");
  CHECK(image({86}, {}, 86) == "sass");
  CHECK(image({86}, {}, 80) == "none");  // a higher minor than the GPU's
  CHECK(image({86}, {}, 90) == "none");  // another major
  CHECK(image({90}, {}, 120) == "none");
}

TEST_CASE("PTX JIT-compiles for the same or newer GPUs, when the driver knows its ISA") {
  CHECK(image({}, {{90, "8.4"}}, 120) == "ptx-jit");
  CHECK(image({}, {{90, "8.4"}}, 89) == "none");  // PTX for a newer architecture than the GPU
  CHECK(image({}, {{90, "8.7"}}, 90) == "ptx-needs-newer-driver");  // ISA 8.7 came with CUDA 12.8
  CHECK(image({}, {{90, "8.7"}}, 90, std::string("12.8")) == "ptx-jit");
  CHECK(image({}, {{90, "8.7"}}, 90, std::nullopt) == "ptx-jit");  // driver unknown: no false failure
  CHECK(image({80}, {{80, "8.0"}}, 90) == "ptx-jit");               // SASS for 8.0 does not run on 9.0; PTX does
  CHECK(image({90}, {{80, "9.9"}}, 90) == "sass");                  // SASS first
}

TEST_CASE("'a' code runs on its own capability only; 'f' code across its family, never across majors") {
  const auto& tables = gd::builtin_tables();
  const auto image_of = [&tables](const gd::FatbinContents& code, int cc) {
    return std::string(gd::enum_name(gd::check_gpu_code({"app"}, code, "gpu", cc, std::string("13.0"), tables.cuda).kernel_image));
  };
  gd::FatbinContents specific;
  specific.sass_specific = {90};
  CHECK(image_of(specific, 90) == "sass");
  CHECK(image_of(specific, 100) == "none");  // sm_90a is not portable, not even upwards
  specific.ptx_specific = {{90, "8.0"}};
  CHECK(image_of(specific, 100) == "none");  // and neither is compute_90a
  gd::FatbinContents family;
  family.sass_family = {100};
  CHECK(image_of(family, 100) == "sass");
  CHECK(image_of(family, 103) == "sass");  // the 10.x family
  CHECK(image_of(family, 120) == "none");
  family.ptx_family = {{100, "8.8"}};
  CHECK(image_of(family, 103) == "sass");
  CHECK(image_of(family, 120) == "none");  // compute_100f does not JIT for 12.0
  gd::FatbinContents portable;
  portable.ptx = {{90, "8.4"}};
  portable.ptx_specific = {{100, "8.8"}};
  CHECK(image_of(portable, 100) == "ptx-jit");
  CHECK(image_of(portable, 120) == "ptx-jit");  // through compute_90
  const auto check = gd::check_gpu_code({"app"}, [] {
    gd::FatbinContents all;
    all.sass = {80};
    all.sass_specific = {90};
    all.sass_family = {100};
    all.ptx_specific = {{100, "8.8"}};
    return all;
  }(), "gpu", 90, std::string("13.0"), tables.cuda);
  CHECK(check.sass == "sm_80 sm_90a sm_100f");
  CHECK(check.ptx == "compute_100a (PTX ISA 8.8)");
}
