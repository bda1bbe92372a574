#!/usr/bin/env python3
"""check_examples.py - keeps docs/language.md honest.

Extracts every ```tune block of the document into its own scratch folder (with the
```cuda block that follows it as its kernel file, else a stub, and empty include
folders), runs every `$ cutune ...` line of the ```text blocks that follow it, and
compares their output with the document (timings normalised). With --update it
rewrites those blocks with the real output instead.

    python3 docs/check_examples.py [--update] [path/to/cutune]
Exit status 1 when a block differs (in check mode)."""
import os, re, shutil, subprocess, sys, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(HERE, 'language.md')
args = [a for a in sys.argv[1:] if not a.startswith('--')]
BIN = os.path.abspath(args[0]) if args else os.path.join(HERE, '..', 'build', 'cutune')
ROOT = tempfile.mkdtemp(prefix='cutune-doc-')
check_only = '--update' not in sys.argv
env = dict(os.environ, CUTUNE_CACHE_DIR=os.path.join(ROOT, 'cache'), NO_COLOR='1')
# stdbuf (for the terminal's line order) preloads a library, which a sanitizer build's
# runtime would otherwise refuse.
env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0').lstrip(':')
text = open(DOC).read()
lines = text.split('\n')
out = []
i = 0
n_ex = 0
cur = None          # example root folder
diffs = 0
while i < len(lines):
    ln = lines[i]
    if ln.startswith('```tune'):
        j = i + 1
        while lines[j] != '```':
            j += 1
        body = lines[i + 1:j]
        m = re.match(r'#\s*(\S+\.tune)', body[0])
        assert m, body[0]
        n_ex += 1
        cur = os.path.join(ROOT, '%02d' % n_ex)
        spec = os.path.join(cur, m.group(1))
        os.makedirs(os.path.dirname(spec), exist_ok=True)
        src = '\n'.join(body) + '\n'
        open(spec, 'w').write(src)
        sdir = os.path.dirname(spec)
        # The kernel: a ```cuda block before the next ```text block, else a stub.
        kernel = '// stub\n'
        k = j + 1
        while k < len(lines) and lines[k] != '```text' and not lines[k].startswith('```tune'):
            if lines[k] == '```cuda':
                e = k + 1
                while lines[e] != '```':
                    e += 1
                kernel = '\n'.join(lines[k + 1:e]) + '\n'
                break
            k += 1
        for f in re.findall(r'from\s+"([^"]+)"', src):
            p = os.path.join(sdir, f)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, 'w').write(kernel)
        # file("P") inputs: zero-filled files of the arg's type and count
        # (a literal count; an .npy of float64 where a comment says 'holds float64').
        sizes = {'half': ('<f2', 2), 'float': ('<f4', 4), 'double': ('<f8', 8), 'int8': ('|i1', 1),
                 'uint8': ('|u1', 1), 'int16': ('<i2', 2), 'uint16': ('<u2', 2), 'int': ('<i4', 4),
                 'uint': ('<u4', 4), 'int64': ('<i8', 8), 'uint64': ('<u8', 8)}
        for ty, cnt, f, rest in re.findall(r'(\w+)\[(\d+)\]\s*=\s*file\("([^"]+)"\)(.*)', src):
            descr, size = sizes.get(ty, ('<f4', 4))
            if 'holds float64' in rest:
                descr, size = '<f8', 8
            data = b'\0' * (int(cnt) * size)
            if f.endswith('.npy'):
                d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s,), }" % (descr, cnt)
                total = (10 + len(d) + 1 + 63) // 64 * 64
                data = (b'\x93NUMPY\x01\x00' + (total - 10).to_bytes(2, 'little') + d.encode() +
                        b' ' * (total - 11 - len(d)) + b'\n' + data)
            open(os.path.join(sdir, f), 'wb').write(data)
        for inc in re.findall(r'^\s*include\s+(.*);', src, re.M):
            for d in re.findall(r'"([^"]+)"', inc):
                os.makedirs(os.path.join(sdir, d), exist_ok=True)
        out.extend(lines[i:j + 1])
        i = j + 1
        continue
    if ln == '```text' and i + 1 < len(lines) and lines[i + 1].startswith('$ cutune'):
        j = i + 1
        while lines[j] != '```':
            j += 1
        old = lines[i + 1:j]
        cmds = [l[2:] for l in old if l.startswith('$ ')]
        new = []
        for c in cmds:
            args = c.split()[1:]
            r = subprocess.run(['stdbuf', '-oL', '-eL', BIN] + args, cwd=cur, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            new.append('$ ' + c)
            o = r.stdout.rstrip('\n').replace(env['CUTUNE_CACHE_DIR'], '~/.cache/cutune')
            if o:
                new.extend(o.split('\n'))
            print('[%02d] %s -> rc %d' % (n_ex, c, r.returncode))
        def norm(ls):
            out_ = []
            for x in ls:
                x = re.sub(r'counted in \d+\.\d+ s', 'counted in T s', x)
                x = re.sub(r'\d+\.\d+ s', 'T s', x)      # NVRTC and wall times
                x = re.sub(r' \d+ ms ', ' T ms ', x)       # per-variant compile times
                x = re.sub(r'(from the cache, )\d+', r'\1N', x)
                out_.append(x)
            return out_
        if norm(new) != norm(old):
            diffs += 1
            if check_only:
                print('DIFF in block for', cmds)
                print('\n'.join(old)); print('----'); print('\n'.join(new))
        out.append(ln)
        out.extend(new if not check_only else old)
        out.append('```')
        i = j + 1
        continue
    out.append(ln)
    i += 1
if not check_only:
    open(DOC, 'w').write('\n'.join(out))
shutil.rmtree(ROOT, ignore_errors=True)
print('examples:', n_ex, 'blocks differing:', diffs)
sys.exit(1 if check_only and diffs else 0)
