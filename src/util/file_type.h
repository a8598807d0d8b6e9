#pragma once
// What kind of file a path is, as stat(2) says, named as snapshots and
// reports spell it.

#include "util/enum_names.h"

#include <string_view>

namespace gd {

enum class FileType { regular, directory, symlink, char_device, block_device, other };
template <>
struct EnumTable<FileType> {
  static constexpr std::array names{"file", "directory", "symlink", "char", "block", "other"};
};

// A name no type has (a damaged snapshot) is other.
inline FileType parse_file_type(std::string_view name) { return enum_from_name<FileType>(name).value_or(FileType::other); }

}  // namespace gd
