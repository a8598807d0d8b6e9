#pragma once
// Looks facts up by dotted path for rules: "system.platform",
// "kernel-module.version", "container.visible_devices.mode", and inside a
// for_each rule "item.driver" for the element at hand.

#include "model/facts.h"

#include <boost/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// The steps of a dotted path over text held elsewhere: kept as where each
// step ends, so that looking a path up costs no allocation.
struct PathSteps {
  static constexpr std::size_t k_max_steps = 12;
  std::string_view text;                          // "hardware.gpus.0.driver"
  std::array<std::uint16_t, k_max_steps> ends{};  // where each dot-separated step ends in text
  std::size_t steps = 0;

  // nullopt for a path of more steps than k_max_steps (no fact is that deep).
  static std::optional<PathSteps> parse(std::string_view text);
  std::size_t size() const { return steps; }
  std::string_view part(std::size_t index) const {
    const std::size_t begin = index == 0 ? 0 : ends[index - 1] + 1u;
    return text.substr(begin, ends[index] - begin);
  }
};

// A path split once, where a rule is loaded, not at each evaluation
// (thousands of paths are compiled on every start, so a path costs at most
// its text's allocation).
struct FactPath {
  static constexpr std::size_t k_max_steps = PathSteps::k_max_steps;
  std::string text;
  std::array<std::uint16_t, k_max_steps> ends{};
  std::size_t steps = 0;

  static std::optional<FactPath> parse(std::string_view text);
  std::size_t size() const { return steps; }
  std::string_view part(std::size_t index) const { return view().part(index); }
  PathSteps view() const { return PathSteps{text, ends, steps}; }
  bool operator==(const FactPath&) const = default;
};

// The layers' facts by id; looked up by a step of a path, without a copy.
using FactLayers = std::map<std::string, const LayerFacts*, std::less<>>;

class FactView {
 public:
  FactView(const boost::json::object& system, const FactLayers& layers)
      : m_system(system), m_layers(layers) {}

  FactView with_item(const boost::json::value& item) const {
    FactView view = *this;
    view.m_item = &item;
    return view;
  }

  // nullptr when any step of the path is missing.
  const boost::json::value* find(const PathSteps& path) const;
  const boost::json::value* find(const FactPath& path) const { return find(path.view()); }
  const boost::json::value* find(std::string_view path) const {
    const auto parsed = PathSteps::parse(path);
    return parsed ? find(*parsed) : nullptr;
  }
  // The file or command a fact came from, when the probe said so.
  std::string source_of(std::string_view path) const;

 private:
  const boost::json::object& m_system;
  const FactLayers& m_layers;
  const boost::json::value* m_item = nullptr;
};

}  // namespace gd
