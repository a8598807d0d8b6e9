#pragma once
// What a probe learned about one layer: plain JSON facts, no judgement, plus
// where each top-level fact came from so that findings can cite it.

#include "model/status.h"

#include <boost/json.hpp>

#include <map>
#include <string>

namespace gd {

struct LayerFacts {
  std::string id{};
  // The probe's view before rules: ok (evidence looks sound), skip (does not
  // apply here) or unknown (no evidence). Findings can only make it worse.
  Status status = Status::unknown;
  std::string summary{};
  boost::json::object facts{};
  std::map<std::string, std::string> sources{};  // top-level fact -> file or command

  void set(const std::string& key, boost::json::value value, const std::string& source = {}) {
    facts[key] = std::move(value);
    if (!source.empty()) sources[key] = source;
  }
  void set(const std::string& key, const std::string& value, const std::string& source = {}) {
    set(key, boost::json::value(boost::json::string(value)), source);
  }
  void set(const std::string& key, const char* value, const std::string& source = {}) {
    set(key, boost::json::value(boost::json::string(value)), source);
  }
};

}  // namespace gd
