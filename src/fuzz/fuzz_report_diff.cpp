// libFuzzer target: any bytes as the two reports `gpudoctor diff A B` reads
// (split at the first NUL), each parsed as JSON when it is, then diffed and
// rendered as text and as JSON.
#include "report/report_diff.h"

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

boost::json::object as_report(std::string_view text) {
  boost::system::error_code error;
  auto value = boost::json::parse(text, error);
  if (error || !value.is_object()) return {};
  return value.as_object();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto split = bytes.find('\0');
  const auto a = as_report(bytes.substr(0, split));
  const auto b = as_report(split == std::string_view::npos ? std::string_view() : bytes.substr(split + 1));
  const auto diff = gd::diff_reports(a, b);
  (void)gd::render_diff_text(diff, "a.json", "b.json").size();
  (void)gd::diff_to_json(diff, "a.json", "b.json").size();
  return 0;
}
