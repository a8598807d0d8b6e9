#include "model/status.h"

namespace gd {

Status status_for(Severity severity) {
  switch (severity) {
    case Severity::fail: return Status::fail;
    case Severity::warn: return Status::warn;
    case Severity::info: return Status::ok;
  }
  return Status::ok;
}

}  // namespace gd
