#include "test_support/binary_writer.h"

#include "loader/ld_cache.h"

#include <algorithm>
#include <map>

namespace gd {

namespace {

// Little-endian fields appended in order, as the formats lay them out.
class Bytes {
 public:
  Bytes& u16(std::uint64_t value) { return put(value, 2); }
  Bytes& u32(std::uint64_t value) { return put(value, 4); }
  Bytes& u64(std::uint64_t value) { return put(value, 8); }
  Bytes& text(const std::string& value) {
    m_bytes += value;
    return *this;
  }
  Bytes& zeros(std::size_t count) {
    m_bytes.append(count, '\0');
    return *this;
  }
  Bytes& align(std::size_t to) { return zeros((to - m_bytes.size() % to) % to); }
  std::size_t size() const { return m_bytes.size(); }
  std::string& str() { return m_bytes; }

 private:
  Bytes& put(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) m_bytes += static_cast<char>((value >> (8 * i)) & 0xff);
    return *this;
  }
  std::string m_bytes;
};

std::uint64_t align8(std::uint64_t value) { return (value + 7) & ~std::uint64_t{7}; }

// e_ident of a 64-bit little-endian ELF, then the rest of the ELF header.
struct ElfHeader {
  int type = 3, machine = 62;  // ET_DYN, EM_X86_64
  std::uint64_t phoff = 0, shoff = 0;
  int phentsize = 0, phnum = 0, shnum = 0, shstrndx = 0;
};

void elf_header(Bytes& out, const ElfHeader& header) {
  out.text("\x7f" "ELF").text(std::string("\x02\x01\x01\x00", 4)).zeros(8);
  out.u16(static_cast<std::uint64_t>(header.type)).u16(static_cast<std::uint64_t>(header.machine)).u32(1).u64(0);
  out.u64(header.phoff).u64(header.shoff).u32(0).u16(64);
  out.u16(static_cast<std::uint64_t>(header.phentsize)).u16(static_cast<std::uint64_t>(header.phnum)).u16(64);
  out.u16(static_cast<std::uint64_t>(header.shnum)).u16(static_cast<std::uint64_t>(header.shstrndx));
}

void section_header(Bytes& out, std::uint64_t name, std::uint64_t type, std::uint64_t flags, std::uint64_t offset,
                    std::uint64_t size, std::uint64_t align) {
  out.u32(name).u32(type).u64(flags).u64(0).u64(offset).u64(size).u32(0).u32(0).u64(align).u64(0);
}

void program_header(Bytes& out, std::uint64_t type, std::uint64_t flags, std::uint64_t offset, std::uint64_t size,
                    std::uint64_t align) {
  out.u32(type).u32(flags).u64(offset).u64(offset).u64(offset).u64(size).u64(size).u64(align);
}

std::string pad4(std::string data) {
  data.append((4 - data.size() % 4) % 4, '\0');
  return data;
}

}  // namespace

std::string fatbin_container(const std::vector<FatbinEntrySpec>& entries) {
  Bytes body;
  for (const auto& entry : entries) {
    body.u16(static_cast<std::uint64_t>(entry.kind)).u16(0x0101).u32(64).u64(8).u32(8).u32(0);
    body.u16(static_cast<std::uint64_t>(entry.minor)).u16(static_cast<std::uint64_t>(entry.major));
    body.u32(static_cast<std::uint64_t>(entry.arch));
    body.u32(0).u32(0).u64(entry.flags | 0x11).u64(0).u64(8);  // 0x11: 64-bit, Linux
    body.zeros(8);                                             // the payload
  }
  Bytes out;
  out.u32(0xBA55ED50).u16(1).u16(16).u64(body.size()).text(body.str());
  return out.str();
}

std::string tiny_elf(const TinyElfSpec& spec) {
  std::string strings(1, '\0');
  std::map<std::string, std::uint64_t> offsets;
  std::vector<const std::string*> texts{&spec.soname};
  for (const auto& name : spec.needed) texts.push_back(&name);
  if (spec.runpath) texts.push_back(&*spec.runpath);
  if (spec.rpath) texts.push_back(&*spec.rpath);
  for (const auto* text : texts)
    if (offsets.emplace(*text, strings.size()).second) strings += *text + '\0';

  const std::uint64_t strtab_offset = 64 + 2 * 56;
  const std::uint64_t dynamic_offset = strtab_offset + align8(strings.size());
  Bytes dynamic;
  dynamic.u64(14).u64(offsets[spec.soname]);  // DT_SONAME
  for (const auto& name : spec.needed) dynamic.u64(1).u64(offsets[name]);
  if (spec.runpath) dynamic.u64(29).u64(offsets[*spec.runpath]);
  if (spec.rpath) dynamic.u64(15).u64(offsets[*spec.rpath]);
  dynamic.u64(5).u64(strtab_offset).u64(10).u64(strings.size()).u64(0).u64(0);
  const std::uint64_t size = dynamic_offset + dynamic.size();

  Bytes elf;
  elf_header(elf, {.machine = spec.machine, .phoff = 64, .phentsize = 56, .phnum = 2});
  program_header(elf, 1, 5, 0, size, 0x1000);  // PT_LOAD: the whole file
  program_header(elf, 2, 6, dynamic_offset, dynamic.size(), 8);
  elf.text(strings).zeros(dynamic_offset - elf.size()).text(dynamic.str());

  struct Extra {
    std::string name;
    std::uint64_t type;
    std::string data;
  };
  std::vector<Extra> extras;
  if (spec.fwd_note) {  // cuda-compat's libcuda: owner "NVIDIA Corporation", a JSON payload
    const std::string owner("NVIDIA Corporation\0", 19), desc = *spec.fwd_note + '\0';
    Bytes note;
    note.u32(owner.size()).u32(desc.size()).u32(1).text(pad4(owner)).text(pad4(desc));
    extras.push_back({".note.cuda.fwd_compatibility", 7, note.str()});
  }
  if (spec.fatbin) extras.push_back({".nv_fatbin", 1, fatbin_container(*spec.fatbin)});
  if (extras.empty()) return elf.str();

  std::string names(1, '\0');
  Bytes sections;
  section_header(sections, 0, 0, 0, 0, 0, 4);
  for (const auto& extra : extras) {
    elf.align(8);
    section_header(sections, names.size(), extra.type, 0, elf.size(), extra.data.size(), 4);
    elf.text(extra.data);
    names += extra.name + '\0';
  }
  const std::string shstrtab(".shstrtab\0", 10);
  section_header(sections, names.size(), 3, 0, elf.size(), names.size() + shstrtab.size(), 4);
  elf.text(names).text(shstrtab).align(8);
  const std::uint64_t shoff = elf.size();
  elf.text(sections.str());
  // Patch e_shoff, e_shnum and e_shstrndx now that the section table is placed.
  const int count = static_cast<int>(extras.size()) + 2;
  Bytes patch;
  patch.u64(shoff);
  elf.str().replace(40, 8, patch.str());
  Bytes counts;
  counts.u16(64).u16(static_cast<std::uint64_t>(count)).u16(static_cast<std::uint64_t>(count - 1));
  elf.str().replace(58, 6, counts.str());
  return elf.str();
}

std::string fatbin_elf(const std::vector<FatbinEntrySpec>& entries, bool damaged) {
  std::string fatbin = fatbin_container(entries);
  if (damaged) {
    Bytes claimed;
    claimed.u64(std::uint64_t{1} << 40);
    fatbin.replace(8, 8, claimed.str());
  }
  const std::string names("\0.nv_fatbin\0.shstrtab\0", 22);
  const std::uint64_t data_at = 64, names_at = data_at + fatbin.size();
  const std::uint64_t table_at = align8(names_at + names.size());
  Bytes out;
  elf_header(out, {.shoff = table_at, .phentsize = 56, .shnum = 3, .shstrndx = 2});
  out.text(fatbin).text(names).zeros(table_at - out.size()).zeros(64);
  section_header(out, 1, 1, 2, data_at, fatbin.size(), 8);
  section_header(out, 12, 3, 0, names_at, names.size(), 1);
  return out.str();
}

std::string tiny_module(const std::vector<std::pair<std::string, std::string>>& modinfo, bool signed_) {
  std::string info;
  for (const auto& [key, value] : modinfo) info += key + "=" + value + '\0';
  const std::string shstrtab("\0.modinfo\0.shstrtab\0", 20);
  const std::uint64_t info_offset = 64, shstr_offset = info_offset + info.size();
  const std::uint64_t shoff = align8(shstr_offset + shstrtab.size());
  Bytes out;
  elf_header(out, {.type = 1, .shoff = shoff, .shnum = 3, .shstrndx = 2});  // ET_REL
  out.text(info).text(shstrtab).zeros(shoff - out.size()).zeros(64);
  section_header(out, 1, 1, 2, info_offset, info.size(), 1);
  section_header(out, 10, 3, 0, shstr_offset, shstrtab.size(), 1);
  if (signed_) {
    const std::string pkcs7(64, '\x30');  // stands in for the DER signature; nobody here verifies it
    out.text(pkcs7);
    // struct module_signature: algo, hash, id_type (2: PKCS#7), signer_len, key_id_len, pad[3], __be32 sig_len.
    out.text(std::string("\0\0\x02\0\0\0\0\0\0\0\0\x40", 12)).text("~Module signature appended~\n");
  }
  return out.str();
}

std::string go_program(const std::string& go_version, const std::string& module_lines, bool pre_1_18) {
  auto uvarint = [](Bytes& out, std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) out.text(std::string(1, static_cast<char>((value & 0x7f) | 0x80)));
    out.text(std::string(1, static_cast<char>(value)));
  };
  // runtime/debug's frame around the module information (its modinfoStart and modinfoEnd).
  constexpr unsigned char k_start[16] = {0x30, 0x77, 0xaf, 0x0c, 0x92, 0x74, 0x08, 0x02,
                                         0x41, 0xe1, 0xc1, 0x07, 0xe6, 0xd6, 0x18, 0xe6};
  constexpr unsigned char k_end[16] = {0xf9, 0x32, 0x43, 0x31, 0x86, 0x18, 0x20, 0x72,
                                       0x00, 0x82, 0x42, 0x10, 0x41, 0x16, 0xd8, 0xf2};
  const std::string framed = std::string(reinterpret_cast<const char*>(k_start), 16) + module_lines +
                             std::string(reinterpret_cast<const char*>(k_end), 16);
  Bytes info;
  info.text("\xff Go buildinf:").text(std::string(1, '\x08')).text(std::string(1, pre_1_18 ? '\0' : '\x02')).zeros(16);
  uvarint(info, go_version.size());
  info.text(go_version);
  uvarint(info, framed.size());
  info.text(framed);
  const std::string names("\0.go.buildinfo\0.shstrtab\0", 25);
  const std::uint64_t data_at = 64, names_at = data_at + info.size();
  const std::uint64_t table_at = align8(names_at + names.size());
  Bytes out;
  elf_header(out, {.type = 2, .shoff = table_at, .shnum = 3, .shstrndx = 2});
  out.text(info.str()).text(names).zeros(table_at - out.size()).zeros(64);
  section_header(out, 1, 1, 3, data_at, info.size(), 16);  // SHF_WRITE | SHF_ALLOC, as the Go linker marks it
  section_header(out, 15, 3, 0, names_at, names.size(), 1);
  return out.str();
}

std::string ld_cache(const std::vector<LdCacheEntrySpec>& given) {
  // In ldconfig's order, descending by _dl_cache_libcmp, which glibc's binary
  // search relies on; entries of one name keep the order they are given in.
  auto entries = given;
  std::stable_sort(entries.begin(), entries.end(),
                   [](const LdCacheEntrySpec& a, const LdCacheEntrySpec& b) { return cache_libcmp(a.soname, b.soname) > 0; });
  const std::uint64_t base = 48 + 24 * entries.size();
  std::string strings;
  Bytes table;
  for (const auto& entry : entries) {
    const std::uint64_t key = base + strings.size();
    strings += entry.soname + '\0';
    const std::uint64_t value = base + strings.size();
    strings += entry.path + '\0';
    table.u32(entry.flags).u32(key).u32(value).u32(0).u64(0);  // flags, key, value, osversion, hwcap
  }
  Bytes out;
  out.text("glibc-ld.so.cache1.1").u32(entries.size()).u32(strings.size());
  out.text(std::string("\x02\0\0\0", 4)).u32(0).zeros(12);  // little-endian; no extension section
  out.text(table.str()).text(strings);
  return out.str();
}

std::string pci_vpd(const std::string& identifier, const std::vector<std::pair<std::string, std::string>>& read_only) {
  auto large_tag = [](std::string& out, char tag, std::size_t length) {
    out += tag;
    out += static_cast<char>(length & 0xff);
    out += static_cast<char>(length >> 8);
  };
  std::string fields;
  for (const auto& [keyword, value] : read_only) fields += keyword.substr(0, 2) + static_cast<char>(std::min<std::size_t>(value.size(), 255)) + value.substr(0, 255);
  std::string out;
  large_tag(out, '\x82', identifier.size());
  out += identifier;
  large_tag(out, '\x90', fields.size() + 3 + 2);  // the fields, RV's header, its checksum and one reserved byte
  out += fields + "RV" + static_cast<char>(2);
  unsigned sum = 0;
  for (const unsigned char byte : out) sum += byte;
  out += static_cast<char>((256 - sum % 256) % 256);
  out += '\0';
  out += '\x78';
  return out;
}

}  // namespace gd
