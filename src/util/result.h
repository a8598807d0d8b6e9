#pragma once
// Fallible functions return Result<T>: a value or an errno-style error code.
// Exceptions are kept for programmer errors and fatal CLI problems (see main).

#include <boost/system/result.hpp>

#include <string>
#include <initializer_list>
#include <system_error>
#include <vector>

namespace gd {

template <class T>
using Result = boost::system::result<T, std::error_code>;

inline std::error_code errno_code(int error_number) {
  return {error_number, std::generic_category()};
}

// "ENOENT", "EPERM", ...; "E<number>" for anything unnamed.
std::string errno_name(int error_number);
inline std::string errno_name(const std::error_code& error) { return errno_name(error.value()); }

// "SIGSEGV" for 11; "signal N" for one without a name here.
std::string signal_name(int signal_number);

// Inverse of errno_name; 0 when the name is unknown.
int errno_from_name(const std::string& name);

// "ok" and every name errno_name gives, then `also`: the values of a fact
// that says how reading or opening something went.
std::vector<std::string> read_outcome_names(std::initializer_list<const char*> also = {});

}  // namespace gd
