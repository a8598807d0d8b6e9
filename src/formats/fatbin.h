#pragma once
// The GPU code a library or program carries: the fat binaries of its
// .nv_fatbin section (nvcc's container: a 16-byte header, then entries of
// PTX or SASS, each with its architecture), read header by header — never
// the payloads, so a 900 MB libtorch_cuda costs a few thousand small reads.
// Compressed entries are listed like the others; nothing is decompressed.

#include "host/host.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gd {

struct FatbinContents {
  bool has_fatbin = false;         // a .nv_fatbin section was there
  std::set<int> sass;              // 90 for sm_90: machine code for that architecture
  std::map<int, std::string> ptx;  // 90 -> "8.4": PTX for compute_90, and its PTX ISA version (the newest seen)
  // Code built for one architecture only ('a': sm_90a runs on 9.0 and
  // nothing else, compute_90a JIT-compiles for 9.0 only) and for a family
  // ('f': sm_100f and compute_100f serve the 10.x family), kept apart from
  // the portable code above; nvcc marks them with entry flags 0x100000 and 0x200000.
  std::set<int> sass_specific, sass_family;
  std::map<int, std::string> ptx_specific, ptx_family;
  std::size_t containers = 0, entries = 0, compressed_entries = 0;
  std::vector<std::string> problems;  // damaged headers, caps reached: said, not thrown
};

inline constexpr std::size_t k_max_fatbin_entries = 200000;
inline constexpr std::size_t k_max_fatbin_containers = 50000;

FatbinContents read_fatbin(Files& files, const std::string& path);

// The architecture as CUDA writes it: 90 -> "9.0", 120 -> "12.0".
std::string compute_capability_of(int arch);

}  // namespace gd
