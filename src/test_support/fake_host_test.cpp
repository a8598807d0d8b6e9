// FakeHost, the replay's MemoryFiles and --root (RootDir, in the kernel)
// must resolve every path alike, or a test proves what the product does not do.

#include "test_support/fake_host.h"

#include "host/live_host.h"
#include "snapshot/stored_files.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <cerrno>

namespace gd {
namespace {

// One tree, three ways: files and links as (path, content or target).
struct Tree {
  std::vector<std::pair<std::string, std::string>> files, links;
};

// What each resolves a read to: the content, or the errno.
struct Answers {
  std::string fake, memory, root;
};

Answers read_all_three(const Tree& tree, const std::string& path) {
  FakeHost fake;
  MemoryFiles memory;
  TempDir dir;
  for (const auto& [name, content] : tree.files) {
    fake.file(name, content);
    memory.add_file(name, content, 0644);
    dir.write(name.substr(1), content);
  }
  for (const auto& [name, target] : tree.links) {
    fake.link(name, target);
    memory.add_link(name, target);
    dir.symlink(name.substr(1), target);
  }
  LiveHost root(dir.path());
  auto text = [](const Result<std::string>& read) {
    return read ? *read : "errno " + std::to_string(read.error().value());
  };
  return {text(fake.read_file(path, 1024)), text(memory.read_file(path, 1024)), text(root.read_file(path, 1024))};
}

}  // namespace

TEST_CASE("FakeHost resolves symlinks as the kernel does, not lexically") {
  // /a -> /b and /b/l2 -> /z/w: "/a/l2/.." is /z, so /a/l2/../f is /z/f.
  // The lexical resolver of old joined first and found /b/f, or nothing.
  const Tree tree{{{"/z/f", "through the links"}, {"/z/w/keep", ""}, {"/b/f", "lexical"}},
                  {{"/a", "/b"}, {"/b/l2", "/z/w"}}};
  const auto answers = read_all_three(tree, "/a/l2/../f");
  CHECK(answers.root == "through the links");
  CHECK(answers.memory == answers.root);
  CHECK(answers.fake == answers.root);
}

TEST_CASE("FakeHost agrees with --root and the replay on relative links, loops and files used as directories") {
  const Tree tree{{{"/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "elf"}, {"/etc/plain", "text"}},
                  {{"/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.550.54.15"},
                   {"/usr/lib64", "lib/x86_64-linux-gnu"},
                   {"/lib", "usr/lib"},
                   {"/loop1", "/loop2"},
                   {"/loop2", "/loop1"},
                   {"/up", "../../../etc"}}};
  for (const char* path : {"/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1", "/up/plain",
                           "/usr/lib64/../../etc/plain", "/loop1/x", "/etc/plain/child", "/missing/../etc/plain"}) {
    CAPTURE(path);
    const auto answers = read_all_three(tree, path);
    CHECK(answers.memory == answers.root);
    CHECK(answers.fake == answers.root);
  }
  CHECK(read_all_three(tree, "/loop1/x").fake == "errno " + std::to_string(ELOOP));
  CHECK(read_all_three(tree, "/etc/plain/child").fake == "errno " + std::to_string(ENOTDIR));
}

}  // namespace gd
