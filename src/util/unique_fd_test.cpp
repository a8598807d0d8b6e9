#include "util/unique_fd.h"

#include <doctest/doctest.h>

#include <fcntl.h>

#include <cerrno>

namespace gd {
namespace {

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

}  // namespace

TEST_CASE("a UniqueFd closes what it owns once, and moving hands the descriptor on") {
  int raw = -1;
  {
    UniqueFd first(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    REQUIRE(first.valid());
    raw = first.get();
    UniqueFd second(std::move(first));
    CHECK_FALSE(first.valid());
    CHECK(second.get() == raw);
    UniqueFd third;
    third = std::move(second);
    CHECK(is_open(raw));
  }
  CHECK_FALSE(is_open(raw));

  UniqueFd kept(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int given_up = kept.release();
  kept.reset();
  CHECK(is_open(given_up));  // release() gives it up without closing
  UniqueFd(given_up).reset();
  CHECK_FALSE(is_open(given_up));
}

}  // namespace gd
