"""The tally the Python test scripts share: check(name, ok) counts, prints
each failure by name, and finish() reports and sets the exit status."""

import sys


class Checks:
    def __init__(self, suite):
        self.suite, self.passed, self.failed = suite, 0, 0

    def __call__(self, name, ok):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL:", name)
        return ok

    def finish(self):
        print(f"{self.suite}: {self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
