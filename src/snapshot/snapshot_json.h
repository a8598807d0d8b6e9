#pragma once
// The JSON forms of the host's value types inside snapshot.json
// (docs/snapshot-format.md); snapshot/snapshot.cpp puts them together.

#include "host/host.h"
#include "snapshot/snapshot.h"

#include <boost/json.hpp>

namespace gd {

// snapshot.json keeps what was read byte for byte and is strict UTF-8, so a
// string that is not valid UTF-8 (a variable, a path, a child's output may
// hold any bytes) is written as NUL, then the bytes with each invalid one as
// \xNN and each backslash doubled. No path, variable or argument can begin
// with NUL; an output that does is written the same way, so the form is
// never ambiguous. Snapshots written before this hold the raw bytes, and
// those still read.
std::string snapshot_text(std::string_view bytes);
std::string snapshot_bytes(std::string_view text);

boost::json::object to_json(const DeviceNode& node);
boost::json::object to_json(const FileOwner& owner);
boost::json::object to_json(const Uname& uname);
boost::json::object to_json(const UserIds& user);
boost::json::object to_json(const ChildRequest& request, const ChildAnswer& answer);

// These never throw: a missing or mistyped field takes its default.
DeviceNode device_from_json(const boost::json::object& object);
FileOwner owner_from_json(const boost::json::object& object);
Uname uname_from_json(const boost::json::object& object);
UserIds user_from_json(const boost::json::object& object);
// A recorded child: its request's key and its answer. A legacy "commands"
// entry ({"argv", "stdout", ...}) reads as a command request.
RecordedChild child_from_json(const boost::json::object& object);
RecordedChild legacy_command_from_json(const boost::json::object& object);

}  // namespace gd
