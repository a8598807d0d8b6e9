#pragma once
// `gpudoctor gpus`: the GPU list a person reaches for, as text, JSON or CSV.
// The rows are the report's (check/gpu_list makes them from the best source
// that answered), so the table works on --replay too.

#include "model/gpu_row.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

// At: when the rows were read (ISO 8601, UTC), for `gpus --watch`; empty for
// one table. JSON is then one line per reading, CSV a time column and the
// header only when asked for, so that a log of readings stays one CSV file.
struct GpuReading {
  std::string at;
  bool header = true;
};

std::string render_gpus_text(const std::vector<GpuRow>& rows);
std::string render_gpus_json(const std::vector<GpuRow>& rows, const GpuReading& reading = {});
std::string render_gpus_csv(const std::vector<GpuRow>& rows, const GpuReading& reading = {});

}  // namespace gd
