#pragma once
// A diagnosed image as its own subject: the host-shaped report that the
// probes and rules produced (the compatibility law is the same for an image)
// regrouped into the image's layers — target-host (hardware and driver as
// --gpu and --host-driver name them), image-config (the container layer:
// what the image asks of the toolkit), then driver-libs, cuda-runtime and
// application as they are. Device nodes do not exist until it runs, so that
// layer is not there at all. Findings keep their rule and evidence; their
// layer, and the layer of their cause, become the image's.

#include "facts/container_facts.h"
#include "model/report.h"

#include <string>

namespace gd {

// The image layer a host layer's facts and findings belong to ("kernel-module" -> "target-host").
std::string image_layer_of(const std::string& host_layer);

// What the image's own layer summaries are made of, from the typed facts:
// the image's variables, and whether --host-driver named a host to meet.
struct ImageFacts {
  const ContainerFacts& container;
  bool host_driver_named = false;
};

// Regroups report (subject host, rules applied) into the image subject and settles its verdict again.
void regroup_for_image(Report& report, const ImageFacts& image);

}  // namespace gd
