#include "probes/nvidia_require.h"

#include <doctest/doctest.h>

namespace {

const gd::RequireFacts k_535_geforce{std::string("535.183.01"), std::string("12.2"), {{"8.6", gd::GpuBrand::geforce}}};
const gd::RequireFacts k_535_tesla{std::string("535.183.01"), std::string("12.2"), {{"9.0", gd::GpuBrand::tesla}}};

// The value from the nvidia/cuda 12.4.1 images, shortened to three brands.
const std::string k_image_12_4 =
    "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=535,driver<536 brand=quadro,driver>=535,driver<536";

bool satisfied(const std::vector<std::pair<std::string, std::string>>& variables, const gd::RequireFacts& facts,
               std::optional<std::string> disable = std::nullopt) {
  return gd::evaluate_requirements(variables, std::nullopt, disable, facts).satisfied.value();
}

}  // namespace

TEST_CASE("space means OR, comma means AND, for every GPU") {
  CHECK_FALSE(satisfied({{"NVIDIA_REQUIRE_CUDA", k_image_12_4}}, k_535_geforce));  // 12.2 < 12.4, not tesla
  CHECK(satisfied({{"NVIDIA_REQUIRE_CUDA", k_image_12_4}}, k_535_tesla));          // the 535 branch term holds
  CHECK(satisfied({{"NVIDIA_REQUIRE_CUDA", "cuda>=12.2"}}, k_535_geforce));
  CHECK(satisfied({{"NVIDIA_REQUIRE_CUDA", "cuda>=12"}}, k_535_geforce));  // 12 == 12.0
  CHECK_FALSE(satisfied({{"NVIDIA_REQUIRE_ARCH", "arch>=9.0"}}, k_535_geforce));
  CHECK(satisfied({{"NVIDIA_REQUIRE_BRAND", "brand=GeForce"}}, k_535_geforce));  // case-insensitive
}

TEST_CASE("all variables must hold; JETPACK ones are not checked") {
  CHECK_FALSE(satisfied({{"NVIDIA_REQUIRE_CUDA", "cuda>=12.0"}, {"NVIDIA_REQUIRE_DRIVER", "driver>=550"}}, k_535_tesla));
  CHECK(satisfied({{"NVIDIA_REQUIRE_CUDA", "cuda>=12.0"}, {"NVIDIA_REQUIRE_JETPACK", "jetpack>=6"}}, k_535_tesla));
}

TEST_CASE("unknown facts count as satisfied; no GPU makes arch and brand true") {
  const gd::RequireFacts unknown{std::nullopt, std::nullopt, {}};
  CHECK(satisfied({{"NVIDIA_REQUIRE_CUDA", "cuda>=13.0 brand=tesla,arch>=9.0"}}, unknown));
}

TEST_CASE("the result names the failing variable and the CUDA it asks for") {
  const auto result = gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", k_image_12_4}}, std::nullopt, std::nullopt, k_535_geforce);
  CHECK(result.failed->size() == 1);
  CHECK(*result.required_cuda == "12.4");
  CHECK_FALSE(*result.disabled);
}

TEST_CASE("CUDA_VERSION implies cuda>=X.Y; NVIDIA_DISABLE_REQUIRE follows ParseBool") {
  const auto implied = gd::evaluate_requirements({}, std::string("12.6.3"), std::nullopt, k_535_geforce);
  CHECK_FALSE(*implied.satisfied);
  CHECK(*implied.required_cuda == "12.6");
  CHECK(gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", "cuda>=13"}}, std::nullopt, std::string("true"), k_535_geforce)
            .disabled.value());
  CHECK_FALSE(gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", "cuda>=13"}}, std::nullopt, std::string("yes"), k_535_geforce)
                  .disabled.value());
  CHECK_FALSE(gd::evaluate_requirements({}, std::nullopt, std::nullopt, k_535_geforce).set);
}

TEST_CASE("junk factors are invalid, not trusted") {
  const auto result = gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", "gpu>=9 cuda>>12"}}, std::nullopt, std::nullopt, k_535_tesla);
  CHECK_FALSE(*result.satisfied);
  CHECK(result.invalid->size() == 2);
}
