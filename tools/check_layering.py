#!/usr/bin/env python3
"""Fails when a source file includes a folder its own folder may not use.

Usage: check_layering.py SRC_DIR [ARCHITECTURE_MD]

The table is the one in docs/ARCHITECTURE.md ("Folders (src/)"), read from
there so that there is one copy: each row's first cell names a folder of
src/, its last cell the folders it may use besides itself ("—" for none).
Tests (*_test.cpp) follow their folder's row and may also use test_support/.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROW = re.compile(r'^\|\s*`([a-z_]+)/`\s*\|.*\|\s*([^|]*?)\s*\|\s*$')


def read_table(doc_path: str) -> dict:
    """The folder -> allowed folders table of the doc's "Folders" section."""
    allowed = {}
    in_section = False
    with open(doc_path, encoding='utf-8') as handle:
        for line in handle:
            if line.startswith('## '):
                in_section = line.startswith('## Folders')
                continue
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
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
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
                if target in table and target not in allowed:
                    problems.append(f'{folder}/{name}: includes "{included}", but {folder}/ may not use {target}/')
    for problem in problems:
        print(problem)
    print(f'layering: {len(problems)} problem(s) against {len(table)} folders')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
