#pragma once
// What a child that asked a daemon on its socket (dockerd's GET /info,
// containerd's CRI status) answered, read the same way for each daemon: why
// there is no answer, and the runtime names it listed.

#include "child/child_evidence.h"

#include <boost/json/fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// The child's own words where it gave some (the first line it wrote to
// stderr, escaped), else `what`.
std::string child_words_or(const ChildAnswer& answer, std::string_view what);

// Why the child gave no answer: not asked (a replay without it), late
// (`late` says so), or an exit other than 0; nullopt where it exited 0.
std::optional<std::string> daemon_unanswered(const ChildAnswer& answer, std::string_view late);

// `name`, escaped, added to `names` where they hold fewer than 32; false
// where they are full, and the rest of a daemon's runtimes are cut.
bool add_runtime_name(std::string_view name, std::vector<std::string>& names);

// The names of `listed`'s members (an object: NAME -> runtime), escaped, at
// most 32, into `names`; true where there were more.
bool runtime_names(const boost::json::value* listed, std::vector<std::string>& names);

}  // namespace gd
