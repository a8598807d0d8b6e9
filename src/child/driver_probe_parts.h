#pragma once
// What the driver probe's two halves (cuda_probe.cpp, nvml_probe.cpp) share:
// the one-JSON-object-a-line output and the dlopen-ed library. Only the
// child process includes this.

#include <boost/json.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <string>

namespace gd::driver_probe {
namespace json = boost::json;

// The protocol gets a descriptor of its own, taken before any library is
// loaded: stdout moves there and fd 1 becomes a copy of stderr, so what a
// libcuda or a shim prints to stdout lands among its other messages instead
// of inside the protocol. The parent still reads the protocol from the pipe
// it gave as stdout.
void take_protocol_channel();
// One answer, written at once, so that a killed child leaves every line it had.
void say(const json::object& line);
// Announced before a call that may hang or crash: the parent's last clue.
void begin(const char* step);
// Text from the driver, cut at MAX and with control bytes replaced.
std::string bounded(const char* text, std::size_t max);
// The driver's libraries this process really mapped.
void say_mapped();

// Symbols are looked up by name; one the library lacks (an old driver) is
// reported as missing, never called.
class Library {
 public:
  explicit Library(const char* name) : m_handle(::dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
    json::object line{{"library", name}, {"loaded", m_handle != nullptr}};
    if (!m_handle) line["error"] = bounded(::dlerror(), 400);
    say(line);
  }
  explicit operator bool() const { return m_handle != nullptr; }

  template <class Function>
  Function* get(const char* symbol) const {
    return reinterpret_cast<Function*>(::dlsym(m_handle, symbol));
  }

 private:
  void* m_handle;
};

int probe_cuda(bool smoke);

struct NvmlAsk {
  // Only what `gpudoctor gpus` shows (no health counters, processes or
  // fabric, whose calls cost the driver several times a GPU table's time).
  bool table = false;
  // A session (child_session.h): after each answer, its done line and an
  // empty line, then another answer for each line read on stdin, from the
  // one nvmlInit, until stdin closes.
  bool repeat = false;
};
int probe_nvml(NvmlAsk ask);

// A session's answer ends with an empty line.
void end_answer();
// Waits for the parent to ask again (a line on stdin); false when it never will.
bool asked_again();

}  // namespace gd::driver_probe
