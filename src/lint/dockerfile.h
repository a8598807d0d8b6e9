#pragma once
// A Dockerfile read as BuildKit reads it: parser directives (# syntax=,
// # escape=), line continuations with the escape character, comment lines
// inside a continued instruction dropped, heredocs (RUN <<EOF ... EOF)
// kept with their instruction, ARG values substituted into FROM, and the
// stages of a multi-stage build. Any bytes in; bounded; never throws.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct Instruction {
  std::string keyword;  // upper case: FROM, RUN, ENV, COPY, ...
  std::string text;     // the arguments, continuations joined with a space, heredoc bodies appended
  std::size_t line = 0;  // where it starts, 1-based
  std::size_t stage = 0;  // which FROM it belongs to (0 before the first)
};

struct Stage {
  std::string base;  // the image, ARGs substituted: "nvidia/cuda:12.4.1-runtime-ubuntu22.04"
  std::optional<std::string> name;  // AS name
  std::size_t line = 0;
};

struct Dockerfile {
  std::vector<Instruction> instructions;
  std::vector<Stage> stages;
  std::vector<std::string> problems;  // what could not be read, said
};

inline constexpr std::size_t k_max_dockerfile = 4 << 20;

Dockerfile parse_dockerfile(std::string_view text);

// ${NAME}, $NAME and ${NAME:-default} from the given name=value pairs.
std::string substitute_args(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args);

}  // namespace gd
