#!/usr/bin/env python3
"""Scores the voices timer on labelled voices corpora, as ../shared/tools/score-voices does, and also counts false
shouts: score.py DIR [DIR...] --cmd 'BIN listen --voices --json --wav {}' [--misses]

A labelled pause is found when a reported pause starts within 0.3 s of its start; a reported pause that overlaps no
labelled pause is false. A labelled shout is found when a reported shout overlaps it; a reported shout that overlaps
no labelled shout is false. --misses lists every missed or false pause and shout. Last line is JSON."""
import glob, json, os, shlex, subprocess, sys

args = sys.argv[1:]
misses = '--misses' in args
if misses:
    args.remove('--misses')
i = args.index('--cmd')
cmd = args[i + 1]
dirs = args[:i] + args[i + 2:]
pf = pt = sf = st = false_p = false_s = failed = 0
minutes = 0.0
for d in dirs:
    for jf in sorted(glob.glob(os.path.join(d, '*.json'))):
        if jf.endswith('manifest.json'):
            continue
        lab = json.load(open(jf))
        minutes += lab['duration'] / 60
        p = subprocess.run(shlex.split(cmd.replace('{}', shlex.quote(os.path.join(d, lab['file'])))), capture_output=True,
                           text=True, timeout=300)
        failed += p.returncode != 0
        ev = []
        for line in p.stdout.splitlines():
            try:
                ev.append(json.loads(line))
            except ValueError:
                pass
        pauses = [(float(e['start']), float(e['end'])) for e in ev if e.get('event') == 'pause']
        shouts = [(float(e['start']), float(e['end'])) for e in ev if e.get('event') == 'shout']
        name = os.path.join(os.path.basename(d), lab['file'])
        for s, e in lab['pauses']:
            pt += 1
            ok = any(abs(a - s) <= 0.3 for a, b in pauses)
            pf += ok
            if misses and not ok:
                print('  %s: missed pause %.2f-%.2f' % (name, s, e))
        for a, b in pauses:
            if not any(a < e and b > s for s, e in lab['pauses']):
                false_p += 1
                if misses:
                    print('  %s: false pause %.2f-%.2f' % (name, a, b))
        for sh in lab['shouts']:
            st += 1
            ok = any(a < sh['end'] and b > sh['start'] for a, b in shouts)
            sf += ok
            if misses and not ok:
                print('  %s: missed shout %.2f-%.2f (voice %d of %d)' % (name, sh['start'], sh['end'], sh['voice'], lab['voices']))
        for a, b in shouts:
            if not any(a < sh['end'] and b > sh['start'] for sh in lab['shouts']):
                false_s += 1
                if misses:
                    print('  %s: false shout %.2f-%.2f' % (name, a, b))
out = dict(pauses_found=pf, pauses=pt, shouts_found=sf, shouts=st, false_pauses=false_p, false_shouts=false_s,
           false_pauses_per_min=round(false_p / max(minutes, 1e-9), 3), false_shouts_per_min=round(false_s / max(minutes, 1e-9), 3),
           failed_runs=failed, minutes=round(minutes, 2))
print('pauses %d/%d (%.1f %%), shouts %d/%d (%.1f %%), false pauses %d (%.2f/min), false shouts %d (%.2f/min), failed runs %d, %.2f min' % (
    pf, pt, 100 * pf / max(pt, 1), sf, st, 100 * sf / max(st, 1), false_p, out['false_pauses_per_min'], false_s,
    out['false_shouts_per_min'], failed, minutes))
print(json.dumps(out))
