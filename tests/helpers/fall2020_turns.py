"""Fall Challenge 2020 input lines written by hand, for the bots' tests."""

from __future__ import annotations

START = [(2, 0, 0, 0), (-1, 1, 0, 0), (0, -1, 1, 0), (0, 0, -1, 1)]


def turn_lines(
    orders, mine=None, theirs=None, tome=(), me=(3, 0, 0, 0, 0), opp=(3, 0, 0, 0, 0), exhausted=(), opp_exhausted=()
):
    """Input lines: ``orders`` as (id, need, price[, bonus value, bonus count]); spells as
    (id, delta[, repeatable]); tome as (id, delta, stock[, repeatable])."""
    mine = mine or [(78 + i, d) for i, d in enumerate(START)]
    theirs = theirs or [(82 + i, d) for i, d in enumerate(START)]
    rows = []
    for o in orders:
        oid, need, price = o[:3]
        value, count = (o[3], o[4]) if len(o) > 3 else (0, 0)
        a, b, c, d = need
        rows.append(f"{oid} BREW {-a} {-b} {-c} {-d} {price + value} {value} {count} 0 0")
    for i, t in enumerate(tome):
        rep = t[3] if len(t) > 3 else min(t[1]) < 0
        rows.append(f"{t[0]} LEARN {' '.join(map(str, t[1]))} 0 {i} {t[2]} 0 {int(rep)}")
    for kind, spells, tired in (("CAST", mine, exhausted), ("OPPONENT_CAST", theirs, opp_exhausted)):
        for s in spells:
            rep = s[2] if len(s) > 2 else False
            rows.append(f"{s[0]} {kind} {' '.join(map(str, s[1]))} 0 -1 -1 {0 if s[0] in tired else 1} {int(rep)}")
    return [str(len(rows)), *rows, " ".join(map(str, me)), " ".join(map(str, opp))]
