#pragma once
// How a child that did not answer normally ended, said the same way for
// every kind of child evidence (nvidia-smi, the driver probe): it could not
// be asked (not-run under --root, not-recorded in a replay, cannot-start),
// it was stopped at its deadline (timed-out), or a signal killed it
// (crashed, with the signal's number and name).

#include "facts/child_status.h"
#include "child/child_evidence.h"
#include "util/result.h"

#include <string>

namespace gd {

// The status for a child that could not be asked at all (answer.error).
inline ChildStatus unasked_status(const std::string& error) {
  return error == "ENOSYS" ? ChildStatus::not_run : error == "not-recorded" ? ChildStatus::not_recorded : ChildStatus::cannot_start;
}

// Sets status, signal and signal_name when the child timed out or was
// killed; returns whether it did. Facts: any struct with those fields.
template <class Facts>
bool note_abnormal_end(const ChildAnswer& answer, Facts& facts) {
  if (answer.timed_out) {
    facts.status = ChildStatus::timed_out;
    return true;
  }
  if (answer.signal) {
    facts.status = ChildStatus::crashed;
    facts.signal = *answer.signal;
    facts.signal_name = signal_name(*answer.signal);
    return true;
  }
  return false;
}

}  // namespace gd
