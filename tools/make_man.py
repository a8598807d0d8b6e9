#!/usr/bin/env python3
"""Writes gpudoctor(1) and the bash and zsh completions from one source: the
binary's own help (`gpudoctor --help` and `gpudoctor COMMAND --help`), so
that they cannot drift from it. Run by meson at build time.

Usage: make_man.py GPUDOCTOR MAN_OUT BASH_OUT ZSH_OUT
"""
import json
import re
import subprocess
import sys


def run(gpudoctor, *args):
    return subprocess.run([gpudoctor, *args], capture_output=True, text=True, check=True).stdout


def roff(text):
    return text.replace("\\", "\\e").replace("-", "\\-").replace("'", "\\(aq")


def commands_of(usage):
    section = usage.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    names = []
    for line in section.splitlines():
        match = re.match(r"  ([a-z]+)", line)
        if match and match.group(1) not in names:
            names.append(match.group(1))
    return names


def option_entries(text):
    """(names, value, description) of every option line: '  -v, --verbose   show every fact'."""
    section = text.split("options:\n", 1)[1].split("\n\n", 1)[0]
    entries = []
    for line in section.splitlines():
        match = re.match(r"^  (-\S.*?)(?:\s{2,}(.*))?$", line)
        if not match:
            if entries and line.strip() and entries[-1][2] == "":
                entries[-1] = (entries[-1][0], entries[-1][1], line.strip())
            continue
        words = match.group(1).replace(",", " ").split()
        names = [w for w in words if w.startswith("-") and w != "--"]
        values = [w for w in words if not w.startswith("-")]
        if names:
            entries.append((names, values[0] if values else "", (match.group(2) or "").strip()))
    return entries


def options_of(text):
    return sorted({name for names, _, _ in option_entries(text) for name in names})


def choices(value):
    """The completable values of an option's value: 'auto|always|never' -> [...]; 'DIR' -> []."""
    return value.split("|") if value and value == value.lower() else []


def main():
    gpudoctor, man_out, bash_out, zsh_out = sys.argv[1:5]
    usage = run(gpudoctor, "--help")
    version = run(gpudoctor, "--version").split()[-1]
    commands = commands_of(usage)
    man = [f'.TH GPUDOCTOR 1 "" "gpudoctor {version}" "User Commands"', ".SH NAME",
           "gpudoctor \\- diagnose the NVIDIA GPU software stack, layer by layer", ".SH SYNOPSIS",
           ".B gpudoctor\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]", ".SH DESCRIPTION",
           roff(usage.split("\n\n", 2)[1]), ".SH COMMANDS"]
    per_command = {}
    for command in commands:
        text = run(gpudoctor, command, "--help")
        per_command[command] = text
        if not text.startswith("usage:"):
            continue
        synopsis, rest = text.split("\n\n", 1)
        man += [".TP", f"\\fB{roff(synopsis[len('usage: '):])}\\fR", roff(rest.split("\n\n", 1)[0]).replace("\n", " ")]
    man += [".SH OPTIONS", ".nf", roff(usage.split("options:\n", 1)[1].split("\n\nexit status", 1)[0]), ".fi",
            ".SH EXIT STATUS", "0: no layer fails (warnings allowed); 1: a layer fails; 2: gpudoctor could not run.",
            ".SH SEE ALSO", "The documentation in docs/ of the source tree: layers.md, rules.md, fleet.md."]
    with open(man_out, "w") as handle:
        handle.write("\n".join(man) + "\n")

    all_options = options_of(usage)
    summaries = dict(re.findall(r"^  ([a-z]+) +(.+)$", usage.split("commands:\n", 1)[1].split("\n\n", 1)[0], re.M))
    rules = [rule["id"] for rule in json.loads(run(gpudoctor, "rules", "--format", "json"))["rules"]]
    # Per command: its options, and the values of those that take a fixed set.
    cases, value_cases, zsh_cases = [], [], []
    for c in commands:
        entries = option_entries(per_command[c]) if per_command[c].startswith("usage:") else []
        cases.append(f"    {c}) opts=\"{' '.join(options_of(per_command[c]))}\" ;;")
        for names, value, _ in entries:
            if choices(value):
                value_cases.append(f"    {'|'.join(c + ':' + n for n in names)}) COMPREPLY=($(compgen -W \"{' '.join(choices(value))}\" -- \"$cur\")); return ;;")
        specs = []
        for names, value, description in entries:
            description = description.replace("'", "").replace("[", "(").replace("]", ")").replace(":", " -")
            argument = (":" + value + ":(" + " ".join(choices(value)) + ")") if choices(value) else (":" + value + ":_files" if value else "")
            for name in names:
                specs.append(f"'{name}[{description}]{argument}'")
        zsh_cases.append(f"    {c}) _arguments -s {' '.join(specs)} '*:file:_files' ;;")
    value_patterns = "\n".join(sorted(set(value_cases)))
    with open(bash_out, "w") as handle:
        handle.write(f"""# bash completion for gpudoctor (generated from its --help by tools/make_man.py)
_gpudoctor() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} command=${{COMP_WORDS[1]}} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{' '.join(commands)} {' '.join(all_options)}" -- "$cur"))
    return
  fi
  case "$command:$prev" in
{value_patterns}
    explain:explain) COMPREPLY=($(compgen -W "{' '.join(rules)}" -- "$cur")); return ;;
  esac
  case "$command" in
{chr(10).join(cases)}
    *) opts="{' '.join(all_options)}" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    # Files and directories; -o filenames gives directories their slash.
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _gpudoctor gpudoctor
""")
    with open(zsh_out, "w") as handle:
        handle.write(f"""#compdef gpudoctor
# zsh completion for gpudoctor (generated from its --help by tools/make_man.py)
_gpudoctor() {{
  if (( CURRENT == 2 )); then
    local -a commands
    commands=({' '.join("'" + c + ":" + summaries.get(c, "").replace("'", "").replace(":", " -") + "'" for c in commands)})
    _describe 'command' commands
    return
  fi
  if [[ $words[2] == explain && CURRENT == 3 ]]; then
    compadd -- {' '.join(rules)}
    return
  fi
  case $words[2] in
""" + "\n".join(zsh_cases) + """
    *) _files ;;
  esac
}
_gpudoctor "$@"
""")


if __name__ == "__main__":
    main()
