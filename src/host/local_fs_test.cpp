#include "host/local_fs.h"

#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

TEST_CASE("write_new_file_atomically puts a file only where nothing is, and replaces nothing that appeared") {
  gd::TempDir dir;
  REQUIRE(gd::write_new_file_atomically(dir / "new.tar.gz", "archive", 0600));
  CHECK(gd::read_local_file(dir / "new.tar.gz", 100).value() == "archive");
  const auto private_file = std::filesystem::perms::owner_read | std::filesystem::perms::owner_write;
  CHECK((std::filesystem::status(dir / "new.tar.gz").permissions() & std::filesystem::perms::all) == private_file);
  // A file that appeared meanwhile, and a dangling symlink, are both kept.
  dir.write("appeared.tar.gz", "someone else's");
  const auto over_file = gd::write_new_file_atomically(dir / "appeared.tar.gz", "archive", 0600);
  REQUIRE_FALSE(over_file);
  CHECK(over_file.error().value() == EEXIST);
  CHECK(gd::read_local_file(dir / "appeared.tar.gz", 100).value() == "someone else's");
  REQUIRE(::symlink((dir / "nowhere").c_str(), (dir / "dangling.tar.gz").c_str()) == 0);
  CHECK(gd::write_new_file_atomically(dir / "dangling.tar.gz", "archive", 0600).error().value() == EEXIST);
  CHECK(std::filesystem::is_symlink(dir / "dangling.tar.gz"));
  // No temporary file is left beside them.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
  // The replacing form still replaces.
  REQUIRE(gd::write_file_atomically(dir / "appeared.tar.gz", "mine", 0600));
  CHECK(gd::read_local_file(dir / "appeared.tar.gz", 100).value() == "mine");
}

TEST_CASE("an output file replaced keeps its mode, through a symlink too; a new one gets the umask's") {
  gd::TempDir dir;
  const auto mode_of = [](const std::string& path) {
    struct stat status {};
    REQUIRE(::stat(path.c_str(), &status) == 0);
    return status.st_mode & 07777;
  };
  dir.write("report.json", "old");
  ::chmod((dir / "report.json").c_str(), 0600);
  REQUIRE(gd::write_output_file(dir / "report.json", "new"));
  CHECK(gd::read_local_file(dir / "report.json", 100).value() == "new");
  CHECK(mode_of(dir / "report.json") == 0600);
  REQUIRE(::symlink((dir / "report.json").c_str(), (dir / "latest.json").c_str()) == 0);
  ::chmod((dir / "report.json").c_str(), 0640);
  REQUIRE(gd::write_output_file(dir / "latest.json", "newer"));
  CHECK(mode_of(dir / "report.json") == 0640);
  const mode_t old_mask = ::umask(077);
  const auto created = gd::write_output_file(dir / "fresh.prom", "x");
  ::umask(old_mask);
  REQUIRE(created);
  CHECK(mode_of(dir / "fresh.prom") == 0600);
  ::umask(022);
  REQUIRE(gd::write_output_file(dir / "open.prom", "x"));
  ::umask(old_mask);
  CHECK(mode_of(dir / "open.prom") == 0644);
}

TEST_CASE("reads take the whole file, however it reports its size, and stop at the cap") {
  gd::TempDir dir;
  std::string big(200000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + i / 4096 % 26);
  dir.write("big", big);
  CHECK(gd::read_local_file(dir / "big", 1 << 20).value() == big);  // its size is known: one read
  CHECK(gd::read_local_file(dir / "big", 1000).value() == big.substr(0, 1000));
  CHECK(gd::read_local_file(dir / "big", big.size()).value() == big);
  dir.write("empty", "");
  CHECK(gd::read_local_file(dir / "empty", 100).value().empty());
  // procfs says 0 bytes and has more: read in pieces until the end.
  const auto maps = gd::read_local_file("/proc/self/maps", 1 << 20);
  REQUIRE(maps);
  CHECK(maps->find("[stack]") != std::string::npos);
}
