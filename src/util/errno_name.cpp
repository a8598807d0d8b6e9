#include "util/result.h"

#include <cerrno>
#include <csignal>
#include <utility>

namespace gd {
namespace {

// Only the errors a read, stat or open of our inputs can produce; the rest
// print as E<number>, which is still unambiguous.
constexpr std::pair<int, const char*> k_names[] = {
    {EPERM, "EPERM"},   {ENOENT, "ENOENT"},   {EIO, "EIO"},         {ENXIO, "ENXIO"},
    {EBADF, "EBADF"},   {EAGAIN, "EAGAIN"},   {ENOMEM, "ENOMEM"},   {EACCES, "EACCES"},
    {EBUSY, "EBUSY"},   {EEXIST, "EEXIST"},   {ENODEV, "ENODEV"},   {ENOTDIR, "ENOTDIR"},
    {EISDIR, "EISDIR"}, {EINVAL, "EINVAL"},   {ENFILE, "ENFILE"},   {EMFILE, "EMFILE"},
    {ENOTTY, "ENOTTY"}, {EFBIG, "EFBIG"},     {ENOSPC, "ENOSPC"},   {EROFS, "EROFS"},
    {ELOOP, "ELOOP"},   {ENAMETOOLONG, "ENAMETOOLONG"},             {ETIMEDOUT, "ETIMEDOUT"},
    {EOVERFLOW, "EOVERFLOW"}, {ENOEXEC, "ENOEXEC"}, {ECHILD, "ECHILD"}, {ENOSYS, "ENOSYS"},
};

}  // namespace

std::string errno_name(int error_number) {
  for (const auto& [number, name] : k_names)
    if (number == error_number) return name;
  return "E" + std::to_string(error_number);
}

int errno_from_name(const std::string& name) {
  for (const auto& [number, known] : k_names)
    if (name == known) return number;
  return 0;
}

std::vector<std::string> read_outcome_names(std::initializer_list<const char*> also) {
  std::vector<std::string> names{"ok"};
  for (const auto& [number, name] : k_names) names.emplace_back(name);
  names.insert(names.end(), also.begin(), also.end());
  return names;
}

// How a crashed child died, as a person reads it: "SIGSEGV".
std::string signal_name(int signal_number) {
  constexpr std::pair<int, const char*> k_signals[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGILL, "SIGILL"}, {SIGFPE, "SIGFPE"},
      {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}, {SIGPIPE, "SIGPIPE"},
  };
  for (const auto& [number, name] : k_signals)
    if (number == signal_number) return name;
  return "signal " + std::to_string(signal_number);
}

}  // namespace gd
