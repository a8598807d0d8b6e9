#include "archive/gzip.h"
#include "archive/tar_archive.h"

#include <doctest/doctest.h>

#include <cerrno>

namespace {

gd::TarEntry file(std::string path, std::string content) {
  return {std::move(path), gd::TarEntry::Type::file, std::move(content), "", 0644};
}

}  // namespace

TEST_CASE("tar: files, directories and symlinks come back as written, long names too") {
  const std::string long_name = "snap/root/" + std::string(150, 'a') + "/libcuda.so.550.54.15";
  const std::vector<gd::TarEntry> written{
      {"snap", gd::TarEntry::Type::directory, "", "", 0755},
      file("snap/snapshot.json", "{}"),
      file(long_name, std::string(1000, '\x7f')),
      {"snap/root/usr/lib64", gd::TarEntry::Type::symlink, "", "../usr/lib/" + std::string(120, 'b'), 0777},
      file("snap/root/empty", ""),
  };
  const auto archive = gd::write_tar(written, 1700000000);
  CHECK(archive.size() % 512 == 0);
  const auto read = gd::read_tar(archive);
  REQUIRE(read);
  REQUIRE(read->size() == written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    CAPTURE(i);
    CHECK((*read)[i].path == written[i].path);
    CHECK((*read)[i].type == written[i].type);
    CHECK((*read)[i].content == written[i].content);
    CHECK((*read)[i].target == written[i].target);
  }
}

TEST_CASE("tar: names that climb out or are absolute end the read") {
  for (const char* name : {"../etc/passwd", "snap/../../x", "/etc/shadow"}) {
    CAPTURE(name);
    const auto read = gd::read_tar(gd::write_tar({file(name, "x")}, 0));
    CHECK(read.error().find("outside") != std::string::npos);
  }
  CHECK(gd::read_tar(gd::write_tar({file("./snap/./a", "x")}, 0))->at(0).path == "snap/a");
}

TEST_CASE("tar: a damaged or cut archive is a problem, not a crash") {
  auto archive = gd::write_tar({file("snap/a", std::string(2000, 'x'))}, 0);
  CHECK(gd::read_tar(archive.substr(0, 700)).error().find("more than the archive holds") != std::string::npos);
  CHECK(gd::read_tar(archive.substr(0, 100)).error().find("cut short") != std::string::npos);
  archive[130] ^= 1;  // a digit of the size field: the checksum no longer adds up
  CHECK(gd::read_tar(archive).error().find("damaged") != std::string::npos);
  CHECK(gd::read_tar(std::string(3000, '\xff')).error().find("damaged") != std::string::npos);
}

TEST_CASE("gzip: round trip, garbage and a bomb past the cap") {
  const std::string data(300000, 'z');
  const auto packed = gd::gzip_compress(data);
  CHECK(packed.size() < 2000);
  CHECK(packed.substr(0, 2) == "\x1f\x8b");
  CHECK(gd::gzip_decompress(packed, data.size()).value() == data);
  CHECK(gd::gzip_decompress(packed, data.size() - 1).error().value() == EFBIG);
  CHECK(gd::gzip_decompress("not gzip at all", 1000).error().value() == EINVAL);
  CHECK(gd::gzip_decompress(packed.substr(0, packed.size() / 2), data.size()).error().value() == EINVAL);
}
