#include "child/docker_api_child.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("GET /info's fields gpudoctor reads, and nothing else of the answer") {
  const auto fields = gd::docker_info_fields(
      R"({"ID":"x","Name":"gpu-node-17.corp","HttpProxy":"http://user:pw@proxy:3128","Labels":["team=a"],"ServerVersion":"20.10.24+dfsg1",)"
      R"("DefaultRuntime":"runc","Runtimes":{"nvidia":{"path":"nvidia-container-runtime","runtimeArgs":["--debug"]},"runc":{"path":"runc"},"odd":7}})");
  REQUIRE(fields);
  CHECK(*fields == R"({"ServerVersion":"20.10.24+dfsg1","DefaultRuntime":"runc","Runtimes":{"nvidia":{"path":"nvidia-container-runtime"},"runc":{"path":"runc"},"odd":{}}})");
  CHECK(fields->find("gpu-node-17") == std::string::npos);
  CHECK(gd::docker_info_fields(R"({"ServerVersion":"28.3.3"})") == R"({"ServerVersion":"28.3.3","Runtimes":{}})");
  CHECK_FALSE(gd::docker_info_fields("[1]"));
  CHECK_FALSE(gd::docker_info_fields("<html>"));
}
