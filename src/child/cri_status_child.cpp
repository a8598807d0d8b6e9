#include "child/cri_status_child.h"

#include "child/child_evidence.h"
#include "child/unix_socket.h"
#include "util/byte_order.h"
#include "util/text.h"

#include <boost/json.hpp>

#include <iostream>

namespace gd {
namespace {

// Frame types and flags (RFC 9113 section 6).
constexpr std::uint8_t k_data = 0x0, k_headers = 0x1, k_rst_stream = 0x3, k_settings = 0x4, k_ping = 0x6, k_goaway = 0x7,
                       k_window_update = 0x8;
constexpr std::uint8_t k_end_stream = 0x1, k_ack = 0x1, k_end_headers = 0x4, k_padded = 0x8;

constexpr std::string_view k_preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
// Windows large enough that the server never waits for more: one answer is far below them.
constexpr std::uint32_t k_window = 16u << 20;
constexpr std::size_t k_max_frame = 1u << 24;  // what a 24-bit length can say
constexpr std::size_t k_max_received = 2 * k_max_child_output;

// The call kubelet makes, in CRI v1 (containerd 1.5 and later), then
// v1alpha2 (containerd up to 1.7, which 2.0 dropped).
constexpr std::string_view k_apis[] = {"runtime.v1", "runtime.v1alpha2"};
constexpr std::string_view k_verbose = "\x08\x01";  // StatusRequest{verbose: true}
constexpr std::uint32_t k_info_field = 2;          // StatusResponse.info

void put_u32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xff));
}

// An HPACK string, not Huffman-coded: every one here is shorter than 127 bytes.
void put_string(std::string& block, std::string_view text) {
  block.push_back(static_cast<char>(text.size()));
  block.append(text);
}

// A varint of protobuf's wire format, at most 10 bytes.
std::optional<std::uint64_t> take_varint(std::string_view& bytes) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 70 && !bytes.empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(bytes.front());
    bytes.remove_prefix(1);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
  }
  return std::nullopt;
}

struct ProtoField {
  std::uint32_t number = 0;
  std::string_view bytes;  // a length-delimited field's bytes; empty for the others
};

// The next field of a message; nullopt at its end or where it is damaged.
std::optional<ProtoField> take_field(std::string_view& message) {
  if (message.empty()) return std::nullopt;
  const auto key = take_varint(message);
  if (!key || *key >> 3 == 0 || *key >> 3 > 0xffffffffu) return std::nullopt;
  ProtoField field{.number = static_cast<std::uint32_t>(*key >> 3), .bytes = {}};
  std::size_t skip = 0;
  switch (*key & 7) {
    case 0:
      if (!take_varint(message)) return std::nullopt;
      return field;
    case 1: skip = 8; break;
    case 5: skip = 4; break;
    case 2: {
      const auto length = take_varint(message);
      if (!length || *length > message.size()) return std::nullopt;
      field.bytes = message.substr(0, static_cast<std::size_t>(*length));
      skip = static_cast<std::size_t>(*length);
      break;
    }
    default: return std::nullopt;  // groups: not in this message
  }
  if (skip > message.size()) return std::nullopt;
  message.remove_prefix(skip);
  return field;
}

const boost::json::object* object_at(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value && value->is_object() ? &value->get_object() : nullptr;
}

// One HTTP/2 connection as far as one call needs it.
class Connection {
 public:
  explicit Connection(int fd) : m_fd(fd) {}

  struct Frame {
    std::uint8_t type = 0, flags = 0;
    std::uint32_t stream = 0;
    std::string payload;
  };

  // The next frame; nullopt where the server closed or broke the framing.
  std::optional<Frame> next() {
    std::string head;
    if (!receive_exactly(m_fd, 9, head) || head.size() != 9) {
      m_closed = true;
      return std::nullopt;
    }
    const auto length = static_cast<std::size_t>(load_uint(head, 0, 3, false));  // 24 bits, big-endian
    Frame frame{.type = static_cast<std::uint8_t>(head[3]), .flags = static_cast<std::uint8_t>(head[4]),
                .stream = static_cast<std::uint32_t>(load_uint(head, 5, 4, false)) & 0x7fffffffu, .payload = {}};
    m_received += 9 + length;
    if (length > k_max_frame || m_received > k_max_received || !receive_exactly(m_fd, length, frame.payload) ||
        frame.payload.size() != length || (!m_spoke && frame.type != k_settings)) {
      m_closed = true;  // an HTTP/2 server's first frame is its SETTINGS (RFC 9113 section 3.4)
      return std::nullopt;
    }
    m_spoke = true;
    return frame;
  }

  // A stream's DATA until it ends: its body, or nullopt where the server
  // reset it or the connection ended first.
  std::optional<std::string> body_of(std::uint32_t stream) {
    std::string body;
    while (auto frame = next()) {
      if (frame->type == k_settings && !(frame->flags & k_ack)) {
        if (!send_all(m_fd, http2_frame(k_settings, k_ack, 0, ""))) return std::nullopt;
      } else if (frame->type == k_ping && !(frame->flags & k_ack)) {
        if (!send_all(m_fd, http2_frame(k_ping, k_ack, 0, frame->payload))) return std::nullopt;
      } else if (frame->type == k_goaway) {
        m_closed = true;
        return std::nullopt;
      } else if (frame->stream == stream && frame->type == k_rst_stream) {
        return std::nullopt;
      } else if (frame->stream == stream && frame->type == k_data) {
        std::string_view data = frame->payload;
        if (frame->flags & k_padded) {
          const std::size_t pad = data.empty() ? 0 : static_cast<unsigned char>(data.front());
          if (data.empty() || pad >= data.size()) return std::nullopt;
          data = data.substr(1, data.size() - 1 - pad);
        }
        body.append(data);
        if (frame->flags & k_end_stream) return body;
      } else if (frame->stream == stream && frame->type == k_headers && (frame->flags & k_end_stream)) {
        return body;  // the trailers (or a trailers-only answer: an error)
      }
    }
    return std::nullopt;
  }

  bool spoke() const { return m_spoke; }    // a frame came: an HTTP/2 server
  bool closed() const { return m_closed; }  // it closed, sent GOAWAY, or broke the framing

 private:
  int m_fd;
  std::size_t m_received = 0;
  bool m_spoke = false, m_closed = false;
};

}  // namespace

std::string http2_frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
  std::string frame;
  put_u32(frame, static_cast<std::uint32_t>(payload.size()) << 8 | type);
  frame.push_back(static_cast<char>(flags));
  put_u32(frame, stream & 0x7fffffffu);
  frame.append(payload);
  return frame;
}

std::string grpc_call(std::string_view path, std::string_view message, std::uint32_t stream) {
  // HPACK (RFC 7541): :method POST and :scheme http from the static table,
  // the rest as literals without indexing, so no table state is kept.
  std::string block = "\x83\x86";
  block.push_back('\x04');  // :path (static 4), its value literal
  put_string(block, path);
  block.push_back('\x01');  // :authority (static 1): what gRPC gives a unix socket
  put_string(block, "localhost");
  block.append("\x0f\x10");  // content-type (static 31)
  put_string(block, "application/grpc");
  block.push_back('\x00');
  put_string(block, "te");
  put_string(block, "trailers");
  std::string body(1, '\0');  // not compressed
  put_u32(body, static_cast<std::uint32_t>(message.size()));
  body.append(message);
  return http2_frame(k_headers, k_end_headers, stream, block) + http2_frame(k_data, k_end_stream, stream, body);
}

std::optional<std::string> grpc_first_message(std::string_view body) {
  if (body.size() < 5 || body[0] != '\0') return std::nullopt;
  const auto length = load_uint(body, 1, 4, false);
  if (length > body.size() - 5) return std::nullopt;
  return std::string(body.substr(5, length));
}

std::optional<std::string> protobuf_map_value(std::string_view message, std::uint32_t field, std::string_view key) {
  while (const auto entry = take_field(message)) {
    if (entry->number != field) continue;
    std::string_view pair = entry->bytes;
    std::optional<std::string_view> found_key, value;
    while (const auto part = take_field(pair)) {
      if (part->number == 1) found_key = part->bytes;
      if (part->number == 2) value = part->bytes;
    }
    if (found_key == key) return std::string(value.value_or(""));
  }
  return std::nullopt;
}

std::optional<std::string> cri_config_fields(std::string_view config, std::string_view api) {
  boost::system::error_code error;
  const auto document = boost::json::parse(config, error);
  if (error || !document.is_object()) return std::nullopt;
  const auto& loaded = document.get_object();
  boost::json::object fields;
  fields["API"] = api;
  const auto* containerd = object_at(loaded, "containerd");
  if (const auto* name = containerd ? containerd->if_contains("defaultRuntimeName") : nullptr; name && name->is_string())
    fields["DefaultRuntime"] = *name;
  boost::json::object runtimes;
  if (const auto* listed = containerd ? object_at(*containerd, "runtimes") : nullptr)
    for (const auto& [name, runtime] : *listed) {
      boost::json::object entry;
      if (runtime.is_object()) {
        if (const auto* type = runtime.get_object().if_contains("runtimeType"); type && type->is_string()) entry["type"] = *type;
        const auto* options = object_at(runtime.get_object(), "options");
        if (const auto* binary = options ? options->if_contains("BinaryName") : nullptr; binary && binary->is_string())
          entry["binary"] = *binary;
      }
      runtimes[name] = std::move(entry);
    }
  fields["Runtimes"] = std::move(runtimes);
  if (const auto* cdi = loaded.if_contains("enableCDI"); cdi && cdi->is_bool()) fields["CDI"] = *cdi;
  return boost::json::serialize(fields);
}

int cri_status_child(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::cerr << "usage: cri-status SOCKET\n";
    return 2;
  }
  const std::string& path = args[0];
  const auto fd = connect_unix(path);
  if (!fd) {
    std::cerr << cannot_connect("containerd", path, fd.error()) << "\n";
    return 1;
  }
  std::string opening(k_preface);
  std::string settings;
  settings.append("\x00\x04", 2);  // SETTINGS_INITIAL_WINDOW_SIZE
  put_u32(settings, k_window);
  opening += http2_frame(k_settings, 0, 0, settings);
  std::string increment;
  put_u32(increment, k_window - 65535);  // the connection's window, which SETTINGS does not change
  opening += http2_frame(k_window_update, 0, 0, increment);
  Connection connection(fd->get());
  std::uint32_t stream = 1;
  for (const std::string_view api : k_apis) {
    const std::string call = grpc_call(concat({"/", api, ".RuntimeService/Status"}), k_verbose, stream);
    const bool sent = bool(send_all(fd->get(), stream == 1 ? opening + call : call));
    const auto body = sent ? connection.body_of(stream) : std::nullopt;
    if (!body && !connection.spoke()) {
      std::cerr << "what answered on " << path << " is not a gRPC server\n";
      return 1;
    }
    if (!body && (!sent || connection.closed())) {
      std::cerr << "containerd at " << path << " closed the connection before it answered the CRI status call\n";
      return 1;
    }
    stream += 2;
    const auto message = body ? grpc_first_message(*body) : std::nullopt;
    if (!message) continue;  // refused: an API this containerd does not serve
    const auto config = protobuf_map_value(*message, k_info_field, "config");
    const auto fields = config ? cri_config_fields(*config, api) : std::nullopt;
    if (!fields) {
      std::cerr << "containerd's CRI status at " << path << " holds no configuration\n";
      return 1;
    }
    std::cout << *fields << "\n";
    return 0;
  }
  std::cerr << "containerd at " << path << " serves no CRI runtime service: its CRI plugin is disabled or did not load\n";
  return 3;
}

}  // namespace gd
