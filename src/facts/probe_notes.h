#pragma once
// What every probe says beside its facts: the layer's status before rules,
// a one-line summary, where each top-level fact came from, and input that
// was there but made no sense (reported, never trusted).

#include "model/fact_fields.h"
#include "model/facts.h"

#include <cstdint>
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

// The facts every layer may hold beside its own: what its probe could not
// trust, and the error that stopped it (check/run_check).
inline constexpr std::string_view k_unreadable_fact = "unreadable";
inline constexpr std::string_view k_probe_error_fact = "probe_error";

struct ProbeNotes {
  Status status = Status::unknown;  // ok, skip or unknown; findings can only make it worse
  std::string summary;
  std::map<std::string, std::string> sources;  // top-level fact -> file, variable or command
  std::vector<Unreadable> unreadable;

  void note_unreadable(const std::string& path, const std::string& problem, const std::string& value = {});
  // The notes added since unreadable held `before`, where there are any: how
  // many files an engine reads that gpudoctor did not (its files_not_read).
  std::optional<std::int64_t> noted_since(std::size_t before) const;
};

// A layer's typed facts with the probe's notes.
template <class Facts>
struct Probed : ProbeNotes {
  Facts facts;

  // Where a top-level fact came from, the fact named by its member
  // (&KernelModuleFacts::version): the report keys it by the fact's name.
  template <class Member>
  void source(Member Facts::*member, std::string from) {
    sources[fact_name(facts, member)] = std::move(from);
  }
  // The same source for several facts.
  template <class... Members>
  void source_of_each(const std::string& from, Members Facts::*... members) {
    (source(members, from), ...);
  }
};

// The report's form of a layer: its facts as JSON, which rules address by path.
template <class Facts>
LayerFacts to_layer_facts(std::string id, const Probed<Facts>& probed) {
  LayerFacts layer{std::move(id), probed.status, probed.summary, to_fact_object(probed.facts), probed.sources};
  if (!probed.unreadable.empty()) layer.facts[k_unreadable_fact] = to_fact_json(probed.unreadable);
  return layer;
}

}  // namespace gd
