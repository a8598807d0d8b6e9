#pragma once
// Parsing and validation answer Checked<T>: the value, or a Problem saying
// what was wrong with the input, in words for the user (the model is ccache's
// tl::expected<T, std::string>). System calls answer Result<T> (an errno);
// a parser that keeps what it could read of damaged evidence returns that
// value with its problems beside it, because there the damage is a fact.

#include <string>
#include <utility>
#include <variant>

namespace gd {

struct Problem {
  std::string message;
};

inline Problem problem(std::string message) { return Problem{std::move(message)}; }

// E is Problem, or a richer error with a message (ElfError also says which
// kind of damage, because the loader treats them differently).
template <class T = void, class E = Problem>
class [[nodiscard]] Checked {
 public:
  Checked(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
  Checked(E problem) : m_state(std::in_place_index<1>, std::move(problem)) {}

  explicit operator bool() const { return m_state.index() == 0; }
  T& operator*() & { return std::get<0>(m_state); }
  const T& operator*() const& { return std::get<0>(m_state); }
  T&& operator*() && { return std::get<0>(std::move(m_state)); }
  T* operator->() { return &std::get<0>(m_state); }
  const T* operator->() const { return &std::get<0>(m_state); }

  const E& problem() const { return std::get<1>(m_state); }
  const std::string& error() const { return problem().message; }

 private:
  std::variant<T, E> m_state;
};

// Success carries nothing: `return {};`, or a Problem.
template <class E>
class [[nodiscard]] Checked<void, E> {
 public:
  Checked() = default;
  Checked(E problem) : m_problem(std::move(problem)), m_failed(true) {}

  explicit operator bool() const { return !m_failed; }
  const E& problem() const { return m_problem; }
  const std::string& error() const { return m_problem.message; }

 private:
  E m_problem{};
  bool m_failed = false;
};

}  // namespace gd
