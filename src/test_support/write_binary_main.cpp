// write_binary: the binary writers of test_support for the scenario
// generator (tools/scenarios/binaries.py), so that one writer per format
// serves both. Reads one JSON request a line on stdin and answers each with
// "<length>\n" and the file's bytes on stdout:
//   {"format": "elf", "soname": ..., "needed": [...], "runpath": ..., "rpath": ...,
//    "machine": 62, "fwd_note": "<json text>", "fatbin": [[kind, arch, major, minor], ...]}
//   {"format": "fatbin_elf", "entries": [...], "damaged": false}
//   {"format": "module", "modinfo": [[key, value], ...], "signed": false}
//   {"format": "go_program", "go": "go1.23.8", "modules": "path\t...\nmod\t...\n", "pre_1_18": false}
//   {"format": "ld_cache", "entries": [[soname, path], ...], "flags": 771}
// A bad request ends it with exit 2 and the reason on stderr.

#include "test_support/binary_writer.h"
#include "util/json_fields.h"

#include <boost/json.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

namespace {

namespace json = boost::json;

std::vector<gd::FatbinEntrySpec> fatbin_entries(const json::value& list) {
  std::vector<gd::FatbinEntrySpec> entries;
  for (const auto& item : list.as_array()) {
    const auto& fields = item.as_array();
    entries.push_back({.kind = static_cast<int>(fields.at(0).as_int64()),
                       .arch = static_cast<int>(fields.at(1).as_int64()),
                       .major = static_cast<int>(fields.at(2).as_int64()),
                       .minor = static_cast<int>(fields.at(3).as_int64())});
  }
  return entries;
}

std::optional<std::string> text(const json::object& request, const char* key) {
  const auto* value = request.if_contains(key);
  if (!value || value->is_null()) return std::nullopt;
  return std::string(value->as_string());
}

std::string answer(const json::object& request) {
  const std::string format = gd::string_field(request, "format");
  if (format == "elf") {
    gd::TinyElfSpec spec{.soname = std::string(request.at("soname").as_string())};
    if (const auto* needed = request.if_contains("needed"))
      for (const auto& name : needed->as_array()) spec.needed.emplace_back(name.as_string());
    spec.runpath = text(request, "runpath");
    spec.rpath = text(request, "rpath");
    if (const auto machine = gd::int_field(request, "machine")) spec.machine = static_cast<int>(*machine);
    spec.fwd_note = text(request, "fwd_note");
    if (const auto* fatbin = request.if_contains("fatbin"); fatbin && !fatbin->is_null()) spec.fatbin = fatbin_entries(*fatbin);
    return gd::tiny_elf(spec);
  }
  if (format == "fatbin_elf") return gd::fatbin_elf(fatbin_entries(request.at("entries")), gd::bool_field(request, "damaged").value_or(false));
  if (format == "module") {
    std::vector<std::pair<std::string, std::string>> modinfo;
    for (const auto& pair : request.at("modinfo").as_array())
      modinfo.emplace_back(pair.as_array().at(0).as_string(), pair.as_array().at(1).as_string());
    return gd::tiny_module(modinfo, gd::bool_field(request, "signed").value_or(false));
  }
  if (format == "go_program")
    return gd::go_program(gd::string_field(request, "go"), gd::string_field(request, "modules"), gd::bool_field(request, "pre_1_18").value_or(false));
  if (format == "ld_cache") {
    const auto flags = static_cast<std::uint32_t>(gd::int_field(request, "flags").value_or(0x0303));
    std::vector<gd::LdCacheEntrySpec> entries;
    for (const auto& pair : request.at("entries").as_array())
      entries.push_back({std::string(pair.as_array().at(0).as_string()), std::string(pair.as_array().at(1).as_string()), flags});
    return gd::ld_cache(entries);
  }
  if (format == "pci_vpd") {
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& pair : request.at("read_only").as_array())
      fields.emplace_back(pair.as_array().at(0).as_string(), pair.as_array().at(1).as_string());
    return gd::pci_vpd(gd::string_field(request, "identifier"), fields);
  }
  throw std::invalid_argument("unknown format \"" + format + "\"");
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    try {
      const std::string bytes = answer(json::parse(line).as_object());
      std::cout << bytes.size() << '\n';
      std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      std::cout.flush();
    } catch (const std::exception& error) {
      std::cerr << "write_binary: " << error.what() << " in: " << line << '\n';
      return 2;
    }
  }
  return 0;
}
