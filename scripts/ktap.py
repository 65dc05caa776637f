#!/usr/bin/env python3
"""Parse KTAP (and TAP 13/14) output from a guest log or kernel console.

Prints one line per leaf test (PASS/FAIL/SKIP and its path), checks every
plan against the results that followed it, and ends with the counts.  A
plan whose results are missing (a guest that died mid-run) is a failure.
Exit status: 0 when nothing failed and at least one test ran, else 1.
"""
import argparse
import re
import sys

RESULT = re.compile(r'^(not ok|ok)\s+(\d+)\s*-?\s*([^#]*?)\s*(?:#\s*(.*))?$')
PLAN = re.compile(r'^1\.\.(\d+)')
SUBTEST = re.compile(r'^#\s*Subtest:\s*(.+)$')
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')


class Block:
    def __init__(self):
        self.plan = None
        self.results = 0
        self.failed = False
        self.name = None


def parse(lines, prefix):
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    out = []
    blocks = {}          # indent depth -> Block

    def report(kind, path):
        counts[kind] += 1
        tag = {'passed': 'PASS', 'failed': 'FAIL', 'skipped': 'SKIP'}[kind]
        out.append(f'{tag} {path}')

    def path_to(depth, leaf):
        names = [prefix] + [blocks[d].name for d in sorted(blocks)
                            if d <= depth and blocks[d].name]
        return ': '.join(n for n in names + [leaf] if n)

    def close(depth, where):
        b = blocks.pop(depth, None)
        if b and b.plan is not None and b.results != b.plan:
            report('failed', path_to(depth - 1, f'{where}: {b.results} of '
                                      f'{b.plan} planned results'))
            return True
        return False

    started = False
    for raw in lines:
        line = STAMP.sub('', raw.rstrip('\r\n'))
        body = line.lstrip(' ')
        depth = (len(line) - len(body)) // 4
        if re.match(r'^(KTAP|TAP) version \d+', body):
            started = True
            blocks.setdefault(depth, Block())
            continue
        if not started:
            continue
        b = blocks.setdefault(depth, Block())
        m = SUBTEST.match(body)
        if m:
            b.name = m.group(1).strip()
            continue
        m = PLAN.match(body)
        if m:
            b.plan = int(m.group(1))
            continue
        m = RESULT.match(body)
        if not m:
            continue
        status, _, desc, directive = m.groups()
        desc = desc.strip()
        b.results += 1
        skip = bool(directive) and directive.upper().startswith('SKIP')
        child = blocks.get(depth + 1)
        if child and (child.results or child.plan is not None):
            # A parent's summary line: its children were counted already.
            child_failed = child.failed or close(depth + 1, desc)
            blocks.pop(depth + 1, None)
            if status == 'not ok' and not skip and not child_failed:
                report('failed', path_to(depth, desc + ' (parent)'))
            if child_failed or (status == 'not ok' and not skip):
                b.failed = True
            continue
        blocks.pop(depth + 1, None)
        if skip:
            report('skipped', path_to(depth, desc))
        elif status == 'ok':
            report('passed', path_to(depth, desc))
        else:
            b.failed = True
            report('failed', path_to(depth, desc))
    for depth in sorted(blocks, reverse=True):
        close(depth, 'incomplete')
    if not started:
        report('failed', f'{prefix}: no KTAP output found')
    return out, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('log', help='file with KTAP output ("-" for stdin)')
    ap.add_argument('--prefix', default='', help='name shown before each test')
    ap.add_argument('--counts', help='append "passed failed skipped" here')
    args = ap.parse_args()
    f = sys.stdin if args.log == '-' else open(args.log, errors='replace')
    out, c = parse(f, args.prefix)
    print('\n'.join(out))
    if args.counts:
        with open(args.counts, 'a') as cf:
            cf.write(f"{c['passed']} {c['failed']} {c['skipped']}\n")
    print(f"{c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
    return 1 if c['failed'] or not c['passed'] + c['skipped'] else 0


if __name__ == '__main__':
    sys.exit(main())
