#pragma once
// The engines engine_table.cpp lists, one file each (their definitions must
// see these declarations to be visible outside their file).

#include "platforms/container_engine.h"

namespace gd {

extern const EngineMethod apptainer_engine;
extern const EngineMethod lxc_engine;
extern const EngineMethod container_variable_engine;
extern const EngineMethod kubernetes_engine;
extern const EngineMethod podman_engine;
extern const EngineMethod enroot_engine;
extern const EngineMethod docker_engine;
extern const EngineMethod containerd_engine;

}  // namespace gd
