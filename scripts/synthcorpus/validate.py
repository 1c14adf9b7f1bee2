#!/usr/bin/env python3
"""Checks a gesture corpus directory against the dev-corpus label format and internal consistency.
usage: validate.py DIR [REFERENCE_DIR]"""
import glob, json, os, subprocess, sys

d = sys.argv[1]
ref = sys.argv[2] if len(sys.argv) > 2 else '/work/shared/corpus/gestures'
refkeys = list(json.load(open(sorted(glob.glob(os.path.join(ref, 'dev-*.json')))[0])).keys())
errs = []
names = json.load(open(os.path.join(d, 'manifest.json')))
files = sorted(glob.glob(os.path.join(d, 'dev-*.json')))
if [os.path.basename(f)[:-5] for f in files] != names:
    errs.append('manifest does not match the json files')
tiers = {}
for jf in files:
    name = os.path.basename(jf)[:-5]
    L = json.load(open(jf))
    e = lambda m: errs.append('%s: %s' % (name, m))
    if list(L.keys()) != refkeys:
        e('keys %s != %s' % (list(L.keys()), refkeys))
    tiers[(L['tier'], L['laptop_mic'])] = tiers.get((L['tier'], L['laptop_mic']), 0) + 1
    on = L['onsets']
    ts = [o['t'] for o in on]
    if ts != sorted(ts):
        e('onsets not sorted')
    if any(o['kind'] not in ('clap', 'bang') for o in on):
        e('bad kind')
    covered = 0
    prev_end = None
    for c in L['codes']:
        inside = [o for o in on if c['start'] - 1e-6 <= o['t'] <= c['end'] + 1e-6]
        covered += len(inside)
        order = ''.join('C' if o['kind'] == 'clap' else 'B' for o in inside)
        if order != c['order']:
            e('code order %s != onsets %s' % (c['order'], order))
        if c['bangs'] != order.count('B') or c['claps'] != order.count('C'):
            e('code counts wrong')
        if not (1 <= c['bangs'] <= 5 and 1 <= c['claps'] <= 5):
            e('counts out of range')
        if inside and (inside[0]['t'] != c['start'] or inside[-1]['t'] != c['end']):
            e('code start/end not on onsets')
        gaps = [b['t'] - a['t'] for a, b in zip(inside, inside[1:])]
        if gaps and (min(gaps) < 0.1499 or max(gaps) > 1.1001):
            e('intra-code gap %.3f..%.3f' % (min(gaps), max(gaps)))
        if prev_end is not None and not (2.99 <= c['start'] - prev_end <= 5.01):
            e('code gap %.2f' % (c['start'] - prev_end))
        prev_end = c['end']
    if covered != len(on):
        e('onsets outside codes')
    if not 1 <= len(L['codes']) <= 3:
        e('code count')
    if not 0.5 <= on[0]['t'] <= 1.51:
        e('first onset at %.3f' % on[0]['t'])
    if L['duration'] - on[-1]['t'] < 1.99:
        e('tail %.2f' % (L['duration'] - on[-1]['t']))
    for s, t in L['speech']:
        if not s < t <= L['duration']:
            e('bad speech span')
        for o in on:
            if s - 0.05 <= o['t'] <= t + 0.05:
                e('speech %s overlaps onset %.3f' % ([s, t], o['t']))
    for x in L['distractors']:
        if x['kind'] != 'glass':
            e('distractor kind')
        if any(abs(x['t'] - o['t']) < 0.3 for o in on):
            e('glass at %.3f near a gesture' % x['t'])
    if L['tier'] != 'party' and (L['speech'] or L['distractors']):
        e('speech/glass outside party tier')
    if L['tier'] == 'party' and (not L['speech'] or not 1 <= len(L['distractors']) <= 3):
        e('party file without speech or with %d clinks' % len(L['distractors']))
    wav = os.path.join(d, L['file'])
    dur = float(subprocess.run(['soxi', '-D', wav], capture_output=True, text=True).stdout)
    if abs(dur - L['duration']) > 0.001:
        e('duration %.4f vs soxi %.4f' % (L['duration'], dur))
    for opt, key in (('-r', 'sample_rate'), ('-c', 'channels'), ('-b', 'bits')):
        v = int(subprocess.run(['soxi', opt, wav], capture_output=True, text=True).stdout)
        if v != L[key]:
            e('%s %d vs soxi %d' % (key, L[key], v))
    st = subprocess.run(['sox', wav, '-n', 'stat'], capture_output=True, text=True).stderr
    mx = max(abs(float(l.split(':')[1])) for l in st.splitlines() if l.startswith(('Maximum amplitude', 'Minimum amplitude')))
    if mx >= 0.999:
        e('clipping, peak %.4f' % mx)
print('files', len(files), 'tiers', sorted(tiers.items()))
print('\n'.join(errs) if errs else 'all labels consistent')
sys.exit(1 if errs else 0)
