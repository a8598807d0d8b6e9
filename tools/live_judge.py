"""What the checkers of the live daemon tests share (tools/daemon_test_lib.sh's
judge_report runs them with REPORT FACTS NAME): the case's facts (KEY=VALUE
lines: what the daemon did, or the test's premise), the container layer of
gpudoctor's live check, and the problems found, printed under the case's
name and made the exit status."""
import json
import sys


class Case:
    def __init__(self):
        report_path, facts_path, self.name = sys.argv[1:4]
        self.facts = dict(line.rstrip("\n").split("=", 1) for line in open(facts_path) if "=" in line)
        self.container = next(layer for layer in json.load(open(report_path))["layers"] if layer["id"] == "container")
        self.found = {finding["rule"]: finding["severity"] for finding in self.container["findings"]}
        self.problems = []

    def engine(self, name):
        """An engine's facts (containerd's: a list), empty where the report has none."""
        return self.container["facts"].get("engines", {}).get(name) or {}

    def expect(self, rule, present, why):
        if (rule in self.found) != present:
            self.problems.append(f"{rule} {'missing' if present else 'reported'}: {why}")

    def finish(self):
        for problem in self.problems:
            print(f"  {self.name}: {problem}")
        sys.exit(1 if self.problems else 0)
