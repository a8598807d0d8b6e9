#include "host/local_fs.h"

#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <fcntl.h>
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

TEST_CASE("a record device is read until it has no more, never waiting; past the cap its oldest whole records go") {
  gd::TempDir dir;
  const std::string fifo = dir / "kmsg";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A reader held open, so the writer may open; the writer held open, so
  // the end of what was written is EAGAIN (a live /dev/kmsg's), not EOF.
  const int held_reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  REQUIRE(held_reader >= 0);
  REQUIRE(writer >= 0);
  const std::string first = "6,1,100,-;first\n SUBSYSTEM=pci\n DEVICE=+pci:0000:01:00.0\n", second = "4,2,200,-;second\n",
                    third = "3,3,300,-;third\n";
  const std::string all = first + second + third;
  REQUIRE(::write(writer, all.data(), all.size()) == static_cast<ssize_t>(all.size()));

  const auto records = gd::read_local_records(fifo, second.size() + third.size() + 5);  // the first, with its dictionary, does not fit
  REQUIRE(records.has_value());
  CHECK(records->text == second + third);
  CHECK(records->read_bytes == all.size());
  CHECK(records->dropped());

  REQUIRE(::write(writer, all.data(), all.size()) == static_cast<ssize_t>(all.size()));
  const auto whole = gd::read_local_records(fifo, 1 << 20);
  REQUIRE(whole.has_value());
  CHECK(whole->text == all);
  CHECK_FALSE(whole->dropped());
  ::close(writer);
  ::close(held_reader);

  // Nobody writes: the end at once.
  CHECK(gd::read_local_records(fifo, 100).value().text.empty());
  // A regular file planted where the device should be is refused, not read.
  dir.write("plain", "6,1,100,-;planted\n");
  CHECK(gd::read_local_records(dir / "plain", 100).error() == std::errc::invalid_argument);
  CHECK(gd::read_local_records(dir / "missing", 100).error() == std::errc::no_such_file_or_directory);
  // Another device, even one that reads forever, is not opened.
  CHECK(gd::read_local_records("/dev/zero", 100).error() == std::errc::invalid_argument);
}
