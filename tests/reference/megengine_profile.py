#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the megengine-profile format, written from formats.md
# section 2 with Python's json module (it shares no code with the C++ module): prints the
# records of FILE as NDJSON, in document order.
#   python3 megengine_profile.py FILE            the records as NDJSON
#   python3 megengine_profile.py --count FILE    parse only; the number of records per type
import json
import sys


def s(v):
    return v if isinstance(v, str) else None


def u(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def f(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def obj(v):
    return v if isinstance(v, dict) else {}


def strings(v):
    return v if isinstance(v, list) and all(isinstance(x, str) for x in v) else None


def ints(v):
    return v if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v) else None


def shapes(v):
    return v if isinstance(v, list) and all(ints(x) is not None for x in v) else None


def records(doc):
    out = []
    # document order: walk the top-level keys as they come
    for top, tv in doc.items():
        if top == 'profiler' and isinstance(tv, dict):
            for sec, sv in tv.items():
                if sec in ('host', 'device') and isinstance(sv, dict):
                    for opr, units in sv.items():
                        if not isinstance(units, dict):
                            continue
                        for unit, t in units.items():
                            if isinstance(t, dict):
                                out.append(dict(type='opr_time', opr_id=opr, source=sec, unit=unit,
                                                start=f(t.get('start')), kern=f(t.get('kern')), end=f(t.get('end'))))
                elif sec == 'opr_footprint' and isinstance(sv, dict):
                    for opr, fp in sv.items():
                        if isinstance(fp, dict):
                            p = fp.get('param')
                            out.append(dict(type='opr_footprint', opr_id=opr, computation=u(fp.get('computation')),
                                            memory=u(fp.get('memory')), in_shapes=shapes(fp.get('in_shapes')),
                                            out_shapes=shapes(fp.get('out_shapes')),
                                            param=p if isinstance(p, (dict, list)) else None))
        elif top == 'graph_exec' and isinstance(tv, dict):
            for sec, sv in tv.items():
                if sec == 'comp_seq' and isinstance(sv, list):
                    for i, e in enumerate(sv):
                        out.append(dict(type='exec', index=i, opr_id=s(e)))
                elif sec == 'mem_chunk' and isinstance(sv, dict):
                    for c in sv.values():
                        if isinstance(c, dict):
                            out.append(dict(type='mem_chunk', id=s(c.get('id')), owner_var=s(c.get('owner_var')),
                                            size=u(c.get('size')), dev_ptr=u(c.get('dev_ptr'))))
                elif sec == 'var' and isinstance(sv, dict):
                    for v in sv.values():
                        if not isinstance(v, dict):
                            continue
                        plan = obj(v.get('mem_plan'))
                        shape = obj(obj(v.get('static_infer_tags')).get('SHAPE')).get('inferred_result')
                        out.append(dict(type='var', id=s(v.get('id')), name=s(v.get('name')),
                                        comp_node=s(v.get('comp_node')), flags=strings(v.get('flag')),
                                        shape=ints(shape), dtype=s(obj(plan.get('layout')).get('dtype')),
                                        mem_chunk=s(plan.get('mem_chunk_id')), offset=u(plan.get('offset_byte')),
                                        dev_ptr=u(v.get('dev_ptr'))))
                elif sec == 'operator' and isinstance(sv, dict):
                    for o in sv.values():
                        if isinstance(o, dict):
                            out.append(dict(type='opr', id=s(o.get('id')), name=s(o.get('name')),
                                            opr_type=s(o.get('type')), inputs=strings(o.get('input')),
                                            outputs=strings(o.get('output'))))
    return out


def main():
    with open(sys.argv[-1], 'rb') as fh:
        doc = json.loads(fh.read())
    if sys.argv[1] == '--count':
        counts = {}
        for r in records(doc):
            counts[r['type']] = counts.get(r['type'], 0) + 1
        print(' '.join(f'{k}={v}' for k, v in sorted(counts.items())))
        return
    for r in records(doc):
        sys.stdout.write(json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\n')


if __name__ == '__main__':
    main()
