#!/usr/bin/env bash
# Fails when a link in README.md or docs/ does not resolve (docs/testing.md, test doc_links):
# a Markdown link [text](path#anchor) to a file or heading that does not exist, a repository path
# written in the text (docs/hang.md, src/cli/cmd_hang.c, bench/hang/real_runs.sh) that does not
# exist, or a section cited by name after a page (docs/hang.md, "Many nodes") that the page has no
# heading for. Prints each broken link as FILE:LINE: what; exits 1 if there is one, 0 otherwise.
# Usage: scripts/check-doc-links.sh [REPOSITORY]   (default: the repository this script is in)
set -euo pipefail
root="${1:-$(dirname "$0")/..}"
cd "$root"
exec python3 - README.md $(find docs -name '*.md' | sort) <<'EOF'
import os, re, sys

# A repository path in running text: a top-level folder, then path characters. Paths that name
# something a run or a build makes are not checked: placeholders (<mpi>, %s, $VAR, {a,b}, *) and
# the per-run logs kept out of git (.gitignore: bench/**/*.logs/), a choice of suffixes (.[ch]).
PATH_RE = re.compile(r'(?<![\w./-])((?:docs|src|tests|bench|scripts|examples|include|cmake)/[\w./+-]*)')
PLACEHOLDER = re.compile(r'[<>%$*{}\[]')
LINK_RE = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
# docs/x.md "Title", docs/x.md, "Title", docs/x.md ("Title", ...): each quoted title must be a
# heading of docs/x.md (or the start of one).
SECTION_RE = re.compile(r'(docs/[\w/.-]+\.md)[,:]?\s+\(?((?:"[^"\n]+"(?:,\s*|\s+and\s+)?)+)')
TITLE_RE = re.compile(r'"([^"\n]+)"')


def headings(path):
    """The sections of a Markdown file (outside code blocks), without #s and backquotes: its
    headings, and the bold words that open a paragraph or a list item (**Where it stands.**)."""
    out, fenced = [], False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fenced = not fenced
            elif fenced:
                continue
            elif line.startswith('#'):
                out.append(' '.join(line.lstrip('#').replace('`', '').split()))
            else:
                lead = re.match(r'(?:[-*] )?\*\*([^*]+)\*\*', line.strip())
                if lead:
                    out.append(' '.join(lead.group(1).replace('`', '').split()))
    return out


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r'[^\w\- ]', '', heading.lower())
    return text.replace(' ', '-')


def exists(path):
    return os.path.exists(path.rstrip('/'))


problems = []
for doc in sys.argv[1:]:
    here = os.path.dirname(doc)
    fenced = False
    with open(doc, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for number, line in enumerate(lines, 1):
        if line.startswith('```'):
            fenced = not fenced
            continue
        where = f'{doc}:{number}'
        for target in LINK_RE.findall(line):
            if re.match(r'[a-z]+:', target):
                continue
            path, _, frag = target.partition('#')
            full = os.path.normpath(os.path.join(here, path)) if path else doc
            if not exists(full):
                problems.append(f'{where}: link to {target}: no such file')
            elif frag and full.endswith('.md') and frag not in map(anchor, headings(full)):
                problems.append(f'{where}: link to {target}: no heading with that anchor')
        if fenced:
            continue
        for match in PATH_RE.finditer(line):
            if PLACEHOLDER.match(line, match.end()) or '.logs' in match.group(1):
                continue
            path = match.group(1).rstrip('.,;:')
            # A program is named by its build output: bench/hang/hang_replay is hang_replay.c's.
            if not any(exists(path + ext) for ext in ('', '.c', '.md')):
                problems.append(f'{where}: {path}: no such file or folder')
        # A section cited by name may run on to the next line.
        text = line + ' ' + (lines[number] if number < len(lines) else '')
        for page, titles in SECTION_RE.findall(text):
            if not exists(page) or not page.endswith('.md'):
                continue
            known = headings(page)
            for title in TITLE_RE.findall(titles):
                title = ' '.join(title.replace('`', '').split())
                if not any(h == title or h.startswith(title) for h in known):
                    problems.append(f'{where}: {page} has no section "{title}"')

for p in sorted(set(problems)):
    print(p)
if problems:
    print(f'check-doc-links: {len(set(problems))} broken link(s)', file=sys.stderr)
    sys.exit(1)
print(f'check-doc-links: every link of {len(sys.argv) - 1} pages resolves')
EOF
