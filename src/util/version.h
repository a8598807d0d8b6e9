#pragma once
// One Version type for driver and CUDA versions: dotted numbers compared
// component by component (535.104.05 > 535.54.03, 12.10 > 12.9), with the
// text kept as written because zero padding is part of a driver's name.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

class Version {
 public:
  // Accepts 1 to 4 dot-separated decimal components, nothing else.
  static std::optional<Version> parse(std::string_view text);

  const std::string& text() const { return m_text; }
  std::uint32_t component(std::size_t index) const;
  std::uint32_t major() const { return component(0); }
  std::uint32_t minor() const { return component(1); }
  std::size_t size() const { return m_components.size(); }

  // Missing trailing components count as zero, so 12 == 12.0.
  std::strong_ordering operator<=>(const Version& other) const;
  bool operator==(const Version& other) const { return (*this <=> other) == 0; }

 private:
  std::string m_text;
  std::vector<std::uint32_t> m_components;
};

// Finds the first driver-style version (NNN.NN or NNN.NN.NN) inside free text.
std::optional<Version> find_driver_version(std::string_view text);

}  // namespace gd
