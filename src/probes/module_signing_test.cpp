#include "probes/module_signing.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

using namespace std::string_literals;

namespace {

const std::string k_dkms_der = "\x30\x82\x03\x1a" "DKMS module signing key"s;
const std::string k_mok_efivar = "/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23";

}  // namespace

TEST_CASE("signing keys: enrolled where MokListRT or db holds the certificate's bytes") {
  gd::FakeHost host;
  host.file("/var/lib/dkms/mok.pub", k_dkms_der);
  host.file(k_mok_efivar, "\x07\0\0\0"s + "list header" + k_dkms_der + "more");
  auto keys = gd::find_signing_keys(host);
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].path == "/var/lib/dkms/mok.pub");
  CHECK(keys[0].enrolled == true);

  gd::FakeHost in_db;
  in_db.file("/etc/pki/akmods/certs/public_key.der", k_dkms_der);
  in_db.file(k_mok_efivar, "\x07\0\0\0 another certificate"s);
  in_db.file("/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f", "\x07\0\0\0"s + k_dkms_der);
  keys = gd::find_signing_keys(in_db);
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].enrolled == true);
}

TEST_CASE("signing keys: not enrolled only where shim's list was read; PEM keys and no list say nothing") {
  gd::FakeHost missing;
  missing.file("/var/lib/dkms/mok.pub", k_dkms_der);
  missing.file("/sys/firmware/efi/mok-variables/MokListRT", "another certificate");
  auto keys = gd::find_signing_keys(missing);
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].enrolled == false);

  gd::FakeHost no_list;
  no_list.file("/var/lib/dkms/mok.pub", k_dkms_der);
  no_list.file("/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f", "vendor certificates");
  keys = gd::find_signing_keys(no_list);
  REQUIRE(keys.size() == 1);
  CHECK_FALSE(keys[0].enrolled);  // db alone does not say shim is in use

  gd::FakeHost pem;
  pem.file("/var/lib/shim-signed/mok/MOK.der", "-----BEGIN CERTIFICATE-----\n");
  pem.file(k_mok_efivar, "\x07\0\0\0 list"s);
  keys = gd::find_signing_keys(pem);
  REQUIRE(keys.size() == 1);
  CHECK_FALSE(keys[0].enrolled);

  gd::FakeHost none;
  CHECK(gd::find_signing_keys(none).empty());
}

TEST_CASE("signing keys: one trusted key is enough; none trusted only when every key was checked") {
  const gd::SigningKey trusted{"/a", true}, untrusted{"/b", false}, unchecked{"/c", std::nullopt};
  CHECK(gd::some_key_enrolled({untrusted, trusted}) == true);
  CHECK(gd::some_key_enrolled({unchecked, trusted}) == true);
  CHECK(gd::some_key_enrolled({untrusted}) == false);
  CHECK_FALSE(gd::some_key_enrolled({untrusted, unchecked}));
  CHECK_FALSE(gd::some_key_enrolled({}));
}
