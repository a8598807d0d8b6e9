#include "host/live_host.h"
#include "child/cri_status_child.h"

#include "test_support/temp_dir.h"
#include "util/unique_fd.h"

#include <doctest/doctest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>
#include <thread>

using namespace std::chrono_literals;

TEST_CASE("under --root, paths resolve inside the root and devices are not opened") {
  gd::TempDir root;
  root.write("proc/driver/nvidia/version", "NVRM version: 550.54.15\n");
  root.symlink("etc/alternatives/nvidia", "/proc/driver/nvidia");
  root.write("dev/nvidiactl", "");  // an image that carries a plain file where a node should be
  gd::LiveHost host(root.path());
  CHECK(host.mode() == gd::HostMode::root);
  CHECK(host.read_file("/etc/alternatives/nvidia/version", 100).value() == "NVRM version: 550.54.15\n");
  CHECK(host.read_file("/../../../proc/driver/nvidia/version", 100).has_value());
  const auto node = host.device("/dev/nvidiactl").value();
  CHECK(node.type == gd::FileType::regular);
  // The image's programs are never run, nor its nodes opened.
  CHECK(host.ask({gd::ChildKind::command, {"true"}, 1s}).error == "ENOSYS");
  CHECK(host.ask({gd::ChildKind::device_open, {"/dev/nvidiactl"}, 1s}).error == "ENOSYS");
}

TEST_CASE("read_file refuses what is not a regular file, without blocking") {
  gd::TempDir root;
  REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);
  root.mkdir("dir");
  gd::LiveHost host(root.path());
  CHECK(host.read_file("/fifo", 100).error().value() == EINVAL);
  CHECK(host.read_file("/dir", 100).error().value() == EISDIR);
  CHECK(host.read_file("/missing", 100).error().value() == ENOENT);
  gd::LiveHost live;  // the same without --root
  CHECK(live.read_file(root / "fifo", 100).error().value() == EINVAL);
  CHECK(live.read_file(root / "dir", 100).error().value() == EISDIR);
}

TEST_CASE("the live host stats a device without opening it") {
  gd::LiveHost host;
  CHECK(host.mode() == gd::HostMode::live);
  const auto null_device = host.device("/dev/null").value();
  CHECK(null_device.type == gd::FileType::char_device);
  CHECK(null_device.major == 1);
  CHECK(host.device("/dev/gpudoctor-no-such-node").error().value() == ENOENT);
}

TEST_CASE("children asked ahead run at once, side by side, and each answers its own ask") {
  gd::TempDir dir;
  const std::string mark = dir / "started";
  gd::LiveHost host;
  // The first waits for a file only the second makes: asked one after the other, it would wait out its deadline.
  const gd::ChildRequest waiting{gd::ChildKind::command, {"sh", "-c", "until [ -e " + mark + " ]; do sleep 0.01; done; echo waited; exit 3"}, 5s};
  const gd::ChildRequest marking{gd::ChildKind::command, {"sh", "-c", "touch " + mark + "; sleep 0.3; echo marked"}, 5s};
  host.ask_ahead(waiting);
  host.ask_ahead(marking);
  host.ask_ahead(marking);  // asked ahead twice: started once
  const auto first = host.ask(waiting);
  CHECK_FALSE(first.timed_out);
  CHECK(first.output == "waited\n");
  CHECK(first.exit == 3);
  // The first has ended while the second still runs: its end stops nothing of the second's.
  const auto second = host.ask(marking);
  CHECK(second.output == "marked\n");
  CHECK(second.exit == 0);
  CHECK_FALSE(second.signal);
  // Taken once: asked again, it runs again.
  CHECK(host.ask({gd::ChildKind::command, {"sh", "-c", "echo again"}, 5s}).output == "again\n");
}

TEST_CASE("a child asked ahead is held to a shorter deadline asked later, counted from its start") {
  gd::LiveHost host;
  host.ask_ahead({gd::ChildKind::command, {"sleep", "5"}, 20s});
  const auto started = std::chrono::steady_clock::now();
  const auto answer = host.ask({gd::ChildKind::command, {"sleep", "5"}, 300ms});
  CHECK(answer.timed_out);
  CHECK(std::chrono::steady_clock::now() - started < 2s);
}

TEST_CASE("under --root nothing is asked ahead either") {
  gd::TempDir root;
  gd::LiveHost host(root.path());
  host.ask_ahead({gd::ChildKind::command, {"true"}, 1s});
  CHECK(host.ask({gd::ChildKind::command, {"true"}, 1s}).error == "ENOSYS");
}

namespace {

// A listening unix socket at `path`.
gd::UniqueFd listen_at(const std::string& path) {
  gd::UniqueFd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size());
  REQUIRE(::bind(listener.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(listener.get(), 1) == 0);
  return listener;
}

// A daemon that answers one HTTP request on `listener` as Go's net/http
// answers an HTTP/1.0 one: `answer`, then the connection closed. What was
// asked is in `request` once the thread is joined.
std::thread answer_http_once(const gd::UniqueFd& listener, std::string answer, std::string& request) {
  return std::thread([&listener, answer = std::move(answer), &request] {
    const gd::UniqueFd connection(::accept(listener.get(), nullptr, nullptr));
    char buffer[512];
    while (request.find("\r\n\r\n") == std::string::npos) {
      const ssize_t got = ::recv(connection.get(), buffer, sizeof buffer, 0);
      if (got <= 0) break;
      request.append(buffer, static_cast<std::size_t>(got));
    }
    (void)::send(connection.get(), answer.data(), answer.size(), MSG_NOSIGNAL);
  });
}

}  // namespace

TEST_CASE("a docker-api child asks dockerd's socket GET /info and passes on only the fields gpudoctor reads") {
  gd::TempDir dir;
  const std::string path = dir / "docker.sock";
  const auto listener = listen_at(path);
  // dockerd's side: the body until it closes.
  std::string request;
  std::thread daemon = answer_http_once(listener,
                                        "HTTP/1.0 200 OK\r\nApi-Version: 1.41\r\nContent-Type: application/json\r\n\r\n"
                                        R"({"Name":"gpu-node-17","ServerVersion":"20.10.24","DefaultRuntime":"runc","Runtimes":{"runc":{"path":"runc"}}})"
                                        "\n",
                                        request);
  gd::LiveHost host;
  const auto answer = host.ask({gd::ChildKind::docker_api, {path}, 5s});
  daemon.join();
  CHECK(request.starts_with("GET /info HTTP/1.0\r\n"));
  CHECK(answer.exit == 0);
  CHECK(answer.output == R"({"ServerVersion":"20.10.24","DefaultRuntime":"runc","Runtimes":{"runc":{"path":"runc"}}})"
                         "\n");
  // Nothing listens: the child says why, in words a report can show.
  const auto nobody = host.ask({gd::ChildKind::docker_api, {dir / "absent.sock"}, 5s});
  CHECK(nobody.exit == 1);
  CHECK(nobody.error_output == "cannot connect to dockerd at " + (dir / "absent.sock") + ": no such file or directory (ENOENT)\n");
}

TEST_CASE("a crio-config child asks crio's socket GET /config and passes on only the lines gpudoctor reads") {
  gd::TempDir dir;
  const std::string path = dir / "crio.sock";
  const auto listener = listen_at(path);
  // crio's side, behind cmux: the configuration as BurntSushi/toml encodes it.
  std::string request;
  std::thread daemon = answer_http_once(
      listener,
      "HTTP/1.0 200 OK\r\nContent-Type: application/toml\r\n\r\n"
      "[crio]\n  root = \"/var/lib/containers/storage\"\n  [crio.runtime]\n    default_runtime = \"crun\"\n"
      "    default_env = [\"HTTPS_PROXY=http://u:pw@proxy:3128\"]\n    [crio.runtime.runtimes]\n"
      "      [crio.runtime.runtimes.crun]\n        runtime_path = \"/usr/libexec/crio/crun\"\n        monitor_path = \"/usr/libexec/crio/conmon\"\n",
      request);
  gd::LiveHost host;
  const auto answer = host.ask({gd::ChildKind::crio_config, {path}, 5s});
  daemon.join();
  CHECK(request.starts_with("GET /config HTTP/1.0\r\n"));
  CHECK(answer.exit == 0);
  CHECK(answer.output == "[crio.runtime]\ndefault_runtime = \"crun\"\n[crio.runtime.runtimes.crun]\nruntime_path = \"/usr/libexec/crio/crun\"\n");
  const auto nobody = host.ask({gd::ChildKind::crio_config, {dir / "absent.sock"}, 5s});
  CHECK(nobody.exit == 1);
  CHECK(nobody.error_output == "cannot connect to crio at " + (dir / "absent.sock") + ": no such file or directory (ENOENT)\n");
}

namespace {

// What the client sent, read frame by frame after the preface until a frame on
// `stream` ends it; the paths its HEADERS named are in the bytes kept.
bool read_call(int fd, std::uint32_t stream, std::string& seen) {
  char buffer[4096];
  while (true) {
    // Frames start after the 24-byte preface; walk them.
    std::size_t at = 24;
    while (seen.size() >= at + 9) {
      const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(seen[at + i]); };
      const std::size_t length = byte(0) << 16 | byte(1) << 8 | byte(2);
      if (seen.size() < at + 9 + length) break;
      const std::uint32_t id = (byte(5) & 0x7f) << 24 | byte(6) << 16 | byte(7) << 8 | byte(8);
      if (id == stream && byte(3) == 0 && (byte(4) & 1)) return true;
      at += 9 + length;
    }
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) return false;
    seen.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace

TEST_CASE("a cri-status child speaks gRPC to containerd's socket: CRI v1, then v1alpha2 where v1 is refused") {
  gd::TempDir dir;
  const std::string path = dir / "containerd.sock";
  const auto listener = listen_at(path);
  const std::string config = R"({"containerd":{"defaultRuntimeName":"runc","runtimes":{"runc":{"runtimeType":"io.containerd.runc.v2"}}}})";
  // StatusResponse{info: {"config": CONFIG}}, as gRPC frames it: 5 bytes of prefix.
  const std::string entry = std::string("\x0a\x06") + "config" + "\x12" + static_cast<char>(config.size()) + config;
  const std::string message = "\x12" + std::string(1, static_cast<char>(entry.size())) + entry;
  std::string body(1, '\0');
  body += std::string("\0\0\0", 3) + static_cast<char>(message.size()) + message;
  std::string seen;
  std::thread daemon([&] {
    const gd::UniqueFd connection(::accept(listener.get(), nullptr, nullptr));
    // As containerd 1.4 would: v1 is an unknown service (a trailers-only answer), v1alpha2 answers.
    if (!read_call(connection.get(), 1, seen)) return;
    const std::string refuse = gd::http2_frame(0x4, 0, 0, "") + gd::http2_frame(0x1, 0x5, 1, "\x88");
    (void)::send(connection.get(), refuse.data(), refuse.size(), MSG_NOSIGNAL);
    if (!read_call(connection.get(), 3, seen)) return;
    const std::string answer = gd::http2_frame(0x1, 0x4, 3, "\x88") + gd::http2_frame(0x0, 0, 3, body) + gd::http2_frame(0x1, 0x5, 3, "\x40");
    (void)::send(connection.get(), answer.data(), answer.size(), MSG_NOSIGNAL);
  });
  gd::LiveHost host;
  const auto answer = host.ask({gd::ChildKind::cri_status, {path}, 5s});
  daemon.join();
  CHECK(seen.starts_with("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
  CHECK(seen.find("/runtime.v1.RuntimeService/Status") < seen.find("/runtime.v1alpha2.RuntimeService/Status"));
  CHECK(answer.exit == 0);
  CHECK(answer.output == R"({"API":"runtime.v1alpha2","DefaultRuntime":"runc","Runtimes":{"runc":{"type":"io.containerd.runc.v2"}}})"
                         "\n");
}

TEST_CASE("a cri-status child tells a containerd without CRI, a socket nobody listens on and a server that is not gRPC apart") {
  gd::TempDir dir;
  gd::LiveHost host;
  // containerd with its CRI plugin disabled: every call is an unknown service.
  const std::string path = dir / "containerd.sock";
  const auto listener = listen_at(path);
  std::thread daemon([&] {
    const gd::UniqueFd connection(::accept(listener.get(), nullptr, nullptr));
    std::string seen;
    for (std::uint32_t stream : {1u, 3u}) {
      if (!read_call(connection.get(), stream, seen)) return;
      const std::string refuse = (stream == 1 ? gd::http2_frame(0x4, 0, 0, "") : "") + gd::http2_frame(0x1, 0x5, stream, "\x88");
      (void)::send(connection.get(), refuse.data(), refuse.size(), MSG_NOSIGNAL);
    }
  });
  const auto no_cri = host.ask({gd::ChildKind::cri_status, {path}, 5s});
  daemon.join();
  CHECK(no_cri.exit == 3);
  CHECK(no_cri.error_output == "containerd at " + path + " serves no CRI runtime service: its CRI plugin is disabled or did not load\n");
  const auto nobody = host.ask({gd::ChildKind::cri_status, {dir / "absent.sock"}, 5s});
  CHECK(nobody.exit == 1);
  CHECK(nobody.error_output == "cannot connect to containerd at " + (dir / "absent.sock") + ": no such file or directory (ENOENT)\n");
  // An HTTP/1 server closes on the preface without a frame.
  const std::string web = dir / "web.sock";
  const auto web_listener = listen_at(web);
  std::thread server([&] {
    const gd::UniqueFd connection(::accept(web_listener.get(), nullptr, nullptr));
    const std::string bad = "HTTP/1.1 400 Bad Request\r\n\r\n";
    (void)::send(connection.get(), bad.data(), bad.size(), MSG_NOSIGNAL);
  });
  const auto not_grpc = host.ask({gd::ChildKind::cri_status, {web}, 5s});
  server.join();
  CHECK(not_grpc.exit == 1);
  CHECK(not_grpc.error_output == "what answered on " + web + " is not a gRPC server\n");
}
