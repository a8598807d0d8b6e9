#pragma once
// What gpudoctor diagnoses — a subject — and its layers, bottom up. These
// ids are a public contract: they appear in reports, rules and snapshots
// (docs/layers.md). The host (a machine or a container on it) is what rules
// are written against; an image (check --image) is reported with layers of
// its own, each made of host layers (check/image_view.h): the same law,
// read the way an image is built and shipped.

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

// An image: the host it will meet (as --gpu and --host-driver name it),
// what the image asks of the container toolkit, then what it carries.
inline constexpr std::array<std::string_view, 5> k_image_layer_ids = {
    "target-host", "image-config", "driver-libs", "cuda-runtime", "application",
};

inline constexpr std::string_view k_host_subject = "host";
inline constexpr std::string_view k_image_subject = "image";
inline constexpr std::array<Subject, 2> k_subjects = {Subject{k_host_subject, k_layer_ids},
                                                      Subject{k_image_subject, k_image_layer_ids}};

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
