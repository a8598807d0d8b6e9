#pragma once
// A Host whose answers are redacted (see Redactor): `gpudoctor snapshot`
// records through it, so nothing identifying ever reaches the disk, and the
// report it writes is the redacted machine's report. Paths the checks ask
// for are mapped back to the recorded system's own before the inner host
// answers. Who to hide (users, the host name) is learned once, up front,
// from /home, HOME, USER and the host name files, so that the first answer
// is redacted like the last.

#include "host/forwarding_host.h"
#include "redact/redactor.h"

namespace gd {

class RedactingHost final : public ForwardingHost {
 public:
  explicit RedactingHost(Host& wrapped);

  std::optional<std::vector<std::string>> redactions() const override { return m_redactor.summary(); }

  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override;
  Result<std::vector<std::string>> list_dir(std::string_view path) override;
  Result<std::string> read_link(std::string_view path) override;
  Result<FileStat> stat(std::string_view path) override;
  Result<DeviceNode> device(std::string_view path) override;
  Result<Records> read_records(std::string_view path, std::size_t max_bytes) override;
  std::optional<std::string> env(std::string_view name) override;
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override;
  Uname uname() override;
  ChildAnswer ask(const ChildRequest& request) override;
  void ask_ahead(const ChildRequest& request) override;

 private:
  ChildRequest original_request(const ChildRequest& request) const;  // paths asked with the real names
  Redactor m_redactor;
};

}  // namespace gd
