#pragma once
// What gpudoctor diagnoses — a subject — and its layers, bottom up. These
// ids are a public contract: they appear in reports, rules and snapshots
// (docs/layers.md). Today there is one subject, the host (a machine or a
// container on it); image pre-flight and Dockerfile lint will add theirs
// here, with their own layers, and the same rule engine judges them.

#include <array>
#include <span>
#include <string_view>

namespace gd {

inline constexpr std::array<std::string_view, 7> k_layer_ids = {
    "hardware", "kernel-module", "container", "device-nodes", "driver-libs", "cuda-runtime", "application",
};

struct Subject {
  std::string_view name;
  std::span<const std::string_view> layers;  // bottom up
};

inline constexpr std::string_view k_host_subject = "host";
inline constexpr std::array<Subject, 1> k_subjects = {Subject{k_host_subject, k_layer_ids}};

inline const Subject* find_subject(std::string_view name) {
  for (const auto& subject : k_subjects)
    if (subject.name == name) return &subject;
  return nullptr;
}

inline bool is_layer_of(const Subject& subject, std::string_view id) {
  for (auto known : subject.layers)
    if (known == id) return true;
  return false;
}

inline bool is_layer_id(std::string_view id) { return is_layer_of(k_subjects[0], id); }

}  // namespace gd
