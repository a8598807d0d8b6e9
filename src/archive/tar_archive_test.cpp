#include "archive/gzip.h"
#include "archive/tar_archive.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

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

TEST_CASE("tar: an archive fed in pieces of any size reads as the whole; what follows the end marker is not read") {
  const std::string long_name = "snap/" + std::string(200, 'n');
  const auto archive = gd::write_tar({file("snap/snapshot.json", "{}"), file(long_name, std::string(1500, 'x')),
                                      {"snap/l", gd::TarEntry::Type::symlink, "", std::string(130, 't'), 0777}},
                                     0);
  for (std::size_t piece : {1, 7, 511, 512, 513, 4096}) {
    CAPTURE(piece);
    gd::TarReader reader(archive.size());
    for (std::size_t at = 0; at < archive.size(); at += piece)
      REQUIRE(reader.feed(std::string_view(archive).substr(at, piece)));
    REQUIRE(reader.feed("trailing bytes after the end marker"));
    const auto read = reader.finish();
    REQUIRE(read);
    REQUIRE(read->size() == 3);
    CHECK(read->at(1).path == long_name);
    CHECK(read->at(1).content == std::string(1500, 'x'));
    CHECK(read->at(2).target == std::string(130, 't'));
  }
  gd::TarReader cut(archive.size());
  REQUIRE(cut.feed(std::string_view(archive).substr(0, 3000)));  // inside the long-named file's data
  CHECK(cut.finish().error().find("more bytes than the archive holds") != std::string::npos);
}

TEST_CASE("tar: a long-name entry larger than any name is refused before it is read") {
  std::string archive = gd::write_tar({file("snap/" + std::string(200, 'n'), "x")}, 0);
  // The pax header's size field (offset 124, 11 octal digits): claim 1 GiB, and fix the checksum.
  archive.replace(124, 11, "10000000000");
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(archive[i]);
  char digits[8];
  std::snprintf(digits, sizeof digits, "%06o", sum);
  archive.replace(148, 6, digits);
  CHECK(gd::read_tar(archive).error().find("more than any name needs") != std::string::npos);
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
  CHECK(gd::read_tar(archive.substr(0, 700)).error().find("more bytes than the archive holds") != std::string::npos);
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

TEST_CASE("gzip: pieces go to the sink as they come, and a sink can stop the read") {
  const std::string data(300000, 'z');
  const auto packed = gd::gzip_compress(data);
  std::size_t pieces = 0, largest = 0, total = 0;
  const auto produced = gd::gzip_decompress_each(packed, data.size(), [&](std::string_view piece) {
    ++pieces, total += piece.size(), largest = std::max(largest, piece.size());
    return true;
  });
  CHECK(produced.value() == data.size());
  CHECK(total == data.size());
  CHECK(pieces > 1);
  CHECK(largest <= 64 * 1024);  // never the whole output at once
  const auto stopped = gd::gzip_decompress_each(packed, data.size(), [](std::string_view) { return false; });
  CHECK(stopped.error().value() == ECANCELED);
}
