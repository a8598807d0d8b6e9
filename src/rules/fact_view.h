#pragma once
// Looks facts up by dotted path for rules: "system.platform",
// "kernel-module.version", "container.visible_devices.mode", and inside a
// for_each rule "item.driver" for the element at hand.

#include "model/facts.h"

#include <boost/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// A path split once, where a rule is loaded, not at each evaluation.
struct FactPath {
  std::string text;                // "hardware.gpus.0.driver"
  std::vector<std::string> parts;  // its dot-separated steps

  static FactPath parse(std::string_view text);
};

class FactView {
 public:
  FactView(const boost::json::object& system, const std::map<std::string, const LayerFacts*>& layers)
      : m_system(system), m_layers(layers) {}

  FactView with_item(const boost::json::value& item) const {
    FactView view = *this;
    view.m_item = &item;
    return view;
  }

  // nullptr when any step of the path is missing.
  const boost::json::value* find(const FactPath& path) const;
  const boost::json::value* find(std::string_view path) const { return find(FactPath::parse(path)); }
  // The file or command a fact came from, when the probe said so.
  std::string source_of(std::string_view path) const;

 private:
  const boost::json::object& m_system;
  const std::map<std::string, const LayerFacts*>& m_layers;
  const boost::json::value* m_item = nullptr;
};

}  // namespace gd
