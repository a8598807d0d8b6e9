#include "redact/redactor.h"

#include "test_support/binary_writer.h"

#include <doctest/doctest.h>

namespace {

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a GPU UUID becomes the same placeholder everywhere, and a prefix the placeholder's prefix") {
  gd::Redactor redactor;
  const std::string uuid = "GPU-8f3a1c2d-4b5e-6f70-8192-a3b4c5d6e7f8";
  const auto full = redactor.redact("GPU UUID: \t " + uuid + "\n", gd::TextOrigin::file, "/proc/driver/nvidia/gpus/x/information");
  const auto again = redactor.redact("{\"uuid\":\"" + uuid + "\"}", gd::TextOrigin::command_output);
  const auto prefix = redactor.redact_variable("CUDA_VISIBLE_DEVICES", "GPU-8f3a1c2d,1");
  CHECK_FALSE(has(full, "8f3a1c2d"));
  const std::string placeholder = full.substr(full.find("GPU-"), uuid.size());
  CHECK(placeholder.size() == uuid.size());
  CHECK(placeholder[12] == '-');
  CHECK(has(again, placeholder));
  CHECK(prefix == placeholder.substr(0, 12) + ",1");
  // Upper case maps to upper case; MIG UUIDs and the old MIG-GPU-<uuid>/gi/ci form too.
  CHECK(redactor.redact("MIG-GPU-" + uuid.substr(4) + "/1/0", gd::TextOrigin::variable, "NVIDIA_VISIBLE_DEVICES") ==
        "MIG-" + placeholder + "/1/0");
  // Words that only start like one are left alone.
  CHECK(redactor.redact("GPU-accelerated GPU-Util", gd::TextOrigin::file, "/x") == "GPU-accelerated GPU-Util");
  CHECK(redactor.summary() == std::vector<std::string>{"1 GPU or MIG UUID"});
}

TEST_CASE("a UUID in a file's name is redacted, and the redacted path finds the file again") {
  gd::Redactor redactor;
  const std::string uid = "3f2a9c1e-0001-4b7d-9e21-5a17c0de0001";
  const std::string listed = redactor.redact_path("/var/run/cdi/k8s.gpu.nvidia.com-claim_" + uid + ".yaml", "/var/run/cdi/x");
  CHECK_FALSE(has(listed, uid));
  CHECK(listed.size() == std::string("/var/run/cdi/k8s.gpu.nvidia.com-claim_").size() + uid.size() + 5);
  CHECK(redactor.original_path(listed) == "/var/run/cdi/k8s.gpu.nvidia.com-claim_" + uid + ".yaml");
  const std::string gpu = "GPU-8f3a1c2d-4b5e-6f70-8192-a3b4c5d6e7f9";
  const std::string named = redactor.redact_path("/run/x/" + gpu + "/state", "/run/x/" + gpu + "/state");
  CHECK_FALSE(has(named, gpu));
  CHECK(redactor.original_path(named) == "/run/x/" + gpu + "/state");
  // Only names remember: a UUID in a file's text is no path to map back.
  const auto text = redactor.redact("GPU-8f3a1c2d-4b5e-6f70-8192-a3b4c5d6e7f8", gd::TextOrigin::file, "/x");
  CHECK(redactor.original_path("/dev/" + text.substr(4)) == "/dev/" + text.substr(4));
  // A run that only looks like a placeholder is left as it is.
  CHECK(redactor.original_path("/a/00000000-0000-0000-0000-000000000000") == "/a/00000000-0000-0000-0000-000000000000");
}

TEST_CASE("user names are replaced in home paths and user variables, nowhere else") {
  gd::Redactor redactor;
  redactor.add_user("alice");
  redactor.add_user("nvidia");  // a Jetson's default user: the word must survive elsewhere
  redactor.add_user("dev", "/data/users");
  const auto path = redactor.redact("/home/alice/venv/lib:/home/alicex/lib:/home/nvidia/.local", gd::TextOrigin::variable, "LD_LIBRARY_PATH");
  CHECK(path == "/home/user1/venv/lib:/home/alicex/lib:/home/user02/.local");
  CHECK(redactor.redact("/proc/driver/nvidia/version nvidia 550", gd::TextOrigin::file, "/x") == "/proc/driver/nvidia/version nvidia 550");
  CHECK(redactor.redact_variable("USER", "alice") == "user1");
  CHECK(redactor.redact("/data/users/dev/env", gd::TextOrigin::variable, "VIRTUAL_ENV") == "/data/users/u03/env");
  // Placeholders keep the length, so a RUNPATH inside an ELF file stays valid.
  const std::string elf_strings = std::string("\0libc.so.6\0/home/alice/venv/lib\0", 32);
  CHECK(redactor.redact(elf_strings, gd::TextOrigin::file, "/home/alice/venv/bin/app").size() == elf_strings.size());
  // The checks ask with placeholders; the recorded system is asked with the real names.
  CHECK(redactor.original_path("/home/user1/venv/bin/python") == "/home/alice/venv/bin/python");
  CHECK(redactor.original_path("/home/user1x/a") == "/home/user1x/a");
  CHECK(redactor.original_path("/data/users/u03") == "/data/users/dev");
  CHECK(redactor.summary() == std::vector<std::string>{"3 user names"});
}

TEST_CASE("a user name too short for a placeholder is kept, and the summary says so") {
  gd::Redactor redactor;
  redactor.add_user("a");
  CHECK(redactor.redact("/home/a/x", gd::TextOrigin::variable, "PATH") == "/home/a/x");
  CHECK(has(redactor.summary().at(0), "too short"));
}

TEST_CASE("host names: a distinctive one everywhere, a plain word only where it is the host name") {
  gd::Redactor redactor;
  redactor.add_host_name("gpu-node-17\n");
  redactor.add_host_name("cuda");
  CHECK(redactor.redact("Dec 1 gpu-node-17 kernel: gpu-node-17.example.com gpu-node-170", gd::TextOrigin::command_output) ==
        "Dec 1 host0000001 kernel: host0000001.example.com gpu-node-170");
  CHECK(redactor.redact("/usr/local/cuda/lib64", gd::TextOrigin::variable, "PATH") == "/usr/local/cuda/lib64");
  CHECK(redactor.redact("cuda\n", gd::TextOrigin::file, "/etc/hostname") == "h002\n");
  CHECK(redactor.redact_variable("HOSTNAME", "cuda") == "h002");
}

TEST_CASE("serial and part numbers, MAC and IPv4 addresses, but not versions that look like addresses") {
  gd::Redactor redactor;
  const auto smi = redactor.redact("    Serial Number                         : 1654922034781\n"
                                   "    Board Part Number                     : 900-2G500-0010-000\n"
                                   "    VBIOS Version                         : 96.00.74.00.01\n",
                                   gd::TextOrigin::command_output);
  CHECK(has(smi, ": 0000000000001\n"));
  CHECK(has(smi, ": 000-00000-0000-001\n"));
  CHECK(has(smi, "96.00.74.00.01"));
  CHECK(redactor.redact("{\"serial\":\"1654922034781\"}", gd::TextOrigin::command_output) == "{\"serial\":\"0000000000001\"}");
  CHECK(redactor.redact("eth0: 52:54:00:12:34:56 up; bus 0000:01:00.0", gd::TextOrigin::command_output) ==
        "eth0: 00:00:00:00:00:01 up; bus 0000:01:00.0");
  CHECK(redactor.redact("server 192.168.10.23:2049 and 10.0.0.5/8, loopback 127.0.0.1", gd::TextOrigin::command_output) ==
        "server 000.000.00.01:2049 and 00.0.0.2/8, loopback 127.0.0.1");
  // cuDNN 9.1.0.70 is a version: in a wheel's metadata, a *VERSION variable, or next to a name.
  CHECK(redactor.redact("Version: 9.1.0.70\n", gd::TextOrigin::file, "/venv/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA") ==
        "Version: 9.1.0.70\n");
  CHECK(redactor.redact_variable("NV_CUDNN_VERSION", "9.1.0.70") == "9.1.0.70");
  CHECK(redactor.redact("libcudnn.so.9.1.0.70 v9.1.0.70 8.9.7.29-1", gd::TextOrigin::file, "/etc/ld.so.cache") ==
        "libcudnn.so.9.1.0.70 v9.1.0.70 8.9.7.29-1");
  CHECK(redactor.summary() ==
        std::vector<std::string>{"1 serial number", "1 board part number", "1 MAC address", "2 IPv4 addresses"});
}

TEST_CASE("a megabyte of hex digits and dashes is one pass, not a hang") {
  gd::Redactor redactor;
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "a-b0c";
  CHECK(redactor.redact(text, gd::TextOrigin::file, "/x").size() == text.size());
}

TEST_CASE("IPv6 addresses and USB serial numbers are redacted; C++ names, clocks and PCI addresses are not") {
  gd::Redactor redactor;
  CHECK(redactor.redact("nfs: server fd00:10:20::23 not responding\n", gd::TextOrigin::command_output) ==
        "nfs: server 0000:00:00::01 not responding\n");
  CHECK(redactor.redact("addr=2001:db8:0:0:1:0:0:1,vers=4.2", gd::TextOrigin::file, "/proc/self/mountinfo") ==
        "addr=0000:000:0:0:0:0:0:2,vers=4.2");
  CHECK(redactor.redact("inet6 fe80::5054:ff:fe12:3456%eth0", gd::TextOrigin::command_output) == "inet6 0000::0000:00:0000:0003%eth0");
  CHECK(redactor.redact("usb 1-2: SerialNumber: 4C530001230417116591\n", gd::TextOrigin::command_output) ==
        "usb 1-2: SerialNumber: 00000000000000000001\n");
  const std::string kept = "std::string at 12:34:56, bus 0000:01:00.0, loopback ::1, any ::, a:b";
  CHECK(redactor.redact(kept, gd::TextOrigin::command_output) == kept);
  CHECK(redactor.summary() == std::vector<std::string>{"1 serial number", "3 IPv6 addresses"});
}

TEST_CASE("a PCI device's VPD: its serial, where a vendor field repeats it, and a UUID in hex go; the rest and the layout stay") {
  const std::string vpd = gd::pci_vpd("NVIDIA ConnectX-7 mezz", {{"PN", "692-9X760-00SE-S00"}, {"SN", "MT2503603H5V"},
                                                                {"V3", "3b7e4f0c9a2d11eeb962f1a2c3d4e5f6"},
                                                                {"VA", "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:SMDL=SW_MNG:MODL=C7010Z"},
                                                                {"VU", "MT2503603H5VMLNXS0D0F0"}});
  gd::Redactor redactor;
  const auto redacted = redactor.redact(vpd, gd::TextOrigin::file, "/sys/bus/pci/devices/0000:05:00.0/vpd");
  CHECK(redacted.size() == vpd.size());
  CHECK(redacted.find("MT2503603H5V") == std::string::npos);
  CHECK(redacted.find("3b7e4f0c9a2d11eeb962f1a2c3d4e5f6") == std::string::npos);
  CHECK(redacted.find("SMDL=SW_MNG") != std::string::npos);  // what the fabric checks read stays
  CHECK(redacted.find("692-9X760-00SE-S00") != std::string::npos);
  CHECK(redacted.find("MLNXS0D0F0") != std::string::npos);
  CHECK(redactor.summary() == std::vector<std::string>{"2 serial numbers"});
  // Junk where a VPD should be is taken as it comes: no crash, nothing read past its end.
  CHECK(redactor.redact(std::string("\x90\xff\xff" "SN", 5), gd::TextOrigin::file, "/x/vpd").size() == 5);
  CHECK(redactor.redact(std::string("\x90\x05\x00" "SN\x40", 6), gd::TextOrigin::file, "/x/vpd").size() == 6);
}

TEST_CASE("a compressed file (a .ko.xz, .ko.zst or .ko.gz) is kept byte for byte: its bytes show no text, and a change would corrupt it") {
  gd::Redactor redactor;
  // Runs that look like addresses turn up by chance in tens of MB of compressed bytes.
  const std::string body = " fd00:10:20::23 GPU-8f3a1c2e-0000-1111-2222-333344445555 02:42:ac:11:00:02 10.1.2.3";
  const std::string modules = "/lib/modules/6.8.0/updates/dkms/nvidia.ko";
  CHECK(redactor.redact(std::string("\xfd" "7zXZ\0", 6) + body, gd::TextOrigin::file, modules + ".xz") == std::string("\xfd" "7zXZ\0", 6) + body);
  CHECK(redactor.redact("\x28\xb5\x2f\xfd" + body, gd::TextOrigin::file, modules + ".zst") == "\x28\xb5\x2f\xfd" + body);
  CHECK(redactor.redact("\x1f\x8b" + body, gd::TextOrigin::file, modules + ".gz") == "\x1f\x8b" + body);
  // The same text in a plain file is redacted, even in a piece that begins as gzip does by chance.
  CHECK_FALSE(has(redactor.redact("x" + body, gd::TextOrigin::file, "/etc/x"), "fd00:10:20::23"));
  CHECK_FALSE(has(redactor.redact("\x1f\x8b" + body, gd::TextOrigin::file, "/etc/x"), "fd00:10:20::23"));
}

TEST_CASE("credentials in engines' configuration and proxies keep their length and nothing else") {
  gd::Redactor redactor;
  const std::string containerd = "[plugins.\"io.containerd.grpc.v1.cri\".registry.configs.\"reg.example\".auth]\n"
                                 "  username = \"robot\"\n  password = \"s3cr3t!pw\"\n  auth = 'cm9ib3Q6czNjcjN0'\n";
  const auto redacted = redactor.redact(containerd, gd::TextOrigin::file, "/etc/containerd/config.toml");
  CHECK(has(redacted, "password = \"000000001\"\n"));
  CHECK(has(redacted, "auth = '0000000000000002'\n"));
  CHECK(has(redacted, "username = \"robot\""));  // a user name is not a secret
  CHECK(has(redacted, ".auth]"));               // the table's name is no value
  CHECK(redacted.size() == containerd.size());
  CHECK(redactor.redact("{\"auths\": {\"r\": {\"auth\": \"cm9ib3Q6czNjcjN0\"}}, \"identitytoken\":\"abc\"}", gd::TextOrigin::file,
                        "/root/.docker/config.json") == "{\"auths\": {\"r\": {\"auth\": \"0000000000000002\"}}, \"identitytoken\":\"003\"}");
  // A proxy's user and password, in a variable as in a file.
  CHECK(redactor.redact_variable("HTTPS_PROXY", "http://robot:s3cr3t!pw@proxy.example:3128") ==
        "http://000000000000004@proxy.example:3128");
  CHECK(redactor.redact("https://registry.example/v2/ mirror://x user@host", gd::TextOrigin::command_output) ==
        "https://registry.example/v2/ mirror://x user@host");
  // Words that are no assignment of a quoted value stay.
  CHECK(redactor.redact("NVRM: auth token expired; password: none\n", gd::TextOrigin::command_output) ==
        "NVRM: auth token expired; password: none\n");
  CHECK(redactor.summary() == std::vector<std::string>{"4 credentials"});
}
