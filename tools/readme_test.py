#!/usr/bin/env python3
"""The README's example report is the output of the command it shows: the
first ```text block starts with `$ gpudoctor ...`, which is run here against
the generated scenarios; the rest of the block must be exactly its output.
With --update, the block is rewritten from the output instead.

usage: readme_test.py GPUDOCTOR README SCENARIOS_DIR [--update]"""

import shlex
import subprocess
import sys

gpudoctor, readme, scenarios = sys.argv[1:4]
update = "--update" in sys.argv[4:]
text = open(readme, encoding="utf-8").read()
start = text.index("```text\n") + len("```text\n")
end = text.index("```", start)
block = text[start:end]
command_line = block.splitlines()[0]
if not command_line.startswith("$ gpudoctor "):
    sys.exit(f"FAIL: the README's example starts with {command_line!r}, not '$ gpudoctor ...'")
args = [a.replace("build/testdata/snapshots", scenarios) for a in shlex.split(command_line[2:])[1:]]
output = subprocess.run([gpudoctor, *args], capture_output=True, text=True).stdout
shown = block[len(command_line) + 1:]
if update:
    open(readme, "w", encoding="utf-8").write(text[:start] + command_line + "\n" + output + text[end:])
    print("README example rewritten from", " ".join(args))
elif shown != output:
    import difflib
    print("FAIL: the README's example is not what `" + command_line[2:] + "` prints now:")
    print("".join(difflib.unified_diff(shown.splitlines(True), output.splitlines(True), "README.md", "output")))
    print("regenerate it: python3 tools/readme_test.py build/gpudoctor README.md build/testdata/snapshots --update")
    sys.exit(1)
else:
    print("the README's example is the output of its command")
