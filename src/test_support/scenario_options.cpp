#include "test_support/scenario_options.h"

namespace gd {
namespace {

const boost::json::object* options_of(const boost::json::object& expected) {
  const auto* options = expected.if_contains("options");
  return options && options->is_object() ? &options->as_object() : nullptr;
}

bool flag(const boost::json::object& options, const char* key) {
  return options.contains(key) && options.at(key).as_bool();
}

}  // namespace

ProbeOptions scenario_probe_options(const boost::json::object& expected) {
  ProbeOptions probe;
  const auto* options = options_of(expected);
  if (!options) return probe;
  probe.image = flag(*options, "image");
  probe.smoke = flag(*options, "smoke");
  probe.driver_probe = !flag(*options, "no_probe");
  if (options->contains("gpu")) probe.assumed_gpu = std::string(options->at("gpu").as_string());
  if (options->contains("host_driver")) probe.assumed_driver = std::string(options->at("host_driver").as_string());
  if (options->contains("expect_gpus")) probe.expected_gpus = options->at("expect_gpus").as_int64();
  if (options->contains("expect_ib_ports")) probe.expected_ib_ports = options->at("expect_ib_ports").as_int64();
  return probe;
}

std::vector<std::string> scenario_cli_args(const boost::json::object& expected) {
  std::vector<std::string> args;
  const auto* options = options_of(expected);
  if (!options) return args;
  if (flag(*options, "image")) args.push_back("--image");
  if (flag(*options, "smoke")) args.push_back("--smoke");
  if (flag(*options, "no_probe")) args.push_back("--no-probe");
  if (options->contains("gpu")) args.insert(args.end(), {"--gpu", std::string(options->at("gpu").as_string())});
  if (options->contains("host_driver"))
    args.insert(args.end(), {"--host-driver", std::string(options->at("host_driver").as_string())});
  if (options->contains("expect_gpus")) args.insert(args.end(), {"--expect", "gpus=" + std::to_string(options->at("expect_gpus").as_int64())});
  if (options->contains("expect_ib_ports"))
    args.insert(args.end(), {"--expect", "ib-ports=" + std::to_string(options->at("expect_ib_ports").as_int64())});
  return args;
}

}  // namespace gd
