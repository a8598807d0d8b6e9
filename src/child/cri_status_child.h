#pragma once
// `gpudoctor __child cri-status SOCKET`: the CRI runtime service's Status
// call, verbose, on containerd's socket: what `crictl info` asks, and what
// the kubelet asks before each pod. The answer's info["config"] is the
// configuration the CRI plugin loaded when containerd started (containerd
// has no reload), which may not be what its files say now. gRPC over
// HTTP/2, spoken here as far as one call needs: no header is decoded (a
// stream that ends without a message is a refused call), and nothing of the
// configuration is passed on but the runtimes, the default and CDI (never
// the registries' credentials it also holds).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// One HTTP/2 frame (RFC 9113 section 4.1), header and payload.
std::string http2_frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream, std::string_view payload);

// The HEADERS and DATA frames of one unary gRPC call with `message` as its
// request, on `stream` (odd: the client's).
std::string grpc_call(std::string_view path, std::string_view message, std::uint32_t stream);

// The first message of a gRPC response body (5 bytes of prefix, then the
// message); nullopt where the body holds none, or a compressed one.
std::optional<std::string> grpc_first_message(std::string_view body);

// The value of `key` in a protobuf map<string,string> at field `field` of `message`.
std::optional<std::string> protobuf_map_value(std::string_view message, std::uint32_t field, std::string_view key);

// {"API":...,"DefaultRuntime":...,"Runtimes":{NAME:{"type":...,"binary":...}},"CDI":...}
// from info["config"] (the CRI plugin's configuration as JSON: crictl info's
// "config"); nullopt where it is not a JSON object.
std::optional<std::string> cri_config_fields(std::string_view config, std::string_view api);

// args: SOCKET. Exit 0 with the fields on stdout; 1 where containerd could
// not be reached or did not speak gRPC, 3 where it answered without a CRI
// runtime service (its CRI plugin disabled or not loaded); the reason on stderr.
int cri_status_child(const std::vector<std::string>& args);

}  // namespace gd
