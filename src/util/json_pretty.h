#pragma once
// JSON as gpudoctor prints it: indented for people (reports and snapshots are
// read in tickets) or on one line for logs, numbers always as plain decimals
// (700, 41.7; Boost.JSON alone would print 7E2).

#include <boost/json.hpp>

#include <string>

namespace gd {

std::string pretty_json(const boost::json::value& value);
std::string compact_json(const boost::json::value& value);

// A double as JSON: the shortest plain decimal that reads back the same; null
// for what JSON cannot hold (NaN, infinities).
std::string json_number(double value);

}  // namespace gd
