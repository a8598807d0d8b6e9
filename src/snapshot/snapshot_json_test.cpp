#include "snapshot/snapshot_json.h"

#include "host/local_fs.h"
#include "test_support/temp_dir.h"
#include "util/text.h"

#include <doctest/doctest.h>

namespace {

const std::string k_hostile = std::string("caf\xc3\xa9 \xff\xfe a\\xff b\\\\ \x01", 20);

}  // namespace

TEST_CASE("snapshot_text keeps valid UTF-8 as it is and writes anything else in a form that reads back byte for byte") {
  CHECK(gd::snapshot_text("/usr/lib/x86_64-linux-gnu") == "/usr/lib/x86_64-linux-gnu");
  CHECK(gd::snapshot_text("caf\xc3\xa9 a\\b") == "caf\xc3\xa9 a\\b");  // valid: no marker, backslash as it is
  CHECK(gd::snapshot_text("/tmp/\xff") == std::string("\0/tmp/\\xff", 10));
  CHECK(gd::snapshot_text("\\xff\xfe") == std::string("\0\\\\xff\\xfe", 10));  // a literal \xff is not mistaken for the byte
  CHECK(gd::snapshot_text(std::string("\0ok", 3)) == std::string("\0\0ok", 4));  // an output that begins with NUL

  for (const std::string& bytes : {std::string(), std::string("plain"), k_hostile, std::string("\0\0\\x", 4), std::string("\\"),
                                  std::string("\xff"), std::string("\xe2\x84"), std::string("x\\\xff\\")}) {
    CAPTURE(gd::printable(bytes));
    CHECK(gd::is_valid_utf8(gd::snapshot_text(bytes)));
    CHECK(gd::snapshot_bytes(gd::snapshot_text(bytes)) == bytes);
  }
  // Raw bytes, as snapshots before this form held them, read as they are.
  CHECK(gd::snapshot_bytes("/tmp/\xff") == "/tmp/\xff");
  // A marked text whose escapes are broken (edited by hand) keeps what it cannot read.
  CHECK(gd::snapshot_bytes(std::string("\0a\\x4", 5)) == "a\\x4");
  CHECK(gd::snapshot_bytes(std::string("\0a\\", 3)) == "a\\");
}

TEST_CASE("snapshot.json is strict UTF-8 whatever bytes the checks read, and replays them unchanged") {
  gd::Snapshot snapshot;
  snapshot.env["CUDA_HOME"] = k_hostile;
  snapshot.env["V\xff"] = "x";
  snapshot.directories.insert("/opt/\xff");
  snapshot.listings["/opt/\xff"] = {"lib\xfe.so", "plain"};
  snapshot.links["/usr/lib/\xff"] = "/target/\xfe";
  snapshot.errors["/proc/\xff"] = "EACCES";
  snapshot.file_sizes["/lib/\xff.so"] = 4096;
  snapshot.pieces["/lib/\xff.so"] = {{0, 64}};
  gd::ChildRequest request;
  request.args = {"nvidia-smi", "--\xff"};
  gd::ChildAnswer answer;
  answer.output = std::string("\0\xff garbage\x1b[2J", 14);
  answer.error_output = "err \xc3";
  snapshot.children.push_back({request, answer});
  snapshot.uname = gd::Uname{"Linux", "6.1.0-\xff", "#1", "x86_64"};

  gd::TempDir dir;
  REQUIRE(gd::write_snapshot(dir.path(), snapshot));
  const auto text = gd::read_local_file(dir / "snapshot.json", 1 << 20);
  REQUIRE(text);
  CHECK(gd::is_valid_utf8(*text));

  const auto back = gd::read_snapshot(dir.path());
  CHECK(back.env == snapshot.env);
  CHECK(back.directories == snapshot.directories);
  CHECK(back.listings == snapshot.listings);
  CHECK(back.links == snapshot.links);
  CHECK(back.errors == snapshot.errors);
  CHECK(back.file_sizes == snapshot.file_sizes);
  CHECK(back.pieces == snapshot.pieces);
  REQUIRE(back.children.size() == 1);
  CHECK(back.children[0].request.args == request.args);
  CHECK(back.children[0].answer.output == answer.output);
  CHECK(back.children[0].answer.error_output == answer.error_output);
  REQUIRE(back.uname);
  CHECK(back.uname->release == "6.1.0-\xff");
}

TEST_CASE("a variable of 40,000 bytes that are not UTF-8 replays: Linux's limit is on its bytes, not on how snapshot.json writes them") {
  gd::Snapshot snapshot;
  snapshot.env["CUDA_HOME"] = std::string(40000, '\xff');  // written as 160,001 characters
  gd::TempDir dir;
  REQUIRE(gd::write_snapshot(dir.path(), snapshot));
  CHECK(gd::read_snapshot(dir.path()).env == snapshot.env);
}
