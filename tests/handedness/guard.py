#!/usr/bin/env python3
"""Handedness guards (docs/handedness.md; seeds/001 "Tests"; issue 6).

    guard.py drift     [--root R]   every handedness site vs tests/handedness/drift.snapshot
    guard.py snapshot  [--root R]   rewrite drift.snapshot (`make handedness-snapshot`)
    guard.py leak      [--root R]   no right-handed branch uses an identifier its file's
                                    left-handed code does not already use
    guard.py coverage  [--root R]   handedness-sensitive files read orrery/handedness.h (or are
                                    exempt with a reason); files that read it are covered
    guard.py strip SRC OUT          SRC with every right-handed branch deleted (for the
                                    left-handed-objects test, tests/handedness/strip_check.cmake)

A *site* is one handedness decision in the library's sources (src/, include/orrery/, shaders/):
  - an `#if ORR_RIGHT_HANDED` block (optionally with `#else`): its right-handed and left-handed
    branches;
  - a pair of functions `X_lh` / `X_rh` defined in one file: their bodies;
  - an explicit call of a handed function (`..._lh(` or `..._rh(`) outside such a pair.
Drift reduces each site to the token difference between its right-handed and left-handed code
and compares it with the committed snapshot; the key is file + enclosing function + ordinal, so
unrelated edits (moving lines) never churn it. Exit status 0 = pass, 1 = fail.
"""
import difflib
import fnmatch
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
HERE = 'tests/handedness'
SOURCE_GLOBS = ['src/*/*.c', 'src/*/*.h', 'include/orrery/*.h', 'shaders/*']
HEADER = 'orrery/handedness.h'

C_KEYWORDS = set('''auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void
volatile while bool true false NULL _Bool _Static_assert uint32_t int32_t uint64_t int64_t uint8_t size_t
vec2 vec3 vec4 mat3 mat4 float32_t in out inout uniform layout'''.split())
TYPE_WORDS = re.compile(r'^(int|double|float|bool|unsigned|uint32_t|int32_t|uint64_t|size_t|vec[234]|mat[34]|orr_\w+|orri_\w+|Vk\w+|const)$')


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def source_files(root):
    out = []
    for g in SOURCE_GLOBS:
        d, pat = os.path.split(g)
        for dirpath in sorted(_glob_dirs(root, d)):
            for name in sorted(os.listdir(dirpath)):
                if fnmatch.fnmatch(name, pat) and os.path.isfile(os.path.join(dirpath, name)):
                    out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(set(out))


def _glob_dirs(root, d):
    parts = d.split('/')
    cur = [root]
    for p in parts:
        nxt = []
        for c in cur:
            if p == '*':
                if os.path.isdir(c):
                    nxt += [os.path.join(c, x) for x in os.listdir(c) if os.path.isdir(os.path.join(c, x))]
            elif os.path.isdir(os.path.join(c, p)):
                nxt.append(os.path.join(c, p))
        cur = nxt
    return cur


def strip_comments(text):
    """Comments become spaces (line numbers kept); strings kept."""
    def repl(m):
        s = m.group(0)
        if s.startswith('/'):
            return re.sub(r'[^\n]', ' ', s)
        return s
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', repl, text, flags=re.S)


TOKEN = re.compile(r'[A-Za-z_]\w*|\d[\w.]*|->|\+\+|--|<<|>>|[<>=!]=|&&|\|\||\S')


def tokens(text):
    return TOKEN.findall(strip_comments(text))


# ---- site discovery -------------------------------------------------------------------------

# `#if ORR_RIGHT_HANDED` (or `#if !ORR_RIGHT_HANDED`). `#ifdef ORR_RIGHT_HANDED` and
# `#if defined(ORR_RIGHT_HANDED)` count as right-handed blocks too (that is what they mean to say),
# although they are wrong: the header defines the macro to 0 in left-handed builds, so their code is
# compiled into the left-handed library, which test_handedness_lh_has_no_rh_code then reports.
IF_RH = re.compile(r'^\s*#\s*(?:if\s+(!?)\s*ORR_RIGHT_HANDED|ifdef\s+ORR_RIGHT_HANDED|if\s+defined\s*\(?\s*ORR_RIGHT_HANDED\s*\)?)\s*$')
IF_ANY = re.compile(r'^\s*#\s*if')
ELSE = re.compile(r'^\s*#\s*else\b')
ELIF = re.compile(r'^\s*#\s*elif\b')
ENDIF = re.compile(r'^\s*#\s*endif\b')
FUNC_DEF = re.compile(r'^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\{?\s*$')


def enclosing_function(lines, idx):
    for i in range(idx, -1, -1):
        m = FUNC_DEF.match(lines[i])
        if m and not lines[i].startswith(('#', ' ', '\t')) and m.group(1) not in ('if', 'for', 'while', 'switch'):
            return m.group(1)
        if lines[i].startswith('}') and i != idx:
            return '<file scope>'
    return '<file scope>'


def rh_blocks(text):
    """[(start_line0, else_line0 | None, end_line0, negated)] for every #if ORR_RIGHT_HANDED."""
    lines = text.split('\n')
    out, stack = [], []
    for i, line in enumerate(lines):
        m = IF_RH.match(line)
        if m:
            stack.append([i, None, m.group(1) == '!'])
            continue
        if IF_ANY.match(line):
            stack.append(None)
            continue
        if ELIF.match(line) and stack and stack[-1] is not None:
            raise SystemExit('%d: #elif in a handedness block is not supported' % (i + 1))
        if ELSE.match(line) and stack and stack[-1] is not None:
            stack[-1][1] = i
            continue
        if ENDIF.match(line) and stack:
            top = stack.pop()
            if top is not None:
                out.append((top[0], top[1], i, top[2]))
    return out


def branches(lines, blk):
    start, els, end, neg = blk
    first = '\n'.join(lines[start + 1:(els if els is not None else end)])
    second = '\n'.join(lines[els + 1:end]) if els is not None else ''
    return (second, first) if neg else (first, second)  # (rh, lh)


def function_bodies(text):
    """{name: (line0, body)} for top-level C function definitions."""
    out = {}
    lines = text.split('\n')
    for i, line in enumerate(lines):
        m = re.match(r'^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(', line)
        if not m or line.rstrip().endswith(';'):
            continue
        # find the body: from the first '{' at or after this line to the matching '}'
        j, depth, body, started = i, 0, [], False
        while j < len(lines):
            for ch in lines[j]:
                if ch == '{':
                    depth += 1
                    started = True
                elif ch == '}':
                    depth -= 1
            body.append(lines[j])
            if started and depth == 0:
                break
            if not started and lines[j].rstrip().endswith(';'):
                break
            j += 1
        if started:
            out[m.group(1)] = (i, '\n'.join(body))
    return out


HANDED_CALL = re.compile(r'\b([A-Za-z_]\w*_(lh|rh))\s*\(')


def sites(root, path):
    """[(key, line1, function, rh_text, lh_text)]"""
    text = read(os.path.join(root, path))
    lines = text.split('\n')
    res, counts = [], {}

    def add(kind, line0, func, rh, lh):
        base = '%s %s %s' % (path, func, kind)
        counts[base] = counts.get(base, 0) + 1
        res.append(('%s #%d' % (base, counts[base]), line0 + 1, func, rh, lh))

    blocks = rh_blocks(text)
    for blk in blocks:
        rh, lh = branches(lines, blk)
        add('#if', blk[0], enclosing_function(lines, blk[0]), rh, lh)
    masked0 = strip_comments(text).split('\n')
    inside = set()
    for blk in blocks:
        inside |= set(range(blk[0], blk[2] + 1))
    for i, line in enumerate(masked0):  # ORR_RIGHT_HANDED used as a value: `if (ORR_RIGHT_HANDED) ...`, `?:`
        if i in inside or line.lstrip().startswith('#') or not re.search(r'\bORR_RIGHT_HANDED\b', line):
            continue
        add('expr', i, enclosing_function(lines, i), line.strip(), '')
    if path.endswith(('.c', '.h')):
        bodies = function_bodies(text)
        paired = set()
        for name in sorted(bodies):
            if name.endswith('_lh') and name[:-3] + '_rh' in bodies:
                rname = name[:-3] + '_rh'
                paired |= {name, rname}
                lh_body = bodies[name][1].replace(name, '@'), bodies[rname][1].replace(rname, '@')
                add('pair', bodies[rname][0], name[:-3] + '_{lh,rh}', lh_body[1], lh_body[0])
        masked = strip_comments(text).split('\n')
        for blk in blocks:  # calls inside #if blocks are already part of those sites
            for i in range(blk[0], blk[2] + 1):
                masked[i] = ''
        for i, line in enumerate(masked):
            if line.lstrip().startswith('#define'):
                continue
            for m in HANDED_CALL.finditer(line):
                name = m.group(1)
                before = line[:m.start()].split()
                if name in paired or (before and TYPE_WORDS.match(before[-1].strip('*'))):
                    continue  # a definition or a declaration, not a use
                func = enclosing_function(lines, i)
                if func == name:
                    continue
                side = m.group(2)
                add('call', i, func, name if side == 'rh' else '', name if side == 'lh' else '')
    return res


def token_diff(rh, lh):
    a, b = tokens(lh), tokens(rh)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ('delete', 'replace'):
            out.append('-' + ' '.join(a[i1:i2]))
        if op in ('insert', 'replace'):
            out.append('+' + ' '.join(b[j1:j2]))
    return ' | '.join(out) if out else '(no difference)'


def all_sites(root):
    out = []
    for path in source_files(root):
        if path == 'include/' + HEADER:
            continue  # the definition itself
        out += sites(root, path)
    return out


SNAPSHOT = os.path.join(HERE, 'drift.snapshot')


def render_snapshot(root):
    lines = ['# Handedness drift snapshot: every right-handed vs left-handed decision of the library,',
             '# reduced to its token difference (tests/handedness/guard.py). Regenerate after an intended',
             '# change with `make handedness-snapshot` and review the diff.', '']
    for key, line, func, rh, lh in all_sites(root):
        lines.append('%s\t%s' % (key, token_diff(rh, lh)))
    return '\n'.join(lines) + '\n'


def parse_snapshot(text):
    out = {}
    for line in text.split('\n'):
        if not line or line.startswith('#'):
            continue
        k, _, v = line.partition('\t')
        out[k] = v
    return out


def cmd_drift(root):
    path = os.path.join(root, SNAPSHOT)
    if not os.path.exists(path):
        print('drift: %s is missing; run `make handedness-snapshot`' % SNAPSHOT)
        return 1
    want = parse_snapshot(read(path))
    have = {}
    where = {}
    for key, line, func, rh, lh in all_sites(root):
        have[key] = token_diff(rh, lh)
        where[key] = '%s:%d (%s)' % (key.split(' ')[0], line, func)
    bad = 0
    for k in sorted(set(want) | set(have)):
        if k not in have:
            print('drift: site gone: %s (was: %s)' % (k, want[k]))
            bad += 1
        elif k not in want:
            print('drift: new site not in the snapshot: %s: %s' % (where[k], have[k]))
            bad += 1
        elif want[k] != have[k]:
            print('drift: %s changed on one side only?\n  snapshot: %s\n  now:      %s' % (where[k], want[k], have[k]))
            bad += 1
    print('drift: %d sites, %d differ from %s' % (len(have), bad, SNAPSHOT))
    if bad:
        print('drift: if the change is intended (both sides reviewed), run `make handedness-snapshot`')
    return 1 if bad else 0


def cmd_snapshot(root):
    with open(os.path.join(root, SNAPSHOT), 'w', encoding='utf-8') as f:
        f.write(render_snapshot(root))
    print('wrote %s' % SNAPSHOT)
    return 0


# ---- leak -----------------------------------------------------------------------------------

def branch_identifiers(text):
    """Identifiers a branch uses, minus keywords, member names and names it declares."""
    clean = strip_comments(text)
    toks = TOKEN.findall(clean)
    declared, used = set(), []
    for i, t in enumerate(toks):
        if not re.match(r'[A-Za-z_]', t) or t in C_KEYWORDS:
            continue
        if i > 0 and toks[i - 1] in ('.', '->'):
            continue
        if i > 0 and (TYPE_WORDS.match(toks[i - 1]) or toks[i - 1] in C_KEYWORDS and toks[i - 1] != 'return' or toks[i - 1] == '*' and i > 1 and TYPE_WORDS.match(toks[i - 2])):
            declared.add(t)
            continue
        used.append(t)
    return [t for t in dict.fromkeys(used) if t not in declared]


def cmd_leak(root):
    bad = 0
    n = 0
    for path in source_files(root):
        if path == 'include/' + HEADER:
            continue
        text = read(os.path.join(root, path))
        lines = text.split('\n')
        blocks = rh_blocks(text)
        if not blocks and 'ORR_RIGHT_HANDED' not in text:
            continue
        lh_lines = list(lines)
        for blk in blocks:
            start, els, end, neg = blk
            rh_range = range(start, (els if els is not None else end) + 1) if not neg else (range(els, end + 1) if els is not None else range(0))
            for i in rh_range:
                lh_lines[i] = ''
        lh_words = set(re.findall(r'[A-Za-z_]\w*', strip_comments('\n'.join(lh_lines))))
        exprs = []
        masked = strip_comments(text).split('\n')
        for i, line in enumerate(masked):
            if not line.lstrip().startswith('#') and re.search(r'\bORR_RIGHT_HANDED\b', line):
                exprs.append((i, line))
                lh_lines[i] = ''
        lh_words = set(re.findall(r'[A-Za-z_]\w*', strip_comments('\n'.join(lh_lines))))
        for i, line in exprs:
            n += 1
            for ident in branch_identifiers(line):
                if ident not in lh_words and ident != 'ORR_RIGHT_HANDED' and not re.match(r'^[A-Z][A-Z0-9_]*$', ident):
                    print('leak: %s:%d (%s): the right-handed expression uses `%s`, which the left-handed code of the '
                          'file does not use' % (path, i + 1, enclosing_function(lines, i), ident))
                    bad += 1
        for blk in blocks:
            n += 1
            rh, _ = branches(lines, blk)
            for ident in branch_identifiers(rh):
                if re.match(r'^[A-Z][A-Z0-9_]*$', ident) and not re.search(r'\b%s\s*\(' % ident, rh):
                    continue  # a constant (macro or enumerator) links nothing
                if ident not in lh_words:
                    print('leak: %s:%d (%s): the right-handed branch uses `%s`, which the left-handed code of the file '
                          'does not use; write it inline or as a function the file already uses' %
                          (path, blk[0] + 1, enclosing_function(lines, blk[0]), ident))
                    bad += 1
    print('leak: %d right-handed branches, %d offenders' % (n, bad))
    return 1 if bad else 0


# ---- coverage -------------------------------------------------------------------------------

SENSITIVE = [
    ('front-face choice', re.compile(r'VK_FRONT_FACE_|vkCmdSetFrontFace|frontFace|gl_FrontFacing')),
    ('look-at builder', re.compile(r'\blook_?at\w*\s*\(|\bLookAt\w*')),
    ('projection builder', re.compile(r'\bperspective\w*\s*\(|\bPerspective\w*')),
    ('cube-map lookup direction', re.compile(r'samplerCube|textureCube|\bcube_?dir\w*|REFLECTIONMAP|\bVK_IMAGE_VIEW_TYPE_CUBE\b')),
    ('tangent-frame construction', re.compile(r'\b(co|bi)?tangent\w*\s*=|\bcotangent|\bdFd[xy]\s*\(.*\bdFd[xy]\s*\(')),
    ('mirror / handed matrix', re.compile(r'\bORR_RIGHT_HANDED\b|\w+_(lh|rh)\s*\(')),
]


def reads_header(path, text):
    if path.startswith('shaders/'):
        return bool(re.search(r'\bORR_RIGHT_HANDED\b', text))
    return bool(re.search(r'#\s*include\s*[<"]' + re.escape(HEADER) + r'[>"]', text))


def parse_table(path):
    """Lines `key  rest` (two or more spaces or a tab); '#' comments."""
    out = []
    for raw in read(path).split('\n'):
        line = raw.split('#', 1)[0].rstrip() if not raw.lstrip().startswith('#') else ''
        if not line:
            continue
        parts = re.split(r'\t+|\s{2,}', line.strip(), maxsplit=1)
        out.append((parts[0], parts[1] if len(parts) > 1 else ''))
    return out


def known_tests(root):
    names = set()
    for d in ('tests/unit', 'tests/render', 'tests/handedness'):
        p = os.path.join(root, d)
        if os.path.isdir(p):
            for f in os.listdir(p):
                if f.endswith('.c') or f.endswith('.py'):
                    names.add(f.rsplit('.', 1)[0])
    twins = set()
    rh_js = os.path.join(root, 'tools/parity/scenes/rh.js')
    if os.path.exists(rh_js):
        m = re.search(r'TWINS\s*=\s*\[([^\]]*)\]', read(rh_js))
        if m:
            twins = {x + '-rh' for x in re.findall(r"'([^']+)'", m.group(1))}
    return names, twins


def cmd_coverage(root):
    exempt_rows = parse_table(os.path.join(root, HERE, 'exempt.txt'))
    exempt = {k: v for k, v in exempt_rows}
    mapping = {k: v.split() for k, v in parse_table(os.path.join(root, HERE, 'coverage.map'))}
    tests, twins = known_tests(root)
    bad = 0
    files = source_files(root)
    for path in files:
        text = read(os.path.join(root, path))
        clean = strip_comments(text)
        hits = [name for name, rx in SENSITIVE if rx.search(clean)]
        reads = reads_header(path, text)
        rule = exempt.get(path)
        if path == 'include/' + HEADER:
            continue
        if rule is not None and rule.startswith('PENDING'):
            if reads:
                print('coverage: %s reads the handedness header now: drop its PENDING entry from exempt.txt and map '
                      'it to its pair test or twin scene in coverage.map' % path)
                bad += 1
            else:
                print('coverage: pending seam (known gap, owner named): %s — %s' % (path, rule))
            continue
        if hits and not reads and rule is None:
            print('coverage: %s holds handedness-sensitive code (%s) but does not read %s and is not exempt '
                  '(tests/handedness/exempt.txt)' % (path, ', '.join(hits), HEADER))
            bad += 1
        if reads:
            cover = mapping.get(path)
            if not cover:
                print('coverage: %s reads %s but no pair test or twin scene covers it (tests/handedness/coverage.map)' %
                      (path, HEADER))
                bad += 1
            else:
                for c in cover:
                    if c not in tests and c not in twins:
                        print('coverage: %s is mapped to `%s`, which is neither a test source nor a twin scene' % (path, c))
                        bad += 1
    for k, v in exempt_rows:
        if '*' in k or v.startswith('REQUIRE'):
            continue
        if k not in files:
            if v.startswith('PENDING') or v.startswith('FUTURE'):
                continue
            print('coverage: exempt.txt names %s, which does not exist' % k)
            bad += 1
    # Future seams: any file under these paths must read the header (no exemption).
    for k, v in exempt_rows:
        if not v.startswith('REQUIRE'):
            continue
        for path in files:
            if fnmatch.fnmatch(path, k):
                if not reads_header(path, read(os.path.join(root, path))):
                    print('coverage: %s matches the required seam %s (%s) but does not read %s' % (path, k, v, HEADER))
                    bad += 1
    for k in mapping:
        if k not in files:
            print('coverage: coverage.map names %s, which does not exist' % k)
            bad += 1
    print('coverage: %d files scanned, %d problems' % (len(files), bad))
    return 1 if bad else 0


# ---- strip ----------------------------------------------------------------------------------

def strip_rh(text):
    lines = text.split('\n')
    drop = set()
    for start, els, end, neg in rh_blocks(text):
        drop |= {start, end}
        if els is not None:
            drop.add(els)
        rh_range = range(start, (els if els is not None else end)) if not neg else (range(els, end) if els is not None else range(0))
        drop |= set(rh_range)
    # keep line numbers: blank the dropped lines
    return '\n'.join('' if i in drop else l for i, l in enumerate(lines))


def disasm(path):
    import subprocess
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', path], check=True, capture_output=True, text=True).stdout
    return '\n'.join(l for l in out.split('\n') if 'file format' not in l)


def cmd_stripcheck(root, out_dir, cc, flags):
    """The left-handed objects contain no right-handed code: each library source that mentions
    ORR_RIGHT_HANDED, compiled left-handed as is and with every right-handed branch deleted
    (strip_rh), gives the same disassembly. Control: compiled right-handed, at least one differs
    (so the stripping really removes code the right-handed build has)."""
    import subprocess
    os.makedirs(out_dir, exist_ok=True)
    files = [p for p in source_files(root) if p.endswith('.c') and 'ORR_RIGHT_HANDED' in read(os.path.join(root, p))]
    bad, rh_differs = 0, 0
    for path in files:
        src = os.path.join(root, path)
        stripped = os.path.join(out_dir, path.replace('/', '__'))
        with open(stripped, 'w', encoding='utf-8') as f:
            f.write(strip_rh(read(src)))
        res = {}
        for variant, defs in (('lh', []), ('rh', ['-DORR_RIGHT_HANDED=1'])):
            for kind, file in (('orig', src), ('strip', stripped)):
                obj = os.path.join(out_dir, '%s.%s.%s.o' % (path.replace('/', '__'), variant, kind))
                cmd = [cc] + flags + defs + ['-I', os.path.dirname(src), '-c', file, '-o', obj]
                subprocess.run(cmd, check=True)
                res[(variant, kind)] = disasm(obj)
        same_lh = res[('lh', 'orig')] == res[('lh', 'strip')]
        same_rh = res[('rh', 'orig')] == res[('rh', 'strip')]
        print('strip: %-40s left-handed %s; right-handed %s' % (path, 'identical' if same_lh else 'DIFFERS',
                                                                 'identical' if same_rh else 'differs (control)'))
        if not same_lh:
            bad += 1
        if not same_rh:
            rh_differs += 1
    if not rh_differs:
        print('strip: control failed: no right-handed object changed when its right-handed branches were deleted')
        bad += 1
    print('strip: %d files with right-handed code, %d left-handed objects differ' % (len(files), bad))
    return 1 if bad else 0


def main(argv):
    args = list(argv[1:])
    root = ROOT
    if '--root' in args:
        i = args.index('--root')
        root = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    if not args:
        print(__doc__)
        return 2
    cmd = args[0]
    if cmd == 'drift':
        return cmd_drift(root)
    if cmd == 'snapshot':
        return cmd_snapshot(root)
    if cmd == 'leak':
        return cmd_leak(root)
    if cmd == 'coverage':
        return cmd_coverage(root)
    if cmd == 'strip':
        with open(args[2], 'w', encoding='utf-8') as f:
            f.write(strip_rh(read(args[1])))
        return 0
    if cmd == 'stripcheck':
        sep = args.index('--')
        return cmd_stripcheck(root, args[1], args[2], args[sep + 1:])
    if cmd == 'sites':
        for key, line, func, rh, lh in all_sites(root):
            print('%s:%d\t%s\t%s' % (key.split(' ')[0], line, key, token_diff(rh, lh)))
        return 0
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
