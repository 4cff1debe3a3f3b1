"""The strategies in hanab.live's variants (issue 45, item 4): every strategy reads
a clue by what it touches in the variant (rainbow, pink, omni, prism, dual-colour,
ambiguous suits and their dark versions, special ranks); a variant they cannot play
(a card that no clue of some type touches: white, brown, null; mute) is refused in
one line naming that card."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.core.errors import InvalidParameter
from hanabi_cp.apps.generators import variant_deck
from hanabi_cp.knowledge.possibilities import Public
from hanabi_cp.real.actions import Kind
from hanabi_cp.real.referee import replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.core.model import Card
from hanabi_cp.players.game import play_game
from hanabi_cp.players.strategies.infobot import Infobot
from hanabi_cp.players.strategies.information import Information, space_of

LEARNED = ["Rainbow (5 Suits)", "Pink (6 Suits)", "Omni (5 Suits)", "Prism (5 Suits)",
           "Dark Rainbow (6 Suits)", "Dark Pink (6 Suits)", "Dark Omni (6 Suits)",
           "Dark Prism (6 Suits)", "Rainbow-Ones & Pink (5 Suits)", "Ambiguous & Dual-Color Mix"]


def deal(name, seed):
    v = variant(name)
    return v, variant_deck(seed, v.deck_cards(), v.stack_size, len(v.suits))


class _Seats:
    """Every seat's public tables after every turn (a test harness)."""

    states: dict[tuple[int, int], list] = {}


class Recording(Information):
    def observe(self, view, turn):
        super().observe(view, turn)
        _Seats.states.setdefault((self.seed, turn.turn), []).append(self.knowledge_state())


@pytest.mark.parametrize("name", LEARNED)
def test_information_learns_the_variants_clues_and_never_misplays(name):
    _Seats.states.clear()
    for seed in range(4):
        v, deck = deal(name, seed)
        rules = Rules.for_players(4, variant=v)
        game = play_game(deck, rules, Recording, seed)
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete and rep.score == game.score
        assert game.strikes == 0       # it plays only cards its tables know playable
    for states in _Seats.states.values():
        assert len(states) == 4 and all(s == states[0] for s in states)


def _sound(cls, attr, bad):
    """``cls`` checking after every turn that its public tables keep the true kind of
    every card it sees."""
    class Checking(cls):
        def observe(self, view, turn):
            super().observe(view, turn)
            state = getattr(self, attr)
            for p, cards in enumerate(view.others):
                for slot, x in enumerate(cards or ()):
                    if not state.tables[p][slot] >> state.space.kind(x.value, x.color) & 1:
                        bad.append((turn.turn, p, slot, x))
    Checking.name = cls.name
    return Checking


@pytest.mark.parametrize("name", LEARNED[:4] + LEARNED[6:])
@pytest.mark.parametrize("cls, attr", [(Infobot, "common"), (Information, "public")])
def test_the_tables_keep_every_true_card(name, cls, attr):
    bad: list = []
    for players in (2, 5):
        for seed in range(2):
            v, deck = deal(name, seed)
            rules = Rules.for_players(players, variant=v)
            game = play_game(deck, rules, _sound(cls, attr, bad), seed)
            assert replay(deck, rules, game.actions).legal
    assert bad == []


@pytest.mark.parametrize("strategy", ["recommendation", "cheat", "infobot"])
@pytest.mark.parametrize("name", LEARNED[:4])
def test_the_other_strategies_play_legal_games(strategy, name):
    for seed in range(3):
        v, deck = deal(name, seed)
        rules = Rules.for_players(3, variant=v)
        game = play_game(deck, rules, strategy, seed)
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete and rep.score == game.score


def test_a_rainbow_clue_narrows_the_tables_by_what_it_touches():
    v, deck = deal("Rainbow (5 Suits)", 1)
    space = space_of(_view(v))
    red = space.clue_mask(True, 1)                      # the first clue color, Red
    assert red == space.color_masks[1] | space.color_masks[5]      # Red and Rainbow cards
    pub = Public.start(space, (4, 4)).after_hint(4, (-1, -1), 1, True, 1, (0,))
    touched, untouched = pub.tables[1][0], pub.tables[1][1]
    assert touched & ~red == 0 and untouched & space.color_masks[5] == 0
    assert untouched & space.color_masks[2]              # yellow is still possible


def _view(v):
    class V:
        n, c = v.stack_size, len(v.suits)
        copies = {Card(a, k): v.copies(k - 1, a) for k in range(1, len(v.suits) + 1)
                  for a in range(1, v.stack_size + 1)}
        rules = Rules.for_players(2, variant=v)
    return V


@pytest.mark.parametrize("name, strategy, message", [
    ("White (5 Suits)", "information", "strategy 'information' may need to give a clue of "
     "either type to any player; in the variant 'White (5 Suits)' no color clue touches White 1"),
    ("Brown (5 Suits)", "recommendation", "no rank clue touches Brown 1"),
    ("Color Mute (5 Suits)", "cheat", "there is no color clue"),
    ("Null (5 Suits)", "infobot", "strategy 'infobot' may need to give a clue of either type "
     "to any player; in the variant 'Null (5 Suits)' no color clue touches Null 1, so it "
     "cannot play it"),
])
def test_refusals_name_why(name, strategy, message):
    v, deck = deal(name, 0)
    with pytest.raises(InvalidParameter) as info:
        play_game(deck, Rules.for_players(4, variant=v), strategy, 0)
    assert message in str(info.value)
    res = CliRunner().invoke(main, ["play", "--games", "1", "--csv", "x.csv", "--players", "4",
                                    "--variant", name, "--strategy", strategy])
    assert res.exit_code == 2 and message in res.stderr and res.stderr.count("\n") == 1


def test_empty_clues_let_a_white_suit_be_played():
    # with hanab.live's emptyClues option a color clue may touch nothing
    v, deck = deal("White (5 Suits)", 2)
    rules = Rules.for_players(3, variant=v, empty_clues=True)
    game = play_game(deck, rules, "information", 2)
    assert replay(deck, rules, game.actions).legal and game.strikes == 0
    assert any(a.kind is Kind.COLOR_CLUE for a in game.actions)


def test_a_strategy_that_reads_no_variants_clues_is_refused_naming_the_card():
    # a strategy of one's own reads clues as No Variant's unless it says otherwise
    class Plain(Information):
        name = "plain"
        reads_variant_clues = False
    v, deck = deal("Rainbow (5 Suits)", 0)
    with pytest.raises(InvalidParameter) as info:
        play_game(deck, Rules.for_players(3, variant=v), Plain, 0)
    assert str(info.value) == (
        "strategy 'plain' reads clues as No Variant's (a color clue touches one suit, a rank "
        "clue one rank); in the variant 'Rainbow (5 Suits)' clues touch otherwise: every "
        "color clue touches Rainbow 1, so it cannot play it")
    v, deck = deal("Black (6 Suits)", 0)
    assert play_game(deck, Rules.for_players(3, variant=v), Plain, 0).turns > 0
