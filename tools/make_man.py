#!/usr/bin/env python3
"""Writes gpudoctor(1) and the bash and zsh completions from one source: the
binary's own help (`gpudoctor --help` and `gpudoctor COMMAND --help`), so
that they cannot drift from it. Run by meson at build time.

Usage: make_man.py GPUDOCTOR MAN_OUT BASH_OUT ZSH_OUT
"""
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


def options_of(text):
    return sorted(set(re.findall(r"^  (--[a-z-]+|-[a-z])", text, re.M)))


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
    cases = "\n".join(f"    {c}) opts=\"{' '.join(options_of(per_command[c]))}\" ;;" for c in commands)
    with open(bash_out, "w") as handle:
        handle.write(f"""# bash completion for gpudoctor (generated from its --help by tools/make_man.py)
_gpudoctor() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} command=${{COMP_WORDS[1]}} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{' '.join(commands)} {' '.join(all_options)}" -- "$cur"))
    return
  fi
  case "$command" in
{cases}
    *) opts="{' '.join(all_options)}" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -F _gpudoctor gpudoctor
""")
    with open(zsh_out, "w") as handle:
        handle.write(f"""#compdef gpudoctor
# zsh completion for gpudoctor (generated from its --help by tools/make_man.py)
_gpudoctor() {{
  if (( CURRENT == 2 )); then
    compadd -- {' '.join(commands)} {' '.join(all_options)}
    return
  fi
  case $words[2] in
""" + "\n".join(f"    {c}) compadd -- {' '.join(options_of(per_command[c]))} ;;" for c in commands) + """
  esac
  _files
}
_gpudoctor "$@"
""")


if __name__ == "__main__":
    main()
