#include "host/path_walk.h"

#include <doctest/doctest.h>

#include <cerrno>
#include <map>
#include <vector>

namespace {

// Each step as the lookup saw it: "depth name" and the logical path.
struct Seen {
  std::size_t depth;
  std::string name, logical;
};

}  // namespace

TEST_CASE("walk_path asks about one name below a prefix it has resolved, and says how deep it is") {
  const std::map<std::string, std::string> links{{"/lib", "usr/lib"}, {"/usr/lib/cuda", "/opt/cuda/lib64"}, {"/opt/up", ".."}};
  std::vector<Seen> seen;
  // Every prefix the walk has resolved, by depth: a step's parent must be one of them.
  std::vector<std::string> resolved{""};
  const auto walked = gd::walk_path("/lib/cuda/../x/./y", gd::FollowFinal::yes, [&](const gd::WalkStep& step) -> gd::Result<std::optional<std::string>> {
    seen.push_back({step.depth, std::string(step.name), step.logical});
    REQUIRE(step.depth < resolved.size());
    CHECK(step.logical == resolved[step.depth] + "/" + std::string(step.name));
    if (const auto link = links.find(step.logical); link != links.end()) return std::optional<std::string>(link->second);
    resolved.resize(step.depth + 1);
    resolved.push_back(step.logical);
    return std::optional<std::string>();
  });
  REQUIRE(walked);
  CHECK(*walked == "/opt/cuda/x/y");
  std::vector<std::string> steps;
  for (const auto& step : seen) steps.push_back(std::to_string(step.depth) + " " + step.name);
  // /lib -> usr/lib, then /usr/lib/cuda -> /opt/cuda/lib64 restarts at the root; ".." leaves /opt/cuda.
  CHECK(steps == std::vector<std::string>{"0 lib", "0 usr", "1 lib", "2 cuda", "0 opt", "1 cuda", "2 lib64", "2 x", "3 y"});
}

TEST_CASE("walk_path: a final component not followed is not asked about; loops end in ELOOP") {
  std::vector<std::string> asked;
  const auto walked = gd::walk_path("/a/b", gd::FollowFinal::no, [&](const gd::WalkStep& step) -> gd::Result<std::optional<std::string>> {
    asked.push_back(step.logical);
    return std::optional<std::string>();
  });
  CHECK(walked.value() == "/a/b");
  CHECK(asked == std::vector<std::string>{"/a"});
  const auto looped = gd::walk_path("/loop", gd::FollowFinal::yes, [](const gd::WalkStep&) -> gd::Result<std::optional<std::string>> {
    return std::optional<std::string>("loop");
  });
  CHECK(looped.error().value() == ELOOP);
}
