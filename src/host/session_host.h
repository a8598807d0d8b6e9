#pragma once
// A host that answers one request from a child session kept open between
// checks (see ChildSession), every other question passed on: `gpus --watch`
// asks NVML for each reading without starting a child, loading the library
// and calling nvmlInit again. A session whose child exited, crashed or ran
// out of time gave its last answer; the next reading opens a new one. Where
// the inner host has no sessions (a replay, --root), each reading asks anew.

#include "host/forwarding_host.h"

#include <memory>

namespace gd {

class SessionHost final : public ForwardingHost {
 public:
  // Requests like `asked` are answered by a session opened with `session`.
  SessionHost(Host& inner, ChildRequest asked, ChildRequest session);

  ChildAnswer ask(const ChildRequest& request) override;
  // The session's request opens the session now, so the child starts
  // while the check reads files, as any child asked ahead does.
  void ask_ahead(const ChildRequest& request) override;

 private:
  bool answered_by_session(const ChildRequest& request);

  std::string m_asked_key;
  ChildRequest m_session_request;
  std::unique_ptr<ChildSession> m_session;
};

}  // namespace gd
