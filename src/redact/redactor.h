#pragma once
// What a snapshot to attach must not give away, and the placeholders that
// stand for it: GPU and MIG UUIDs, user names (in home paths and in USER
// and the like), the host name, serial and board part numbers (a USB
// device's SerialNumber in the kernel log too, a PCI device's VPD serial), MAC, IPv4 and IPv6 addresses,
// and credentials (a URL's user and password, a quoted password, auth or token value). Every placeholder has the length of what it replaces, so a
// library's string table (a RUNPATH of /home/alice/...) stays a valid ELF
// file; and the same value always becomes the same placeholder, so a
// CUDA_VISIBLE_DEVICES=GPU-8f3a still names the GPU whose UUID starts so,
// and the diagnosis of the redacted snapshot is the diagnosis of the original.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// Where a text came from decides what in it may be taken for an address:
// a package's version 9.1.0.70 looks like an IPv4 address.
enum class TextOrigin { file, variable, command_output };

class Redactor {
 public:
  // A user whose name appears in paths as PARENT/NAME (home directories).
  void add_user(std::string_view name, std::string_view home_parent = "/home");
  void add_host_name(std::string_view name);

  // origin_name: the file's path or the variable's name.
  std::string redact(std::string_view text, TextOrigin origin, std::string_view origin_name = {});
  // A value that is all of one identity (USER=alice, HOSTNAME=node17).
  std::string redact_variable(std::string_view name, std::string_view value);
  // A path from a directory listing or a link, redacted as a file's text;
  // each UUID replaced in it is remembered, so that original_path finds the
  // file again (a DRA driver's CDI spec is named after its claim's UID).
  std::string redact_path(std::string_view path, std::string_view origin_name);
  // The path the checks asked for, as the recorded system spells it.
  std::string original_path(std::string_view redacted_path) const;

  // "3 GPU or MIG UUIDs", "1 user name"...: what was replaced, never the values.
  std::vector<std::string> summary() const;

 private:
  struct Mapping {
    std::string original, placeholder;
    std::string parent;  // users: the directory their home is in
  };
  std::string name_placeholder(std::string_view prefix, std::size_t length, std::size_t index) const;
  std::string masked(std::string_view kind, std::string_view value);
  void replace_identities(std::string& text);
  std::string redact_text(std::string_view text, TextOrigin origin, std::string_view origin_name, bool remember_uuids);
  void replace_uuids(std::string& text, bool remember);
  void replace_macs(std::string& text);
  void replace_ipv4(std::string& text);
  void replace_ipv6(std::string& text);
  void replace_keyed(std::string& text);
  void replace_credentials(std::string& text);
  std::string masked_credential(std::string_view value);
  void replace_vpd_serials(std::string& text);

  std::vector<Mapping> m_users;
  std::vector<Mapping> m_hosts;
  std::map<std::string, std::set<std::string>, std::less<>> m_seen;           // kind -> distinct values replaced
  std::map<std::string, std::map<std::string, std::string>, std::less<>> m_masks;  // kind -> value -> placeholder
  std::set<std::string, std::less<>> m_unredactable;                          // names too short for a placeholder
  std::map<std::string, std::string, std::less<>> m_uuids_in_paths;          // placeholder -> the UUID it stands for
};

}  // namespace gd
