#include "formats/bounded_yaml.h"

#include "util/text.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>
#include <string>

namespace gd {
namespace {

struct TooManyNodes {};

// Counts nodes as the parser meets them; throws to stop it at the bound.
class NodeCounter final : public YAML::EventHandler {
 public:
  explicit NodeCounter(std::size_t most) : m_most(most) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { count(); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { count(); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { count(); }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { count(); }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { count(); }
  void OnMapEnd() override {}

 private:
  void count() {
    if (++m_seen > m_most) throw TooManyNodes{};
  }
  std::size_t m_most, m_seen = 0;
};

}  // namespace

Checked<YAML::Node> load_bounded_yaml(std::string_view text, YamlBounds bounds) {
  if (flow_nesting(text) > bounds.max_nesting)
    return problem("flow collections nested more than " + std::to_string(bounds.max_nesting) + " deep");
  const std::string copy(text);
  try {
    std::istringstream stream(copy);
    YAML::Parser parser(stream);
    NodeCounter counter(bounds.max_nodes);
    parser.HandleNextDocument(counter);
  } catch (const TooManyNodes&) {
    return problem("more than " + std::to_string(bounds.max_nodes) + " nodes");
  } catch (const YAML::Exception& error) {
    return problem("not YAML: line " + std::to_string(error.mark.line + 1) + ": " + printable(error.msg, 120));
  }
  try {
    return YAML::Load(copy);
  } catch (const YAML::Exception& error) {
    return problem("not YAML: line " + std::to_string(error.mark.line + 1) + ": " + printable(error.msg, 120));
  }
}

}  // namespace gd
