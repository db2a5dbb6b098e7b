#!/usr/bin/env python3
"""Every target's declared dependencies are exactly the package's modules its files import.

Reads the targets and their `dependencies:` from Package.swift (no list is kept here, so a
change of the graph needs only Package.swift), then the `import` lines of each target's Swift
files. Fails, naming target and module, when a target imports a module of this package that it
does not declare (it builds today only because another dependency drags it in), or declares one
that none of its files imports. System modules (Foundation, Testing, Glibc, ...) are not
declared in Package.swift and are not checked.

It also fails when a target reaches, directly or through its dependencies, a module FORBIDDEN
says it must not: the arrows of docs' architecture point one way.

Usage: Scripts/check-imports.py [PACKAGE_DIR]   (default: the directory above this script)
"""
import os
import re
import sys

TARGET = re.compile(r'\.(target|executableTarget|testTarget|systemLibrary|binaryTarget|plugin|macro)\s*\(')
IMPORT = re.compile(
    r'^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*'            # @testable, @preconcurrency, @_implementationOnly
    r'(?:(?:public|package|internal|fileprivate|private)\s+)?'
    r'import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?'
    r'([A-Za-z_][A-Za-z0-9_]*)', re.M)

# target: {module it must never reach, directly or through another dependency: why}.
FORBIDDEN = {
    'CourierResults': {
        'CourierEngine': 'results are plain values; the engine produces them',
        'CourierHTTP': 'results are plain values, with no live HTTP types in them',
        'CCurl': 'results never link libcurl',
    },
    'CourierReports': {
        'CourierEngine': 'reporters never run anything: they read result values',
        'CourierHTTP': 'reporters read result values, never HTTP types',
        'CCurl': 'reporters never link libcurl',
    },
    'CourierWorkflow': {
        'CourierHTTP': 'the parser and model know nothing of HTTP (validate stays offline)',
        'CCurl': 'the parser never links libcurl',
    },
    'Courier': {
        'CourierEngine': 'the library stands on CourierHTTP alone, not on the workflow engine',
    },
}


def call_arguments(text, open_paren):
    """The text between the parenthesis at `open_paren` and its match (strings and comments aware enough for Package.swift)."""
    depth, i, in_string = 0, open_paren, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == '\\':
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif text.startswith('//', i):
            i = text.find('\n', i)
            if i < 0:
                break
        elif c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
            if depth == 0:
                return text[open_paren + 1:i]
        i += 1
    raise SystemExit('check-imports: cannot parse Package.swift (unbalanced parentheses)')


def string_list(arguments, label):
    """The string literals of `label: [ ... ]` (products written `.product(name: "X", ...)` count by name)."""
    match = re.search(label + r'\s*:\s*\[', arguments)
    if not match:
        return []
    inner = call_arguments(arguments, match.end() - 1)
    names = re.findall(r'\.(?:target|byName|product)\s*\(\s*name\s*:\s*"([^"]+)"', inner)
    stripped = re.sub(r'\.(?:target|byName|product)\s*\([^)]*\)', '', inner)
    return names + re.findall(r'"([^"]+)"', stripped)


def targets(package_text):
    found = []
    for match in TARGET.finditer(package_text):
        kind = match.group(1)
        arguments = call_arguments(package_text, match.end() - 1)
        name = re.search(r'name\s*:\s*"([^"]+)"', arguments)
        if not name:
            continue
        path = re.search(r'\bpath\s*:\s*"([^"]+)"', arguments)
        default_root = 'Tests' if kind == 'testTarget' else ('Plugins' if kind == 'plugin' else 'Sources')
        found.append({
            'name': name.group(1),
            'kind': kind,
            'path': path.group(1) if path else os.path.join(default_root, name.group(1)),
            'dependencies': string_list(arguments, 'dependencies'),
            'exclude': string_list(arguments, 'exclude'),
        })
    return found


def swift_files(root, exclude):
    excluded = [os.path.normpath(os.path.join(root, e)) for e in exclude]
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if os.path.normpath(os.path.join(directory, d)) not in excluded)
        for file in sorted(files):
            if file.endswith('.swift'):
                yield os.path.join(directory, file)


def module_name(target_name):
    # SwiftPM's c99name: what `import` spells for a target with a dash in its name.
    return re.sub(r'[^A-Za-z0-9_]', '_', target_name)


def forbidden_edges(all_targets):
    """A problem for each module in FORBIDDEN that a target reaches through its declared dependencies."""
    dependencies = {t['name']: t['dependencies'] for t in all_targets}
    problems = []
    for target in sorted(FORBIDDEN):
        if target not in dependencies:
            continue
        # Breadth first, so the path named is a shortest one.
        paths, queue = {target: [target]}, [target]
        while queue:
            current = queue.pop(0)
            for dependency in dependencies.get(current, []):
                if dependency not in paths:
                    paths[dependency] = paths[current] + [dependency]
                    queue.append(dependency)
        for module, reason in sorted(FORBIDDEN[target].items()):
            if module in paths:
                path = paths[module]
                through = f" (through {' -> '.join(path[1:-1])})" if len(path) > 2 else ''
                problems.append(f'{target}: depends on {module}{through}, which it must not: {reason}')
    return problems


def main():
    package_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    with open(os.path.join(package_dir, 'Package.swift'), encoding='utf-8') as f:
        package_text = f.read()
    all_targets = targets(package_text)
    if not all_targets:
        raise SystemExit('check-imports: no targets found in Package.swift')
    by_module = {module_name(t['name']): t['name'] for t in all_targets}
    problems = []
    for target in all_targets:
        root = os.path.join(package_dir, target['path'])
        files = list(swift_files(root, target['exclude'])) if os.path.isdir(root) else []
        if not files:
            continue  # C and system-library targets: their headers are not Swift imports
        imported = {}
        for file in files:
            with open(file, encoding='utf-8') as f:
                for module in IMPORT.findall(f.read()):
                    if module in by_module and by_module[module] != target['name']:
                        imported.setdefault(by_module[module], os.path.relpath(file, package_dir))
        declared = set(target['dependencies'])
        for module in sorted(set(imported) - declared):
            problems.append(f"{target['name']}: imports {module} (in {imported[module]}) but does not declare it in Package.swift")
        for module in sorted(declared - set(imported)):
            if module in by_module.values():
                problems.append(f"{target['name']}: declares {module} in Package.swift but none of its files imports it")
    problems += forbidden_edges(all_targets)
    for problem in problems:
        print('check-imports: ' + problem, file=sys.stderr)
    if problems:
        return 1
    print(f'check-imports: {len(all_targets)} targets: declared dependencies match their imports, no forbidden edge')
    return 0


if __name__ == '__main__':
    sys.exit(main())
