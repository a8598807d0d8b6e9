#pragma once
// `gpudoctor __child docker-api SOCKET`: GET /info from dockerd on its unix
// socket, the request `docker info` makes, without the docker command's
// start-up (about 25 ms of its 30) and whatever DOCKER_HOST or a context
// would point it at. It prints the fields gpudoctor reads, in the shape
// `docker info --format` gives them, and none of the rest (the host's
// name, its proxies, its labels).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// {"ServerVersion":...,"DefaultRuntime":...,"Runtimes":{NAME:{"path":...}}}
// from GET /info's body; nullopt where the body is not a JSON object.
std::optional<std::string> docker_info_fields(std::string_view body);

// args: SOCKET. Exit 0 with the fields on stdout; 1 with the reason on stderr.
int docker_api_child(const std::vector<std::string>& args);

}  // namespace gd
