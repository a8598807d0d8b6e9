// The test binaries' entry: doctest, except that `__child` answers as the
// gpudoctor binary does, so the live host can re-execute the test binary
// for child evidence (a device open) exactly as it re-executes gpudoctor.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "child/child_main.h"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == gd::k_child_command)
    return gd::child_main(std::vector<std::string>(argv + 2, argv + argc));
  doctest::Context context(argc, argv);
  return context.run();
}
