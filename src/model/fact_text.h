#pragma once
// A fact value as a person reads it in a report or a rule's message: lists
// comma-separated, objects by their "name" or "path", text escaped.

#include <boost/json.hpp>

#include <string>

namespace gd {

std::string format_fact(const boost::json::value& value);

}  // namespace gd
