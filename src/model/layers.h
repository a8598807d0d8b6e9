#pragma once
// What gpudoctor diagnoses — a subject — and its layers, bottom up. These
// ids are a public contract: they appear in reports, rules and snapshots
// (docs/layers.md). The host (a machine or a container on it) is what rules
// are written against; an image (check --image) is reported with layers of
// its own, each made of host layers (check/image_view.h): the same law,
// read the way an image is built and shipped.

#include "util/enum_names.h"

#include <array>
#include <span>
#include <string_view>

namespace gd {

// Every layer of every subject: the one place their ids are spelt.
enum class LayerId { hardware, kernel_module, container, device_nodes, driver_libs, cuda_runtime, application, target_host, image_config };
template <>
struct EnumTable<LayerId> {
  static constexpr std::array names{"hardware",    "kernel-module", "container",   "device-nodes", "driver-libs",
                                    "cuda-runtime", "application",   "target-host", "image-config"};
};
constexpr std::string_view layer_id(LayerId id) { return enum_name(id); }

inline constexpr std::array<std::string_view, 7> k_layer_ids = {
    layer_id(LayerId::hardware),    layer_id(LayerId::kernel_module), layer_id(LayerId::container),
    layer_id(LayerId::device_nodes), layer_id(LayerId::driver_libs),  layer_id(LayerId::cuda_runtime),
    layer_id(LayerId::application),
};

struct Subject {
  std::string_view name;
  std::span<const std::string_view> layers;  // bottom up
};

// An image: the host it will meet (as --gpu and --host-driver name it),
// what the image asks of the container toolkit, then what it carries.
inline constexpr std::array<std::string_view, 5> k_image_layer_ids = {
    layer_id(LayerId::target_host), layer_id(LayerId::image_config), layer_id(LayerId::driver_libs),
    layer_id(LayerId::cuda_runtime), layer_id(LayerId::application),
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
