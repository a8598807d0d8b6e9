#include "host/file_mode.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

namespace gd {

TEST_CASE("every stat mode type has its FileType, symlinks included") {
  CHECK(file_type_of(S_IFREG | 0644) == FileType::regular);
  CHECK(file_type_of(S_IFDIR | 0755) == FileType::directory);
  // live_host's private copy once lacked this one and called a link "other".
  CHECK(file_type_of(S_IFLNK | 0777) == FileType::symlink);
  CHECK(file_type_of(S_IFCHR | 0666) == FileType::char_device);
  CHECK(file_type_of(S_IFBLK | 0660) == FileType::block_device);
  CHECK(file_type_of(S_IFIFO | 0600) == FileType::other);
  CHECK(file_type_of(S_IFSOCK | 0600) == FileType::other);
}

TEST_CASE("file types and modes read back what they write") {
  for (auto type : {FileType::regular, FileType::directory, FileType::symlink, FileType::char_device,
                    FileType::block_device, FileType::other})
    CHECK(parse_file_type(enum_name(type)) == type);
  CHECK(parse_file_type("fifo") == FileType::other);
  CHECK(mode_string(0660) == "0660");
  CHECK(mode_string(S_IFCHR | 04755) == "4755");
  CHECK(parse_mode("0660") == 0660u);
  CHECK(parse_mode(mode_string(01777)) == 01777u);
  CHECK_FALSE(parse_mode(""));
  CHECK_FALSE(parse_mode("0689"));
  CHECK_FALSE(parse_mode("077777"));
}

}  // namespace gd
