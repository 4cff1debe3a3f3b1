"""The bodies of ``solve`` and ``verify`` once they have seen ``--rules live``: a
deck and its rules read through ``real.game_setup``, the library's answer printed
as ``c``/``s``/``v`` lines or JSON."""

from __future__ import annotations

import os

import click

from ..core.errors import UsageError
from ..core.model import Deck
from ..core.options import SolveOptions
from ..core.status import Status
from ..io.outputs import check_outputs
from ..io.textio import display_name, read_text
from ..real.game_setup import any_deck_line, game_rules, load_game_deck, played_rules, setup_json
from ..real.older_games import OLDER_RULES_UNTIL
from ..real.referee import Game, target_of
from ..real.replay_io import Replay, hanab_live_can_replay, parse_replay, replay_line, write_replay
from ..real.rules import Rules
from ..real.solve import solve_live
from .common import deck_summary, echo_json, echo_verdict
from .proof_lines import bundle_target, echo_proof, proof_outputs


def _rules_line(rules: Rules) -> str:
    return f"c rules: {rules.describe()} (hanab.live {rules.variant_name}, open hands)"


def solve_live_cmd(ctx, deck_path: str, method: str, options: SolveOptions, as_json: bool,
                   certificate: str | None, force: bool, live: dict, hand, proof,
                   refutation: str | None = None) -> None:
    if hand is not None:
        raise UsageError("--hand is the solitaire hand size; with --rules live use "
                         "--hand-size")
    if proof is not None and method not in ("auto", "sat"):
        raise UsageError(f"--proof: method {method} writes no proofs; with --rules live use "
                         f"--method sat or auto")
    # a folder --proof is checked once the rules say whether it is a bundle's
    folder = proof is not None and (os.path.isdir(proof) or proof.endswith(("/", os.sep)))
    check_outputs("solve", {**proof_outputs(None if folder else proof, certificate),
                            "--refutation": refutation}, force, {"DECK": deck_path})
    deck, game = load_game_deck(deck_path, bool(live.get("any_deck")))
    rules = game_rules(live, game, deck, deck_path)
    if proof is not None:
        bundle_target(proof, force, Game.start(deck, rules).chosen is not None)
    out = solve_live(deck, rules, method, options)
    # "-": the refutation goes to stdout as one ``v`` line (the certificate's way),
    # or into the JSON answer, never as a bare document among the c lines
    written, shown = None, None
    if refutation is not None:
        from ..real.refutation_files import refutation_of
        found = refutation_of(Game.start(deck, rules), out, options.clock())
        written = found.save(refutation, force)
        shown = found if refutation == "-" and found.text is not None else None
    if as_json:
        echo_json(out.to_json() | setup_json(deck, rules)
                  | ({} if written is None else {"refutation": written})
                  | ({} if shown is None else {"refutation_table": shown.data()}))
    else:
        how = f"{out.method} (auto)" if method == "auto" else out.method
        click.echo(f"c method: {how}")
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        sizes = {k: v for k, v in sorted(out.stats.items())
                 if k in ("nodes", "refuted", "states", "variables", "clauses", "constraints")}
        if sizes:
            click.echo("c stats: " + ", ".join(f"{k} = {v}" for k, v in sizes.items()))
        click.echo(f"c time: {out.stats['seconds']:.3f} s")
        echo_verdict(out, target_of(deck, rules))
        if out.actions is not None and out.verified:
            click.echo(f"c certificate verified by the referee (a complete game of "
                       f"{len(out.actions)} turns)")
        echo_proof(out, proof)
        if written is not None:
            click.echo(f"c {written}")
        if shown is not None:
            click.echo("v " + shown.line)
    if certificate is not None:
        _write_certificate(deck, rules, out, certificate, force, as_json)
    ctx.exit(out.status.exit_code)


def _write_certificate(deck: Deck, rules: Rules, out, path: str, force: bool,
                       as_json: bool) -> None:
    if out.actions is None:
        if not as_json:
            click.echo("c no certificate: " + ("the deck is not winnable" if
                                                out.status is Status.UNWINNABLE else "undecided"))
        return
    if path == "-":
        if not as_json:
            click.echo("v " + replay_line(deck, rules, out.actions))
        return
    write_replay(path, deck, rules, out.actions, force=force)
    if not as_json:
        click.echo(f"c certificate written to {path} (hanab.live's JSON game format)")
        why = hanab_live_can_replay(deck, rules)
        if why:
            click.echo(f"c note: hanab.live cannot replay it: {why}")


def verify_live_cmd(ctx, deck_path: str, actions_path: str, as_json: bool, live: dict,
                    hand) -> None:
    if hand is not None:
        raise UsageError("--hand is the solitaire hand size; with --rules live use "
                         "--hand-size")
    if deck_path == "-" and actions_path == "-":
        raise UsageError("verify: DECK and GAME cannot both be `-` (stdin)")
    deck, in_deck = load_game_deck(deck_path, bool(live.get("any_deck")))
    if actions_path != "-" and os.path.isdir(actions_path):
        return _verify_bundle(ctx, deck, in_deck, actions_path, as_json, live)
    text = read_text(actions_path, "the game")
    from ..real.refutation_files import refutation_in
    data = refutation_in(text, display_name(actions_path))
    if data is not None:
        return _verify_refutation(ctx, deck, in_deck, data, text, actions_path, as_json, live)
    game = parse_replay(text, display_name(actions_path), bool(live.get("any_deck")))
    from ..real.game_check import check_game
    checked = check_game(deck, played_rules(live, deck, in_deck, game, actions_path),
                         game.actions)
    rep, rules, error = checked.replay, checked.rules, checked.error
    if as_json:
        echo_json(checked.to_json())
    else:
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        click.echo("s VERIFIED" if checked.verified else "s REJECTED")
        if checked.reading.text is not None:
            click.echo(f"c as recorded: {checked.reading.text}; hanab.live's rule before "
                       f"{OLDER_RULES_UNTIL} played on, and every action is read as played")
        if error:
            click.echo(f"c reason: {error}")
        click.echo(f"c score: {rep.score} of {checked.target}" + (" (won)" if rep.won else ""))
        if rep.complete:
            click.echo(f"c end: {rep.end_text}")
        click.echo(f"c turns: {rep.turns}, strikes: {rep.strikes}")
    ctx.exit(0 if checked.verified else 1)


def _echo_any_deck(deck: Deck, rules: Rules) -> None:
    line = any_deck_line(deck, rules)
    if line is not None:
        click.echo(line)


def _verify_refutation(ctx, deck: Deck, in_deck: Replay | None, data, text: str, path: str,
                       as_json: bool, live: dict) -> None:
    """``verify DECK REFUTATION``: the refutation walked again from its position."""
    from ..real.refutation_files import RefutationFile
    found = RefutationFile.of(data, text, display_name(path))
    rules = game_rules(live, in_deck, deck, path)
    walked = found.walk(deck, rules)
    goal, position, error = walked.goal, walked.position, walked.error
    if as_json:
        echo_json(walked.to_json() | setup_json(deck, rules))
    else:
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        where = f"after {len(position)} actions" if position else "from the deal"
        click.echo("s VERIFIED" if error is None else "s REJECTED")
        if error is None:
            click.echo(f"c refutation: no game {where} reaches {goal} ({walked.used:,} of "
                       f"{walked.states:,} refuted states used, every legal action followed)")
        else:
            click.echo(f"c reason: {error}")
    ctx.exit(0 if error is None else 1)


def _verify_bundle(ctx, deck: Deck, in_deck: Replay | None, path: str, as_json: bool,
                   live: dict) -> None:
    """``verify DECK DIR``: a proof bundle of ``solve --proof DIR`` checked again
    (``real.plan_proofs.check_bundle``: the plans listed from the deal, each covered)."""
    from ..real.plan_proofs import check_bundle
    rules = game_rules(live, in_deck, deck, path)
    checked = check_bundle(Game.start(deck, rules), path)
    if as_json:
        echo_json({"verified": checked.error is None, "claim": checked.claim,
                   "plans": checked.plans, "proved": checked.proved,
                   "capped": checked.capped, "error": checked.error}
                  | setup_json(deck, rules))
    else:
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        click.echo("s VERIFIED" if checked.error is None else "s REJECTED")
        click.echo(f"c proofs: {checked.text}" if checked.error is None else
                   f"c reason: {checked.error}")
    ctx.exit(0 if checked.error is None else 1)
