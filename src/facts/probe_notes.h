#pragma once
// What every probe says beside its facts: the layer's status before rules,
// a one-line summary, where each top-level fact came from, and input that
// was there but made no sense (reported, never trusted).

#include "model/fact_fields.h"
#include "model/facts.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct Unreadable {
  std::string path;
  std::string problem;
  std::optional<std::string> value;  // the offending text, escaped and cut short

  template <class F>
  void fields(F& f) const {
    f("path", path, "the file or variable");
    f("problem", problem, "what was wrong with it");
    f("value", value, "the offending text, escaped and cut to 120 characters");
  }
};

struct ProbeNotes {
  Status status = Status::unknown;  // ok, skip or unknown; findings can only make it worse
  std::string summary;
  std::map<std::string, std::string> sources;  // top-level fact -> file, variable or command
  std::vector<Unreadable> unreadable;

  void source(const std::string& fact, std::string from) { sources[fact] = std::move(from); }
  void note_unreadable(const std::string& path, const std::string& problem, const std::string& value = {});
};

// A layer's typed facts with the probe's notes.
template <class Facts>
struct Probed : ProbeNotes {
  Facts facts;
};

// The report's form of a layer: its facts as JSON, which rules address by path.
template <class Facts>
LayerFacts to_layer_facts(std::string id, const Probed<Facts>& probed) {
  LayerFacts layer{std::move(id), probed.status, probed.summary, to_fact_object(probed.facts), probed.sources};
  if (!probed.unreadable.empty()) layer.facts["unreadable"] = to_fact_json(probed.unreadable);
  return layer;
}

}  // namespace gd
