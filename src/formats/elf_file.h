#pragma once
// Reads what the dynamic loader reads from an ELF file, and nothing more:
// the header, program headers, PT_INTERP, the dynamic section (NEEDED,
// SONAME, RPATH, RUNPATH, FLAGS_1) with its string table, and notes.
// 32- and 64-bit, either byte order. Every offset and size is checked
// against the file; a hostile file yields an ElfError, never a crash or an
// unbounded read. Reads go through the Host, piece by piece.

#include "host/host.h"
#include "util/checked.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct ElfNote {
  std::string owner;
  std::uint32_t type = 0;
  std::string desc;
};

struct ElfInfo {
  int bits = 64;                // 32 or 64
  bool little_endian = true;
  std::uint16_t machine = 0;    // e_machine
  std::uint8_t osabi = 0;
  std::uint16_t type = 0;       // ET_EXEC 2, ET_DYN 3
  std::optional<std::string> interpreter;
  std::vector<std::string> needed;
  std::optional<std::string> soname;
  std::optional<std::string> rpath;    // cleared when RUNPATH is present, as glibc does
  std::optional<std::string> runpath;
  std::uint64_t flags_1 = 0;
  std::vector<ElfNote> notes;   // from PT_NOTE segments
  std::vector<std::string> limits;  // gpudoctor's caps that this file reached, said in words

  bool nodeflib() const { return (flags_1 & 0x800) != 0; }
};

enum class ElfErrorKind {
  unreadable,  // could not be read at all (missing, EACCES...)
  not_elf,     // no ELF magic, or shorter than a header: glibc's loader aborts on these
  bad_header,  // ELF magic but an invalid header: glibc aborts too
  corrupt,     // a structure points outside the file or is absurd
};

struct ElfError {
  ElfErrorKind kind = ElfErrorKind::corrupt;
  std::string message;
  int error_number = 0;  // for unreadable
};

using ElfResult = Checked<ElfInfo, ElfError>;

ElfResult read_elf(Host& host, const std::string& path);

// A section header: where its bytes lie in the file. Only sections whose
// bytes lie inside the file are listed (SHT_NOBITS ones have none).
struct ElfSection {
  std::string name;
  std::uint32_t type = 0;  // SHT_*
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  bool little_endian = true;
};

// Every section of the file, by its header table; empty when there is none
// or the table is damaged. The fatbin reader starts from ".nv_fatbin" here.
std::vector<ElfSection> read_sections(Files& files, const std::string& path);

// The notes in the named section (such as ".note.cuda.fwd_compatibility",
// which cuda-compat's libcuda carries in a section, not a PT_NOTE segment).
// Empty when the file, its section headers or the section are missing.
std::vector<ElfNote> read_section_notes(Files& files, const std::string& path, const std::string& section);


}  // namespace gd
