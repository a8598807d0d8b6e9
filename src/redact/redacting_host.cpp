#include "redact/redacting_host.h"

namespace gd {

RedactingHost::RedactingHost(Host& wrapped) : ForwardingHost(wrapped) {
  if (auto homes = inner().list_dir("/home"))
    for (const auto& name : *homes) m_redactor.add_user(name);
  for (const char* variable : {"USER", "LOGNAME", "SUDO_USER"})
    if (auto name = inner().env(variable)) m_redactor.add_user(*name);
  if (auto home = inner().env("HOME"); home && home->size() > 1 && home->front() == '/') {
    const auto slash = home->find_last_of('/');
    if (slash > 0 && slash + 1 < home->size()) m_redactor.add_user(home->substr(slash + 1), home->substr(0, slash));
  }
  if (auto name = inner().env("HOSTNAME")) m_redactor.add_host_name(*name);
  for (const char* file : {"/proc/sys/kernel/hostname", "/etc/hostname"})
    if (auto name = inner().read_file(file, 256)) m_redactor.add_host_name(*name);
}

Result<std::string> RedactingHost::read_file(std::string_view path, std::size_t max_bytes) {
  auto content = inner().read_file(m_redactor.original_path(path), max_bytes);
  if (!content) return content;
  return m_redactor.redact(*content, TextOrigin::file, path);
}

Result<std::string> RedactingHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  auto content = inner().read_range(m_redactor.original_path(path), offset, size);
  if (!content) return content;
  return m_redactor.redact(*content, TextOrigin::file, path);
}

Result<std::vector<std::string>> RedactingHost::list_dir(std::string_view path) {
  const std::string original = m_redactor.original_path(path);
  auto names = inner().list_dir(original);
  if (!names) return names;
  // A name is redacted as the last component of its path (a home directory
  // is a user name only below /home); placeholders keep lengths, so it
  // stays where it was.
  const std::string prefix = original == "/" ? "/" : original + "/";
  for (auto& name : *names) name = m_redactor.redact_path(prefix + name, prefix + name).substr(prefix.size());
  return names;
}

Result<std::string> RedactingHost::read_link(std::string_view path) {
  auto target = inner().read_link(m_redactor.original_path(path));
  if (!target) return target;
  return m_redactor.redact_path(*target, path);
}

Result<FileStat> RedactingHost::stat(std::string_view path) { return inner().stat(m_redactor.original_path(path)); }

Result<DeviceNode> RedactingHost::device(std::string_view path) { return inner().device(m_redactor.original_path(path)); }

// The kernel's messages, redacted as dmesg's answer is.
Result<Records> RedactingHost::read_records(std::string_view path, std::size_t max_bytes) {
  auto records = inner().read_records(m_redactor.original_path(path), max_bytes);
  if (records) records->text = m_redactor.redact(records->text, TextOrigin::command_output);
  return records;
}

std::optional<std::string> RedactingHost::env(std::string_view name) {
  auto value = inner().env(name);
  if (!value) return value;
  return m_redactor.redact_variable(name, *value);
}

std::vector<std::pair<std::string, std::string>> RedactingHost::env_with_prefix(std::string_view prefix) {
  auto found = inner().env_with_prefix(prefix);
  for (auto& [name, value] : found) value = m_redactor.redact_variable(name, value);
  return found;
}

Uname RedactingHost::uname() {
  Uname uname = inner().uname();
  uname.version = m_redactor.redact(uname.version, TextOrigin::command_output);
  return uname;
}

ChildRequest RedactingHost::original_request(const ChildRequest& request) const {
  ChildRequest original = request;
  for (auto& arg : original.args) arg = m_redactor.original_path(arg);
  return original;
}

void RedactingHost::ask_ahead(const ChildRequest& request) { inner().ask_ahead(original_request(request)); }

ChildAnswer RedactingHost::ask(const ChildRequest& request) {
  ChildAnswer answer = inner().ask(original_request(request));
  answer.output = m_redactor.redact(answer.output, TextOrigin::command_output);
  answer.error_output = m_redactor.redact(answer.error_output, TextOrigin::command_output);
  return answer;
}

}  // namespace gd
