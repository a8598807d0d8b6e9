#include "probes/module_signing.h"

#include "util/text.h"

namespace gd {
namespace {

// Where each signer keeps its public key (DER): DKMS 3 (Debian, Ubuntu from
// 23.10), Ubuntu's update-secureboot-policy, Fedora's akmods / kmodtool.
constexpr const char* k_key_files[] = {"/var/lib/dkms/mok.pub", "/var/lib/shim-signed/mok/MOK.der",
                                       "/etc/pki/akmods/certs/public_key.der"};
// Lists of trusted certificates: shim's MokListRT (mirrored to sysfs from
// 5.10, always in efivarfs with 4 bytes of attributes first) and the UEFI db.
constexpr const char* k_trust_lists[] = {"/sys/firmware/efi/mok-variables/MokListRT",
                                         "/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23",
                                         "/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"};
constexpr std::size_t k_max_key = 16 * 1024;
constexpr std::size_t k_max_list = 1024 * 1024;  // a db with hundreds of certificates stays far below

}  // namespace

std::vector<SigningKey> find_signing_keys(Files& files) {
  std::vector<SigningKey> keys;
  std::vector<std::string> lists;
  bool mok_list_read = false;
  for (const char* path : k_trust_lists)
    if (auto list = files.read_file(path, k_max_list)) {
      mok_list_read = mok_list_read || contains(path, "MokListRT");
      lists.push_back(std::move(*list));
    }
  for (const char* path : k_key_files) {
    auto key = files.read_file(path, k_max_key);
    if (!key) continue;
    SigningKey found{path, std::nullopt};
    // A DER certificate starts with a SEQUENCE (0x30); a PEM one would have to be decoded first.
    if (!key->empty() && static_cast<unsigned char>((*key)[0]) == 0x30) {
      bool listed = false;
      for (const auto& list : lists) listed = listed || list.find(*key) != std::string::npos;
      // Not in any list counts only where shim's own list was read: without it, nothing says shim is in use.
      if (listed) found.enrolled = true;
      else if (mok_list_read) found.enrolled = false;
    }
    keys.push_back(std::move(found));
  }
  return keys;
}

std::optional<bool> some_key_enrolled(const std::vector<SigningKey>& keys) {
  bool unknown = false;
  for (const auto& key : keys) {
    if (key.enrolled == true) return true;
    unknown = unknown || !key.enrolled;
  }
  if (keys.empty() || unknown) return std::nullopt;
  return false;
}

}  // namespace gd
