#include "check/image_view.h"

#include "model/layers.h"

#include <algorithm>
#include <map>

namespace gd {

std::string image_layer_of(const std::string& host_layer) {
  const auto is = [&host_layer](LayerId id) { return host_layer == layer_id(id); };
  if (is(LayerId::hardware) || is(LayerId::kernel_module)) return std::string(layer_id(LayerId::target_host));
  if (is(LayerId::container) || is(LayerId::device_nodes)) return std::string(layer_id(LayerId::image_config));
  return host_layer;
}

namespace {

// What the image asks of the container toolkit, in one line: its GPU
// selection, its capabilities and its CUDA requirement against the host named.
std::string image_config_summary(const ContainerFacts& container, bool host_named) {
  const auto visible = container.visible_devices.value.value_or(""), capabilities = container.driver_capabilities.value.value_or("");
  std::string out = "NVIDIA_VISIBLE_DEVICES=" + (visible.empty() ? std::string("(unset: no GPU unless the run asks)") : visible);
  out += ", NVIDIA_DRIVER_CAPABILITIES=" + (capabilities.empty() ? std::string("(unset: utility,compute)") : capabilities);
  const auto& require = container.require;
  if (require.requested_cuda && !require.requested_cuda->empty()) {
    out += "; requires CUDA " + *require.requested_cuda +
           (host_named && require.satisfied ? (*require.satisfied ? " (the host named meets it)" : " (the host named does not)") : "");
  }
  return out;
}

}  // namespace

void regroup_for_image(Report& report, const ImageFacts& image) {
  std::map<std::string, std::vector<LayerReport*>> parts;  // image layer -> its host layers, bottom up
  for (auto& layer : report.layers) parts[image_layer_of(layer.facts.id)].push_back(&layer);
  std::vector<LayerReport> layers;
  for (const auto id_view : k_image_layer_ids) {
    const std::string id(id_view);
    LayerReport merged;
    merged.facts.id = id;
    const auto& sources = parts[id];
    // The device-nodes layer has nothing to say about an image: it is not shown.
    std::vector<LayerReport*> shown;
    for (auto* part : sources)
      if (!(part->facts.id == layer_id(LayerId::device_nodes) && part->findings.empty())) shown.push_back(part);
    if (shown.size() == 1 && shown.front()->facts.id == id) {
      merged.facts = std::move(shown.front()->facts);
    } else {
      // Facts of several host layers stay apart, under the layer they came from.
      for (auto* part : shown) {
        merged.facts.status = merged.facts.summary.empty() ? part->facts.status : std::max(merged.facts.status, part->facts.status);
        if (!part->facts.summary.empty()) merged.facts.summary += (merged.facts.summary.empty() ? "" : "; ") + part->facts.summary;
        merged.facts.facts[part->facts.id] = std::move(part->facts.facts);
        for (auto& [key, source] : part->facts.sources) merged.facts.sources[part->facts.id + "." + key] = std::move(source);
      }
    }
    const auto has_part = [&shown](LayerId part) {
      return std::any_of(shown.begin(), shown.end(), [part](const LayerReport* layer) { return layer->facts.id == layer_id(part); });
    };
    if (id == layer_id(LayerId::image_config) && has_part(LayerId::container)) {
      merged.facts.summary = image_config_summary(image.container, image.host_driver_named);
      merged.facts.status = Status::ok;  // an image is never "in a container": its variables were read
    }
    if (id == layer_id(LayerId::target_host) && merged.facts.status == Status::skip)
      merged.facts.summary = "no host named: --gpu DEVICE-ID|CC and --host-driver VERSION judge the image against one";
    // No driver in an image is the healthy case: the toolkit brings the host's at start.
    if (id == layer_id(LayerId::driver_libs) && merged.facts.status == Status::unknown) {
      merged.facts.status = Status::ok;
      merged.facts.summary = "no driver libraries in the image (the container toolkit injects the host's at start)";
    }
    for (auto* part : shown)
      for (auto& finding : part->findings) {
        finding.layer = id;
        if (finding.caused_by) finding.cause_layer = image_layer_of(finding.cause_layer);
        merged.findings.push_back(std::move(finding));
      }
    layers.push_back(std::move(merged));
  }
  report.layers = std::move(layers);
  report.subject = std::string(k_image_subject);
  settle_verdict(report);
}

}  // namespace gd
