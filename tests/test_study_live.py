"""Study "live": rows per (deck, players, rule set), resumable, unknown verdicts kept
apart, §5.1 compared, figure written; the CLI."""

import pickle

from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import solve_live
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.apps.studies import live
from hanabi_cp.io.results_csv import ResultsCSV


def test_rows_resume_summarise_and_plot(tmp_path):
    csv = str(tmp_path / "s.csv")
    rows = live.run(csv, 7, 2, players=[2, 6])
    assert len(rows.rows) == 2 * 2 * len(live.VARIANTS) and rows.added == len(rows.rows)
    again = live.run(csv, 7, 2, players=[2, 6])
    assert again.added == 0
    first = {(r["players"], r["variant"]): r for r in rows.rows if r["instance"] == "0"}
    assert first[("6", "solitaire")]["h"] == str(6 * 3 - 1)
    assert first[("2", "real")]["clues"] == "8" and first[("2", "lifted")]["clues"] == "unlimited"
    assert first[("2", "no-final")]["final_round"] == "False"
    # Deck i is `generate --standard --seed (seed + i)`, the real answer is solve_live's.
    assert all(r["deck_seed"] == str(7 + int(r["instance"])) for r in rows.rows)
    real = solve_live(standard_deck(7), Rules.for_players(2), "search",
                      SolveOptions(maximize=True))
    assert (first[("2", "real")]["verdict"], first[("2", "real")]["score"]) == \
        (real.status.value, str(real.score))
    text = live.summary(rows.rows)
    assert "0 deck(s) differ" in text and "p = 6: 25:" in text
    paths = live.plot(rows.rows, str(tmp_path / "s"), csv)
    assert [p.rsplit(".", 1)[1] for p in paths] == ["png", "svg"]


def test_a_deck_the_final_round_loses_has_its_best_score_and_reason():
    rows = {r["variant"]: r for r in live.deck_rows(161, 0, 2, live.VARIANTS, 30)}
    assert rows["real"]["verdict"] == "UNWINNABLE" and rows["real"]["score"] == 24
    assert "the last card, #49" in rows["real"]["reason"]
    assert rows["no-final"]["verdict"] == "WINNABLE"
    # §5.1: both sides agree, and the solitaire side gives its best score.
    assert rows["lifted"]["verdict"] == rows["solitaire"]["verdict"] == "WINNABLE"
    assert rows["solitaire"]["h"] == 9 and rows["solitaire"]["score"] == 25


def test_unknown_verdicts_are_counted_apart():
    # Deck 1653 with 6 players needs seconds of any method (docs/real-games.md).
    rows = live.deck_rows(1653, 0, 6, ("real",), 0.05)
    assert rows[0]["verdict"] == "UNKNOWN" and rows[0]["score"] is None
    csv_rows = [{k: "" if v is None else str(v) for k, v in r.items()} for r in rows]
    text = live.summary(csv_rows)
    assert "(6, 1653, 'real')" in text and "0.000 [" not in text and "1.000 [" not in text
    assert live.best_scores(csv_rows) == {}


def test_section_5_1_differences_are_reported():
    base = {"players": "2", "deck_seed": "3"}
    rows = [{**base, "variant": "lifted", "verdict": "WINNABLE"},
            {**base, "variant": "solitaire", "verdict": "UNWINNABLE"},
            {**base, "deck_seed": "4", "variant": "solitaire", "verdict": "UNKNOWN"}]
    assert live.section_5_1_differences(rows) == [(2, 3)]


def test_the_per_deck_work_is_a_picklable_function():
    assert pickle.loads(pickle.dumps(live.deck_rows)) is live.deck_rows


def test_cli_study_live(tmp_path):
    csv = str(tmp_path / "live.csv")
    res = CliRunner().invoke(main, ["study", "live", "--seed", "3", "--count", "2", "--players",
                                    "2,3", "--variants", "real,solitaire", "--csv", csv,
                                    "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "c decks: hanabi-cp generate --standard --seed S for S = 3 .. 4" in res.output
    assert "real" in res.output and (tmp_path / "live.png").exists()
    assert len(ResultsCSV(csv, live.FIELDS, live.KEY).rows) == 2 * 2 * 2
    for args, says in ((["--players", "7"], "'--players': expected integers from 2 to 6, found 7"),
                       (["--variants", "zzz"], "unknown 'zzz'"),
                       (["--methods", "sat"], "--methods does not apply")):
        res = CliRunner().invoke(main, ["study", "live", "--count", "1", "--csv", csv, *args])
        assert res.exit_code == 2 and says in res.output, res.output


def test_rule_set_order_and_what_relaxing_the_rules_rescues():
    def rows(seed, **verdicts):
        return [{"players": "2", "deck_seed": str(seed), "variant": v.replace("_", "-"),
                 "verdict": x} for v, x in verdicts.items()]
    data = (rows(1, real="UNWINNABLE", free_clues="UNWINNABLE", no_final="WINNABLE")
            + rows(2, real="WINNABLE", free_clues="UNWINNABLE")
            + rows(3, real="UNWINNABLE", no_final="UNKNOWN"))
    assert live.order_violations(data) == [(2, 2, "real", "free-clues")]
    assert live.rescued(data) == {2: {"free-clues": (0, 1), "no-final": (1, 1)}}
    assert "won under a rule set but lost under a laxer one: 1" in live.summary(
        [{**r, "instance": "0", "score": ""} for r in data])


def test_two_jobs_give_the_rows_of_one(tmp_path):
    from hanabi_cp.runtime.executors import Execution

    def rows(path, execution):
        table = live.run(str(path), 5, 3, (2, 4), ("real", "free-clues"), 5.0, False, execution)
        return sorted(tuple((k, v) for k, v in r.items() if k != "seconds") for r in table.rows)

    assert rows(tmp_path / "one.csv", Execution(jobs=1)) == rows(tmp_path / "two.csv",
                                                                Execution(jobs=2))
