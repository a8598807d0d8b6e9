#!/usr/bin/env python3
"""Fails when a source file includes a folder its own folder may not use.

Usage: check_layering.py SRC_DIR

The table is the one in docs/ARCHITECTURE.md ("Folders"): each folder of
src/ may include itself and the folders listed here. Tests (*_test.cpp)
follow their folder's row and may also use test_support/.
"""
import os
import re
import sys

ALLOWED = {
    'util': set(),
    'archive': {'util'},
    'host': {'archive', 'util'},
    'redact': {'host', 'util'},
    'formats': {'host', 'util'},
    'loader': {'formats', 'host', 'util'},
    'model': {'util'},
    'facts': {'model', 'util'},
    'rules': {'model', 'util'},
    'probes': {'host', 'formats', 'loader', 'model', 'facts', 'rules', 'util'},
    'check': {'probes', 'facts', 'rules', 'model', 'host', 'formats', 'loader', 'util'},
    'report': {'model', 'util'},
    'lint': {'rules', 'model', 'util'},
    'cli': {'check', 'redact', 'archive', 'lint', 'report', 'probes', 'facts', 'rules', 'model', 'formats', 'loader', 'host', 'util'},
    'test_support': {'probes', 'facts', 'rules', 'model', 'host', 'formats', 'loader', 'util'},
    'fuzz': {'test_support', 'archive', 'redact', 'lint', 'probes', 'facts', 'rules', 'model', 'host', 'formats', 'loader', 'util'},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main() -> int:
    src = sys.argv[1]
    problems = []
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
        if folder not in ALLOWED:
            problems.append(f'{folder}/: a folder the layering table does not know (add it to tools/check_layering.py '
                            'and docs/ARCHITECTURE.md)')
            continue
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith(('.h', '.cpp')):
                continue
            allowed = ALLOWED[folder] | {folder}
            if name.endswith('_test.cpp'):
                allowed = allowed | {'test_support'}
            with open(os.path.join(src, folder, name), encoding='utf-8') as handle:
                text = handle.read()
            for included in INCLUDE.findall(text):
                if '/' not in included:
                    continue  # gpudoctor_config.h and the like
                target = included.split('/')[0]
                if target in ALLOWED and target not in allowed:
                    problems.append(f'{folder}/{name}: includes "{included}", but {folder}/ may not use {target}/')
    for problem in problems:
        print(problem)
    print(f'layering: {len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
