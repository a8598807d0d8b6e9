// libFuzzer target: any bytes as snapshot.json. A bad snapshot is a
// SnapshotError, never a crash.
#include "snapshot/snapshot.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    gd::parse_snapshot(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const gd::SnapshotError&) {
  }
  return 0;
}
