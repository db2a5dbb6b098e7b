#!/usr/bin/env python3
"""No Swift file in Sources/CourierEngine over 400 lines, no function over 80 lines in Sources/.

A function is a `func`, `init` or `deinit` (or `subscript`) with a body; its length counts the
lines from its declaration to its closing brace. Long files and functions are where concerns
pile up unnoticed (the workflow runner grew to 815 lines and a perform of 87); the limits make
the next split happen when it is cheap.

The only exemptions are the functions named in EXEMPT, each with its reason; a function is
matched by file and name, so a new long function next to an exempt one still fails.

Prints `file:line: ...` for each violation, with its length, and exits 1 when there is any.

Usage: Scripts/check-sizes.py [PACKAGE_DIR]   (default: the directory above this script)
"""
import os
import re
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80
# Only these directories' files are held to MAX_FILE_LINES (functions are checked everywhere).
FILE_LIMIT_DIRECTORIES = ['Sources/CourierEngine']

# (file relative to the package, function name): why it may be longer than MAX_FUNCTION_LINES.
EXEMPT = {
    ('Sources/CourierJSON/Regex/RegexMatcher.swift', 'run'):
        "the regex machine's interpreter loop: one switch over the instructions, its state in locals "
        "(split into functions, every step would pass the stacks and the subject around)",
    ('Sources/CourierJSON/Schema/SchemaEvaluator.swift', 'assertion'):
        "the schema interpreter's dispatch over the assertion keywords: one case per keyword, each a few lines",
    ('Sources/CourierJSON/Schema/SchemaEvaluator.swift', 'applicator'):
        "the schema interpreter's dispatch over the applicator keywords: one case per keyword, each a few lines",
}

DECLARATION = re.compile(r'(?<![.\w])(func\s+([^\s(<]+)|init[?!]?(?=\s*[(<])|deinit(?=\s*\{)|subscript(?=\s*[(<]))')


def blank_literals(text):
    """`text` with the contents of comments and string literals replaced by spaces (newlines
    kept), so that braces and keywords inside them are not taken for code."""
    out = list(text)
    i, n = 0, len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != '\n':
                out[k] = ' '

    def string_end(start):
        """Index just past the string literal that starts at `start` (its `#`s or quote)."""
        hashes = 0
        j = start
        while j < n and text[j] == '#':
            hashes += 1
            j += 1
        multiline = text.startswith('"""', j)
        quote = '"""' if multiline else '"'
        j += len(quote)
        closing = quote + '#' * hashes
        escape = '\\' + '#' * hashes
        while j < n:
            if text.startswith(escape, j):
                j += len(escape)
                if j < n and text[j] == '(':
                    j = interpolation_end(j)
                else:
                    j += 1
            elif text.startswith(closing, j):
                return j + len(closing)
            elif text[j] == '\n' and not multiline:
                return j  # unterminated: stop at the line's end
            else:
                j += 1
        return n

    def interpolation_end(open_paren):
        """Index just past the `)` closing the interpolation opened at `open_paren`."""
        depth, j = 0, open_paren
        while j < n:
            c = text[j]
            if c == '"' or (c == '#' and text.startswith('"', j + 1)):
                j = string_end(j)
                continue
            if c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return n

    while i < n:
        if text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith('/*', i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith('/*', j):
                    depth, j = depth + 1, j + 2
                elif text.startswith('*/', j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif text[i] == '"' or (text[i] == '#' and re.match(r'#+"', text[i:i + 8])):
            end = string_end(i)
            blank(i, end)
            i = end
        else:
            i += 1
    return ''.join(out)


def functions(text):
    """(name, first line, last line) of every function with a body in `text` (literals blanked)."""
    line_starts = [0] + [m.end() for m in re.finditer('\n', text)]

    def line_of(offset):
        lo, hi = 0, len(line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    for match in DECLARATION.finditer(text):
        name = match.group(2) or match.group(1).split('(')[0].strip()
        # The body is the first `{` outside the signature's brackets (default values may hold
        # closures); a `}` or `;`, or the next declaration, first means there is no body.
        depth, j = 0, match.end()
        body = None
        while j < len(text):
            c = text[j]
            if c in '([<' and not (c == '<' and depth == 0 and text[j - 1] == ' ' and text[j + 1] == ' '):
                depth += 1
            elif c in ')]>' and depth > 0 and not (c == '>' and text[j - 1] == '-'):
                depth -= 1
            elif depth == 0 and c == '{':
                body = j
                break
            elif depth == 0 and (c in '};' or DECLARATION.match(text, j) or text.startswith('var ', j) or text.startswith('let ', j)):
                break
            j += 1
        if body is None:
            continue
        depth, j = 0, body
        while j < len(text):
            if text[j] == '{':
                depth += 1
            elif text[j] == '}':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        yield name, line_of(match.start()), line_of(j)


def swift_files(root):
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for file in sorted(files):
            if file.endswith('.swift'):
                yield os.path.join(directory, file)


def violations(package_dir):
    found = []
    used_exemptions = set()
    for path in swift_files(os.path.join(package_dir, 'Sources')):
        relative = os.path.relpath(path, package_dir)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        line_count = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
        if any(relative.startswith(d + os.sep) for d in FILE_LIMIT_DIRECTORIES) and line_count > MAX_FILE_LINES:
            found.append(f'{relative}:1: file is {line_count} lines (max {MAX_FILE_LINES})')
        for name, first, last in functions(blank_literals(text)):
            length = last - first + 1
            if length <= MAX_FUNCTION_LINES:
                continue
            if (relative, name) in EXEMPT:
                used_exemptions.add((relative, name))
                continue
            found.append(f'{relative}:{first}: {name} is {length} lines (max {MAX_FUNCTION_LINES})')
    # An exemption whose function is gone or short again is stale: it would hide the next one.
    for relative, name in sorted(set(EXEMPT) - used_exemptions):
        found.append(f'{relative}:1: exemption of {name} in Scripts/check-sizes.py is no longer needed: remove it')
    return found


def main():
    package_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    found = violations(package_dir)
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f'check-sizes: {len(found)} violation{"s" if len(found) != 1 else ""}', file=sys.stderr)
        return 1
    print(f'check-sizes: no file in {", ".join(FILE_LIMIT_DIRECTORIES)} over {MAX_FILE_LINES} lines, '
          f'no function over {MAX_FUNCTION_LINES} lines outside the {len(EXEMPT)} exempt')
    return 0


if __name__ == '__main__':
    sys.exit(main())
