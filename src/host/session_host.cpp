#include "host/session_host.h"

namespace gd {

SessionHost::SessionHost(Host& inner, ChildRequest asked, ChildRequest session)
    : ForwardingHost(inner), m_asked_key(asked.key()), m_session_request(std::move(session)) {}

bool SessionHost::answered_by_session(const ChildRequest& request) {
  if (request.key() != m_asked_key) return false;
  if (!m_session) m_session = inner().open_session(m_session_request);
  return m_session != nullptr;
}

ChildAnswer SessionHost::ask(const ChildRequest& request) {
  if (!answered_by_session(request)) return inner().ask(request);
  ChildAnswer answer = m_session->next(request.deadline);
  const bool last = answer.exit || answer.signal || answer.timed_out || answer.error;
  if (last) m_session.reset();
  return answer;
}

void SessionHost::ask_ahead(const ChildRequest& request) {
  if (!answered_by_session(request)) inner().ask_ahead(request);
}

}  // namespace gd
