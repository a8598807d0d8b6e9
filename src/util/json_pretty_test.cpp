#include "util/json_pretty.h"

#include <doctest/doctest.h>

#include <limits>

TEST_CASE("JSON numbers print as plain decimals that read back the same") {
  CHECK(gd::json_number(700.0) == "700");
  CHECK(gd::json_number(41.7) == "41.7");
  CHECK(gd::json_number(-0.5) == "-0.5");
  CHECK(gd::json_number(0.0) == "0");
  CHECK(gd::json_number(0.000125) == "0.000125");
  CHECK(gd::json_number(1e300) == "1e+300");  // beyond what a person reads: exact, with an exponent
  CHECK(gd::json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(gd::json_number(std::numeric_limits<double>::infinity()) == "null");
  for (double value : {700.0, 41.7, 0.1 + 0.2, 1e-7, 123456789.125})
    CHECK(boost::json::parse(gd::json_number(value)).to_number<double>() == value);
}

TEST_CASE("pretty and compact JSON hold the same document; compact is one line") {
  const boost::json::value document = {{"power_w", 700.0}, {"list", {1, 2.5, "a\nb"}}, {"empty", boost::json::object{}}};
  const auto pretty = gd::pretty_json(document);
  const auto compact = gd::compact_json(document);
  CHECK(pretty.find("\"power_w\": 700,") != std::string::npos);
  CHECK(pretty.find("E2") == std::string::npos);
  CHECK(compact == "{\"power_w\":700,\"list\":[1,2.5,\"a\\nb\"],\"empty\":{}}\n");
  CHECK(boost::json::parse(pretty) == boost::json::parse(compact));
}
