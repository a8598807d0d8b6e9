#pragma once
// A Host that passes every question on to another: the base of the
// decorators (RecordingHost, RedactingHost), which override only what they
// change, so that the list of the seam's methods is written once here.

#include "host/host.h"

namespace gd {

class ForwardingHost : public Host {
 public:
  explicit ForwardingHost(Host& inner) : m_inner(inner) {}

  HostMode mode() const override { return m_inner.mode(); }
  std::optional<std::vector<std::string>> redactions() const override { return m_inner.redactions(); }
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override {
    return m_inner.read_file(path, max_bytes);
  }
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override {
    return m_inner.read_range(path, offset, size);
  }
  Result<std::vector<std::string>> list_dir(std::string_view path) override { return m_inner.list_dir(path); }
  Result<std::string> read_link(std::string_view path) override { return m_inner.read_link(path); }
  Result<FileStat> stat(std::string_view path) override { return m_inner.stat(path); }
  Result<DeviceNode> device(std::string_view path) override { return m_inner.device(path); }
  Result<Records> read_records(std::string_view path, std::size_t max_bytes) override {
    return m_inner.read_records(path, max_bytes);
  }
  std::optional<std::string> env(std::string_view name) override { return m_inner.env(name); }
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override {
    return m_inner.env_with_prefix(prefix);
  }
  Uname uname() override { return m_inner.uname(); }
  UserIds user() override { return m_inner.user(); }
  ChildAnswer ask(const ChildRequest& request) override { return m_inner.ask(request); }
  void ask_ahead(const ChildRequest& request) override { m_inner.ask_ahead(request); }
  // open_session is not passed on: a decorator sees every answer through ask().

 protected:
  Host& inner() const { return m_inner; }

 private:
  Host& m_inner;
};

}  // namespace gd
