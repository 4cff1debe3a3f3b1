"""Compare our variant catalogue with a hanab.live ``variants.json`` (development
check; hanab.live's file is not part of hanabi-cp).

Both sides are written as one line per variant, ``name|suit,suit,...|rules``, where
the rules are hanab.live's JSON keys that differ from the default, sorted, as
``key=value`` in compact JSON, joined by ``;``.  The SHA-256 digest of the sorted
lines joined by newlines pins the whole catalogue in the tests without shipping
hanab.live's data.  Run::

    python -m hanabi_cp.real.variants.diff path/to/variants.json

It prints every difference (none when the catalogues agree) and the digest of the
file, and exits 1 when they differ.

>>> from hanabi_cp.real.variants.catalogue import variant
>>> catalogue_line(variant("Pink-Ones (5 Suits)"))
'Pink-Ones (5 Suits)|Red,Yellow,Green,Blue,Purple|clueRanks=[2,3,4,5];specialRank=1;specialRankAllClueRanks=true'
>>> json_line({"id": 1935, "name": "Color Mute (6 Suits)", "suits": ["Red"], "clueColors": []})
'Color Mute (6 Suits)|Red|clueColors=[]'
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import fields

from .catalogue import DEFAULT_CLUE_RANKS, Variant, all_variants, derive_clue_colors

# hanab.live's JSON key for each rule of ours (clueColors is written only where a
# variant overrides the colours its suits bring).
RULE_KEYS = {
    "clueRanks": "clue_ranks", "specialRank": "special_rank",
    "specialRankAllClueColors": "special_all_clue_colors", "specialRankNoClueColors": "special_no_clue_colors",
    "specialRankAllClueRanks": "special_all_clue_ranks", "specialRankNoClueRanks": "special_no_clue_ranks",
    "specialRankDeceptive": "special_deceptive", "criticalRank": "critical_rank", "scarceOnes": "scarce_ones",
    "colorCluesTouchNothing": "color_clues_touch_nothing", "rankCluesTouchNothing": "rank_clues_touch_nothing",
    "oddsAndEvens": "odds_and_evens", "funnels": "funnels", "chimneys": "chimneys", "synesthesia": "synesthesia",
    "cowAndPig": "cow_and_pig", "duck": "duck", "alternatingClues": "alternating_clues",
    "clueStarved": "clue_starved", "throwItInAHole": "throw_it_in_a_hole", "upOrDown": "up_or_down",
    "sudoku": "sudoku", "stackSize": "stack_size",
}
# Keys that identify an entry rather than state a rule.
_ID_KEYS = {"id", "newID", "name", "suits"}
_DEFAULTS = {"clueRanks": list(DEFAULT_CLUE_RANKS), "stackSize": 5}


def _line(name: str, suits: list[str], rules: dict) -> str:
    text = ";".join(f"{k}={json.dumps(rules[k], separators=(',', ':'))}" for k in sorted(rules))
    return f"{name}|{','.join(suits)}|{text}"


def catalogue_line(v: Variant) -> str:
    defaults = {f.name: f.default for f in fields(Variant)}
    rules = {}
    for key, attr in RULE_KEYS.items():
        value = getattr(v, attr)
        if value != defaults[attr]:
            rules[key] = list(value) if isinstance(value, tuple) else value
    if v.clue_colors != derive_clue_colors(v.suits):
        rules["clueColors"] = list(v.clue_colors)
    return _line(v.name, [s.name for s in v.suits], rules)


def json_line(entry: dict) -> str:
    rules = {k: value for k, value in entry.items()
             if k not in _ID_KEYS and value is not False and _DEFAULTS.get(k) != value}
    return _line(entry["name"], entry["suits"], rules)


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()


def differences(entries: list[dict]) -> list[str]:
    """What differs between hanab.live's entries and our catalogue: names on one
    side only, names whose suits or rules differ, rule keys we do not know, and
    the first place where the order differs."""
    ours = {v.name: catalogue_line(v) for v in all_variants()}
    theirs = {e["name"]: json_line(e) for e in entries}
    out = [f"only in the file: {theirs[n]}" for n in theirs if n not in ours]
    out += [f"only in ours:     {ours[n]}" for n in ours if n not in theirs]
    out += [f"differs: file {theirs[n]}\n         ours {ours[n]}"
            for n in theirs if n in ours and theirs[n] != ours[n]]
    unknown = {k for e in entries for k in e} - _ID_KEYS - RULE_KEYS.keys() - {"clueColors"}
    out += [f"unknown rule key in the file: {k}" for k in sorted(unknown)]
    common = [(a, b) for a, b in zip((n for n in theirs if n in ours), (n for n in ours if n in theirs)) if a != b]
    if common:
        out.append(f"the order differs, first: file {common[0][0]!r}, ours {common[0][1]!r}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m hanabi_cp.real.variants.diff path/to/variants.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        entries = json.load(f)
    diff = differences(entries)
    print("\n".join(diff) if diff else f"no differences: {len(entries)} variants agree, in the same order")
    print(f"digest of the file: {digest([json_line(e) for e in entries])}")
    print(f"digest of ours:     {digest([catalogue_line(v) for v in all_variants()])}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
