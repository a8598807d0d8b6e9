#pragma once
// What Triton needs at its first compile (torch.compile, vLLM's kernels),
// worked out the way Triton itself does it: libcuda.so.1 through
// `ldconfig -p` (the ld.so.cache), else LD_LIBRARY_PATH, or
// TRITON_LIBCUDA_PATH; a C compiler (CC, gcc, clang); and a libcuda.so
// for its -lcuda in those directories, LIBRARY_PATH or the linker's own.

#include "facts/application_facts.h"
#include "probes/probe_context.h"

#include <optional>
#include <string>

namespace gd {

TritonFacts check_triton(ProbeContext& context, const std::string& version, const std::string& site);

}  // namespace gd
