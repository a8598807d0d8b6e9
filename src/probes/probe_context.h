#pragma once
// What every probe gets: the host seam, the rule tables (reference data such
// as PCI ids; never rules), the system facts, and the layers probed so far,
// so that a layer can relate its evidence to the ones below it.

#include "host/host.h"
#include "model/facts.h"
#include "rules/rule_set.h"

#include <boost/json.hpp>

#include <map>
#include <string>

namespace gd {

struct ProbeContext {
  Host& host;
  const RuleSet& rules;
  boost::json::object system;
  std::map<std::string, LayerFacts> layers;

  const boost::json::object& facts_of(const std::string& layer) const;
  std::string platform() const;
};

// A boolean fact that is present and true (missing or mistyped: false).
bool fact_is_true(const boost::json::object& facts, const char* key);

// Bounded reads: /proc and /sys files are small, and hostile ones must not
// make us read gigabytes.
inline constexpr std::size_t k_small_file = 64 * 1024;

// Adds {"path", "problem", "value"} to a layer's "unreadable" list: input
// that was there but made no sense is reported, never trusted.
void note_unreadable(LayerFacts& layer, const std::string& path, const std::string& problem,
                     const std::string& value = {});

}  // namespace gd
