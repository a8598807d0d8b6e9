#pragma once
// A throw-away directory for tests, removed with everything in it.

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <stdlib.h>

namespace gd {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpudoctor-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return m_path; }
  std::string operator/(const std::string& relative) const { return m_path + "/" + relative; }

  void write(const std::string& relative, const std::string& content) const {
    const std::filesystem::path file = m_path + "/" + relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
  }
  void mkdir(const std::string& relative) const { std::filesystem::create_directories(m_path + "/" + relative); }
  void symlink(const std::string& relative, const std::string& target) const {
    const std::filesystem::path link = m_path + "/" + relative;
    std::filesystem::create_directories(link.parent_path());
    std::filesystem::create_symlink(target, link);
  }

 private:
  std::string m_path;
};

}  // namespace gd
