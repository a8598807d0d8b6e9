#pragma once
// Boost.JSON prints on one line; reports and snapshots are read by people.

#include <boost/json.hpp>

#include <string>

namespace gd {

std::string pretty_json(const boost::json::value& value);

}  // namespace gd
