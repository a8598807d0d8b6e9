#pragma once
// The reference tables of rules/tables/, validated at load into typed rows:
// what probes look things up in (a device id's chip, a branch's CUDA
// version, a Tegra SoC) and rules judge with. They sit below both, so that
// a probe reads a table without knowing rules exist.

#include "tables/cuda_tables.h"
#include "tables/driver_installers.h"
#include "tables/pci_chips.h"
#include "tables/tegra_socs.h"

namespace gd {

struct ReferenceTables {
  ChipTable chips;                  // pci-chips, pci-products.tsv
  TegraTable tegra;                 // tegra-socs: integrated GPUs (Jetson) and L4T releases
  DriverInstallerTable installers;  // driver-installers: what puts the driver into an image (lint)
  CudaTables cuda;                  // cuda-drivers, forward-compat, error-codes, framework tables
  bool operator==(const ReferenceTables&) const = default;
};

}  // namespace gd
