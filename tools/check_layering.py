#!/usr/bin/env python3
"""Fails where the source and docs/ARCHITECTURE.md's claims about it part.

Usage: check_layering.py SRC_DIR [ARCHITECTURE_MD]

The table is the one in docs/ARCHITECTURE.md ("Folders (src/)"), read from
there so that there is one copy: each row's first cell names a folder of
src/, its last cell the folders it may use besides itself ("—" for none).
Tests (*_test.cpp) follow their folder's row and may also use test_support/.
Checked: every include follows the table; every folder has a row and every
row a folder; every grant is used by some file (a grant nobody uses hides
the next wrong include); every row has the header's cells (an unescaped |
splits one on GitHub). And the claims a grep can check: the calls below
appear only in the files ALLOWED names for them.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROW = re.compile(r'^\|\s*`([a-z_]+)/`\s*\|.*\|\s*([^|]*?)\s*\|\s*$')
CELL_SEPARATOR = re.compile(r'(?<!\\)\|')

# What a file may do only where the doc says, and the files (paths below src/,
# or folders ending in /) that may: libraries are loaded (dlfcn.h) only in
# the child and for libpci's names; the one ioctl asks nvidiactl its version
# (and the terminal its width); only report, cli and the live host ask
# whether a stream is a terminal; exceptions are caught only at the
# boundaries that turn them into findings, problems or exit codes (and where
# interrupt_cleanup restores a signal mask before it rethrows). Tests and
# fuzz targets may catch what they test.
ALLOWED = {
    'dlopen': ['child/', 'probes/pci_names.cpp', 'probes/pci_names_test.cpp'],
    'ioctl': ['child/child_main.cpp', 'report/terminal.cpp'],
    'isatty': ['report/', 'cli/', 'host/live_host.cpp'],
    'catch': ['check/run_check.cpp', 'cli/main.cpp', 'formats/bounded_yaml.cpp', 'formats/toml_config.cpp',
              'lint/compose.cpp', 'rules/compile_rules_main.cpp', 'test_support/write_binary_main.cpp',
              'util/interrupt_cleanup.cpp', 'fuzz/'],
}
# How each shows in the code: the header the call needs (the loader simulation
# has a dlopen of its own), or the call itself, not a member's.
CALL = {
    'dlopen': re.compile(r'#\s*include\s*<dlfcn\.h>'),
    'ioctl': re.compile(r'#\s*include\s*<sys/ioctl\.h>'),
    'isatty': re.compile(r'(?<![\w.>:])(?:::)?isatty\s*\('),
    'catch': re.compile(r'\bcatch\s*\('),
}
LITERAL_OR_COMMENT = re.compile(r'R"(\w*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*(?:.|\n)*?\*/')


def code_only(text: str) -> str:
    """The text without string and character literals and comments, which may name a call without making it."""
    return LITERAL_OR_COMMENT.sub('""', text)


def allowed_for(call: str, relative: str) -> bool:
    if call == 'catch' and relative.endswith('_test.cpp'):
        return True
    return any(relative == entry or (entry.endswith('/') and relative.startswith(entry)) for entry in ALLOWED[call])


def read_table(doc_path: str) -> dict:
    """The folder -> allowed folders table of the doc's "Folders" section."""
    allowed = {}
    in_section = False
    header_cells = None
    with open(doc_path, encoding='utf-8') as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith('## '):
                in_section = line.startswith('## Folders')
                continue
            if in_section and line.startswith('|'):
                cells = len(CELL_SEPARATOR.findall(line.strip()))
                header_cells = header_cells or cells
                if cells != header_cells:
                    raise SystemExit(f'{doc_path}:{number}: the row has {cells - 1} cells where the header has '
                                     f'{header_cells - 1} (escape a | inside a cell as \\|)')
            match = ROW.match(line) if in_section else None
            if not match:
                continue
            folder, uses = match.groups()
            names = set() if uses in ('—', '-', '') else {name.strip() for name in uses.split(',')}
            allowed[folder] = names
    for folder, names in allowed.items():
        unknown = names - set(allowed)
        if unknown:
            raise SystemExit(f'{doc_path}: the row of {folder}/ names folders the table lacks: {sorted(unknown)}')
    if not allowed:
        raise SystemExit(f'{doc_path}: no "Folders" table found')
    return allowed


def main() -> int:
    src = sys.argv[1]
    doc = sys.argv[2] if len(sys.argv) > 2 else os.path.join(src, '..', 'docs', 'ARCHITECTURE.md')
    table = read_table(doc)
    problems = []
    used = {folder: set() for folder in table}
    folders = [folder for folder in sorted(os.listdir(src)) if os.path.isdir(os.path.join(src, folder))]
    for folder in sorted(set(table) - set(folders)):
        problems.append(f'{folder}/: a row of the layering table in docs/ARCHITECTURE.md, but no folder of {src}')
    for folder in folders:
        if folder not in table:
            problems.append(f'{folder}/: a folder the layering table in docs/ARCHITECTURE.md does not know')
            continue
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith(('.h', '.cpp')):
                continue
            allowed = table[folder] | {folder}
            if name.endswith('_test.cpp'):
                allowed = allowed | {'test_support'}
            with open(os.path.join(src, folder, name), encoding='utf-8') as handle:
                text = handle.read()
            for included in INCLUDE.findall(text):
                if '/' not in included:
                    continue  # gpudoctor_config.h and the like
                target = included.split('/')[0]
                used[folder].add(target)
                if target in table and target not in allowed:
                    problems.append(f'{folder}/{name}: includes "{included}", but {folder}/ may not use {target}/')
            code = code_only(text)
            relative = f'{folder}/{name}'
            for call, pattern in CALL.items():
                if pattern.search(code) and not allowed_for(call, relative):
                    problems.append(f'{relative}: uses {call}, which docs/ARCHITECTURE.md allows only in {", ".join(ALLOWED[call])}')
    for folder in sorted(table):
        for grant in sorted(table[folder] - used[folder] - {'test_support'}):
            problems.append(f'{folder}/: may use {grant}/ by the table, but no file of it includes one: drop the grant')
    for problem in problems:
        print(problem)
    print(f'layering: {len(problems)} problem(s) against {len(table)} folders')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
