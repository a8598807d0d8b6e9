#pragma once
// Children's descendants never outlive gpudoctor. A child's process group is
// killed with it, but a helper that called setsid() (a wrapper's daemon, a
// libcuda that forks) leaves the group. gpudoctor makes itself the
// subreaper of its descendants (PR_SET_CHILD_SUBREAPER), so such a helper is
// reparented here when its parent ends, and is killed and reaped here.

namespace gd {

// Once per process; without the prctl (not Linux, or refused) nothing changes.
void adopt_orphaned_descendants();

// Kills and reaps every child of this process: run_child calls it after its
// child has been waited for, when the only children left are adopted ones.
// Bounded: a process stuck in the kernel (D state) is left a zombie to reap
// later rather than waited for.
void stop_adopted_descendants();

}  // namespace gd
