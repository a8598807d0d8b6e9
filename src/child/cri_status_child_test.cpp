#include "child/cri_status_child.h"

#include <doctest/doctest.h>

#include <string>

using namespace std::string_literals;

namespace {

// A protobuf length-delimited field, its length below 128.
std::string field(int number, const std::string& bytes) {
  return std::string(1, static_cast<char>(number << 3 | 2)) + static_cast<char>(bytes.size()) + bytes;
}

}  // namespace

TEST_CASE("an HTTP/2 frame: 24 bits of length, its type, its flags, the stream without its reserved bit") {
  CHECK(gd::http2_frame(0x4, 0x1, 0, "") == "\0\0\0\x04\x01\0\0\0\0"s);
  CHECK(gd::http2_frame(0x0, 0x1, 0x80000003u, "ab") == "\0\0\x02\0\x01\0\0\0\x03"s + "ab");
}

TEST_CASE("one unary gRPC call: its headers as HPACK literals, then the message with its 5-byte prefix") {
  const std::string call = gd::grpc_call("/runtime.v1.RuntimeService/Status", "\x08\x01", 1);
  const std::string block = "\x83\x86\x04\x21/runtime.v1.RuntimeService/Status\x01\x09localhost\x0f\x10\x10" "application/grpc\x00\x02te\x08trailers"s;
  CHECK(call == gd::http2_frame(0x1, 0x4, 1, block) + gd::http2_frame(0x0, 0x1, 1, "\0\0\0\0\x02\x08\x01"s));
}

TEST_CASE("a gRPC response body's first message; none where it is short, compressed or cut") {
  CHECK(gd::grpc_first_message("\0\0\0\0\x03" "abcdef"s) == "abc");
  CHECK(gd::grpc_first_message("\0\0\0\0\0"s) == "");
  CHECK_FALSE(gd::grpc_first_message(""));
  CHECK_FALSE(gd::grpc_first_message("\x01\0\0\0\x01x"s));
  CHECK_FALSE(gd::grpc_first_message("\0\0\0\0\x09short"s));
  CHECK_FALSE(gd::grpc_first_message("\0\xff\xff\xff\xffx"s));
}

TEST_CASE("a protobuf map<string,string>'s value, past other fields of every wire type") {
  const std::string info = field(1, field(1, "\x08\x01"s)) +                              // status: a message
                           "\x18\x96\x01"s +                                               // a varint field
                           "\x21\x01\x02\x03\x04\x05\x06\x07\x08"s +                       // a 64-bit field
                           field(2, field(1, "golang") + field(2, "go1.22")) +             // info["golang"]
                           field(2, field(2, "{\"a\":1}") + field(1, "config"));           // info["config"], value first
  CHECK(gd::protobuf_map_value(info, 2, "config") == "{\"a\":1}");
  CHECK(gd::protobuf_map_value(info, 2, "golang") == "go1.22");
  CHECK_FALSE(gd::protobuf_map_value(info, 2, "absent"));
  CHECK_FALSE(gd::protobuf_map_value(info, 3, "config"));
  // Damaged: a length past the end, a varint that never ends, a group.
  CHECK_FALSE(gd::protobuf_map_value("\x12\x40" + field(1, "config"), 2, "config"));
  CHECK_FALSE(gd::protobuf_map_value("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"s, 2, "config"));
  CHECK_FALSE(gd::protobuf_map_value("\x0b" + field(2, field(1, "config")), 2, "config"));
}

TEST_CASE("the CRI plugin's configuration: its runtimes, default and CDI, and nothing else (registry credentials)") {
  const auto fields = gd::cri_config_fields(
      R"({"containerd":{"snapshotter":"overlayfs","defaultRuntimeName":"nvidia","runtimes":{)"
      R"("nvidia":{"runtimeType":"io.containerd.runc.v2","options":{"BinaryName":"/usr/bin/nvidia-container-runtime","SystemdCgroup":true}},)"
      R"("runc":{"runtimeType":"io.containerd.runc.v2","options":null},"odd":7}},)"
      R"("registry":{"configs":{"r.example":{"auth":{"username":"u","password":"hunter2"}}}},"enableCDI":true})",
      "runtime.v1");
  REQUIRE(fields);
  CHECK(*fields == R"({"API":"runtime.v1","DefaultRuntime":"nvidia","Runtimes":{"nvidia":{"type":"io.containerd.runc.v2",)"
                   R"("binary":"/usr/bin/nvidia-container-runtime"},"runc":{"type":"io.containerd.runc.v2"},"odd":{}},"CDI":true})");
  CHECK(fields->find("hunter2") == std::string::npos);
  CHECK(gd::cri_config_fields("{}", "runtime.v1alpha2") == R"({"API":"runtime.v1alpha2","Runtimes":{}})");
  CHECK_FALSE(gd::cri_config_fields("[1]", "runtime.v1"));
  CHECK_FALSE(gd::cri_config_fields("not json", "runtime.v1"));
}
