"""The real game as an OR-Tools CP-SAT model (encodings/live-cpsat.md), used by the
method ``cpsat`` (``real.methods.cpsat``, which imports this module only when it
runs: OR-Tools takes half a second to load).

No time grid: the backbone is the sequence of slots (plays and discards) with the
run of clues before each; a card carries the slot it leaves the hand at (or
stays) and how (play, discard, strike).  Who moves at a slot follows from the
runs (the mover rotates by 1 + run), who owns a drawn card from the slot that
drew it; piles are monotone "reached" literals per slot, clue tokens a running
count per slot, the final round a bound on the turns after the last draw.  Hand
counts, clue targets and the ends (hanab.live's early ends with ``maximize``) are
in ``live.cp_hands``.  The model starts from any position of a game (a referee
``Game``): slot 0 is the rest of the game's first play or discard.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from ...runtime.deadline import NEVER, Deadline, TimeUp
from ...solvers.cpsat import configure
from ...core.errors import SolverBug
from ...core.options import SolveOptions
from ...core.status import Status
from ..actions import Action
from .cpsat_hands import CpEnds
from ..pile_plans import Plan
from .plans import PlanGame
from ..referee import Game
from .schedule import DISCARD, PLAY, STRIKE, ZERO_ENDS, Layout, first_legal_game, to_actions
from ..solve import LiveOutcome


BUILD, SEARCH = "building the CP-SAT model", "CP-SAT search"
FAST_SECONDS = 1.0      # the first run, without presolve (``LiveCpModel._run``)


class LiveCpModel(CpEnds, PlanGame):
    """The model of the rest of the game from the position ``start``: a win, or with
    ``maximize`` the best score over the complete games that do not strike out.
    With ``plan`` (Up or Down, Sudoku), the game of that pile plan
    (``encoders.plans``): the deck renamed by heights, a dead card never a success,
    the forbidden plays left out, the early ends read on the real piles; with
    ``floor`` >= 0 only the games scoring more than it."""

    def __init__(self, start: Game, maximize: bool, deadline: Deadline = NEVER,
                 plan: Plan | None = None, floor: int = -1):
        t0 = time.perf_counter()
        deadline.check(BUILD)
        self.start, self.maximize, self.floor = start, maximize, floor
        self._take_plan(plan, maximize)
        self.lay = lay = Layout.of(start)
        self.m = cp_model.CpModel()
        self._slots()
        self._cards()
        self._piles()
        if plan is not None:
            self._plan(plan)
        deadline.check(BUILD)
        if lay.tokens is not None:
            self._tokens()
        if lay.strikes_left < len(lay.live):
            self.m.add(sum(self.fate[i][STRIKE] for i in lay.live) <= lay.strikes_left)
        if lay.final_round:
            self._final_round()
        self._hands()
        self._ending()
        deadline.check(BUILD)
        if maximize:
            self.m.maximize(sum(self.played))
            if floor >= 0:
                self.m.add(sum(self.played) >= floor + 1)
        proto = self.m.Proto()
        nv, nc, N = len(proto.variables), len(proto.constraints), max(lay.N, 1)
        self.stats = {"cards": lay.N, "slots": lay.slots, "variables": nv, "constraints": nc,
                      "variables_per_card": round(nv / N, 2),
                      "constraints_per_card": round(nc / N, 2),
                      "build_seconds": round(time.perf_counter() - t0, 6)}

    # ---- the backbone: slots, runs of clues, movers, turns -------------------

    def _slots(self) -> None:
        m, lay = self.m, self.lay
        S, p, cap = lay.slots, lay.players, lay.run_cap
        self.used = [m.new_bool_var(f"used_{k}") for k in range(S)]
        for k in range(S - 1):
            m.add_implication(self.used[k + 1], self.used[k])
        # run[k]: the clues right before slot k; run[K] those after the last slot.
        self.run = [m.new_int_var(0, cap, f"run_{k}") for k in range(S + 1)]
        self.is_run: list[list[cp_model.IntVar]] = []
        self.mover: list[list[cp_model.IntVar]] = []
        for k in range(S + 1):
            one = [m.new_bool_var(f"run_{k}_is_{j}") for j in range(cap + 1)]
            m.add_exactly_one(one)
            m.add(self.run[k] == sum(j * x for j, x in enumerate(one)))
            if k:
                m.add_implication(~self.used[k - 1], one[0])
            r = [m.new_bool_var(f"mover_{k}_{q}") for q in range(p)]
            m.add_exactly_one(r)
            # The mover turns by 1 + run; the turn before the position's "was" the
            # player's before the one to move.
            for j, x in enumerate(one):
                for q0 in self.movers_before(k):
                    prev = [~self.mover[k - 1][q0]] if k else []
                    m.add_bool_or([*prev, ~x, r[(q0 + 1 + j) % p]])
            self.is_run.append(one)
            self.mover.append(r)
        # turn[k]: the turn of slot k; for k = K the number of turns played.
        tmax = S + (S + 1) * cap
        self.turn = [m.new_int_var(k, tmax, f"turn_{k}") for k in range(S + 1)]
        for k in range(S + 1):
            m.add(self.turn[k] == (self.turn[k - 1] if k else -1) + 1 + self.run[k])
        self.kind = []      # per slot: discard, success of a top card, any other play
        for k in range(S):
            dis, top, oth = (m.new_bool_var(f"{x}_{k}") for x in ("discard", "top", "other"))
            m.add(dis + top + oth == self.used[k])
            self.kind.append((dis, top, oth))

    def movers_before(self, k: int) -> list[int] | range:
        """The players who may have moved slot k-1 (before slot 0: fixed)."""
        return range(self.lay.players) if k else [(self.lay.first - 1) % self.lay.players]

    # ---- cards: leave slot, fate, owner -------------------------------------------

    def _cards(self) -> None:
        m, lay, n = self.m, self.lay, self.top
        self.fate: dict[int, dict[str, cp_model.IntVar]] = {}
        self.at: dict[int, dict[int, cp_model.IntVar]] = {}
        self.stay: dict[int, cp_model.IntVar] = {}
        for i in lay.live:
            a = self.deck.cards[i].value
            owner, d = lay.owner[i], lay.draw_slot[i]
            # A deck play: the last card leaves at the slot that draws it, as a play.
            first = d if lay.deck_play and i == lay.N - 1 else d + 1
            at = {k: m.new_bool_var(f"at_{i}_{k}") for k in range(first, lay.slots)}
            f = {x: m.new_bool_var(f"{x}_{i}") for x in (PLAY, DISCARD, STRIKE)}
            stay = self.stay[i] = m.new_bool_var(f"stay_{i}")
            m.add_exactly_one([*f.values(), stay])
            m.add_exactly_one([*at.values(), stay])
            for k, x in at.items():
                # The slot's mover owns the card: its holder or its drawer.
                if owner is not None:
                    m.add_implication(x, self.mover[k][owner])
                elif k == d:
                    m.add_bool_or([~x, ~f[DISCARD]])
                else:
                    for q in range(lay.players):
                        m.add_bool_or([~x, ~self.mover[d][q], self.mover[k][q]])
                dis, top, oth = self.kind[k]
                m.add_bool_or([~x, ~f[DISCARD], dis])
                m.add_bool_or([~x, ~f[PLAY], top if a == n else oth])
                m.add_bool_or([~x, ~f[STRIKE], oth])
            self.fate[i] = f
            self.at[i] = at
        for k in range(lay.slots):
            m.add(sum(at[k] for at in self.at.values() if k in at) == self.used[k])

    # ---- piles: monotone "reached" literals, grown only by a successful play -----

    def _piles(self) -> None:
        m, deck, S = self.m, self.deck, self.lay.slots
        self.copies: dict = {}          # (a, c) -> the live cards of that identity
        for i in self.lay.live:
            self.copies.setdefault(deck.cards[i], []).append(i)
        self.reached: dict = {}  # (a, c) -> [pile c has reached a before slot k]
        reached = self.reached
        self.played = []
        for c in range(1, deck.c + 1):
            base = self.lay.piles[c - 1]
            for a in range(1, self.top + 1):
                r = reached[(a, c)] = [m.new_bool_var(f"reached_{a}_{c}_{k}") for k in range(S + 1)]
                below = reached.get((a - 1, c))
                m.add(r[0] == int(a <= base))
                for k in range(S):
                    m.add_implication(r[k], r[k + 1])
                    if below:
                        m.add_implication(r[k + 1], below[k + 1])
                copies = self.copies.get((a, c), [])
                # Redundant: one copy of each card on the piles is a successful play
                # (or was played before the position).
                m.add(sum(self.fate[i][PLAY] for i in copies) == r[S] - r[0])
                for k in range(S):
                    here = [i for i in copies if k in self.at[i]]
                    m.add_bool_or([~r[k + 1], r[k], *(self.at[i][k] for i in here)])
                    for i in here:
                        x, f = self.at[i][k], self.fate[i]
                        m.add_bool_or([~x, ~r[k + 1], r[k], f[PLAY]])
                        m.add_bool_and([~r[k], r[k + 1], *([below[k]] if below else [])]
                                       ).only_enforce_if([x, f[PLAY]])
                        # A strike: the pile is below a-1 or already at a.
                        m.add_bool_or([*([~below[k]] if below else []), r[k]]
                                      ).only_enforce_if([x, f[STRIKE]])
                self.played.append(r[S])

    def _clause_of(self, lits: list) -> None:
        self.m.add_bool_or(lits)

    # ---- clue tokens: a running count per slot ----------------------------------

    def _tokens(self) -> None:
        lay = self.lay
        m, S, M, now, cost = self.m, lay.slots, lay.tokens, lay.tokens_now, lay.clue_cost
        assert M is not None and now is not None
        # tok[k]: the tokens before slot k's move, after its run of clues
        self.tok = [m.new_int_var(0, M, f"tokens_{k}") for k in range(S + 1)]
        gains: list = []        # per slot: a discard, a top card's token
        for k in range(S + 1):
            before = self.tok[k - 1] + sum(gains[k - 1]) if k else now
            m.add(self.tok[k] == before - (self.run[k] if cost == 1 else cost * self.run[k]))
            if k == S:
                break
            dis, top, _ = self.kind[k]
            below = m.new_bool_var(f"below_max_{k}")
            m.add(self.tok[k] <= M - 1).only_enforce_if(below)
            m.add(self.tok[k] >= M).only_enforce_if(~below)
            if lay.discard_at_max:
                # a discard is legal at the max too, and then gives nothing (Orange)
                dis_gain = m.new_bool_var(f"discard_gain_{k}")
                m.add_bool_and([dis, below]).only_enforce_if(dis_gain)
                m.add_bool_or([~dis, ~below, dis_gain])
            else:
                m.add_implication(dis, below)
                dis_gain = dis
            if not lay.top_token:           # Throw It in a Hole: a top card gives none
                gains.append((dis_gain,))
                continue
            back = m.new_bool_var(f"top_gain_{k}")    # a top card's token, below the max
            m.add_bool_and([top, below]).only_enforce_if(back)
            m.add_bool_or([~top, ~below, back])
            gains.append((dis_gain, back))

    # ---- the final round: no turn after the p turns that follow the last draw ---

    def anchor(self) -> cp_model.LinearExprT:
        """The turn that drew the last card, counted from the position (with the deck
        already empty: ``Layout.anchor``)."""
        return self.turn[self.lay.last_draw] if self.lay.last_draw >= 0 else self.lay.anchor

    def _final_round(self) -> None:
        for k in self.lay.tail:
            c = self.m.add(self.turn[k] <= self.anchor() + self.lay.players + 1)
            if k:
                c.only_enforce_if(self.used[k - 1])

    def values(self, order: list[int], fates: list[str], runs: list[int]) -> list[tuple]:
        """(variable, value) for the choices of a game given as (cards by slot, fates,
        runs), e.g. by ``schedule.from_actions``: its slots, fates, runs, used slots."""
        slot_of = {i: k for k, i in enumerate(order)}
        out: list[tuple] = []
        for i, at in self.at.items():
            out += [(x, int(slot_of.get(i) == k)) for k, x in at.items()]
            mine = fates[slot_of[i]] if i in slot_of else None
            out += [(x, int(f == mine)) for f, x in self.fate[i].items()]
        for k, one in enumerate(self.is_run):
            r = runs[k] if k < len(runs) else 0
            out += [(x, int(j == r)) for j, x in enumerate(one)]
        out += [(u, int(k < len(order))) for k, u in enumerate(self.used)]
        return out

    # ---- solving and decoding ---------------------------------------------------

    def solve(self, options: SolveOptions, deadline: Deadline = NEVER) -> LiveOutcome:
        if deadline.expired():
            return LiveOutcome(Status.UNKNOWN, stats=dict(self.stats),
                               reason=str(TimeUp(deadline.limit, SEARCH)))
        t0 = time.perf_counter()
        solver, code = self._run(options, deadline, presolve=False)
        phase = "fast"
        undecided = code == cp_model.UNKNOWN or (code == cp_model.FEASIBLE and self.maximize)
        if undecided and not deadline.expired():
            again, code2 = self._run(options, deadline, presolve=True)
            phase = "presolved"
            better = code2 in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or (
                code2 == cp_model.FEASIBLE and (code == cp_model.UNKNOWN or
                                                again.objective_value >= solver.objective_value))
            if better:
                solver, code = again, code2
        stats = {**self.stats, "solve_seconds": round(time.perf_counter() - t0, 6),
                 "cpsat_status": solver.status_name(code), "cpsat_phase": phase,
                 "cpsat_conflicts": solver.num_conflicts}
        target = len(self.played)
        if code == cp_model.INFEASIBLE:
            if self.maximize and self.floor >= 0:
                return LiveOutcome(Status.UNWINNABLE, stats=stats, reason=f"CP-SAT: no "
                                   f"complete game scores more than {self.floor}")
            if not self.maximize:
                return LiveOutcome(Status.UNWINNABLE, stats=stats,
                                   reason="CP-SAT: infeasible (no legal game wins)")
            # Every complete game strikes out (or fails the speedrun): any scores 0.
            return LiveOutcome(Status.UNWINNABLE, first_legal_game(self.start), 0, stats=stats,
                               reason=f"CP-SAT: every complete game {ZERO_ENDS[self.lay.speedrun]}")
        if code == cp_model.UNKNOWN:
            return LiveOutcome(Status.UNKNOWN, stats=stats,
                               reason=str(TimeUp(deadline.limit, SEARCH)))
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolverBug(f"cpsat: CP-SAT status {solver.status_name(code)}: "
                            f"{self.m.validate()}")
        actions = self._decode(solver)
        if not self.maximize:
            return LiveOutcome(Status.WINNABLE, actions, stats=stats)
        score = round(solver.objective_value)
        if score == target:
            return LiveOutcome(Status.WINNABLE, actions, score, stats=stats)
        if code == cp_model.FEASIBLE:
            bound = round(solver.best_objective_bound)
            return LiveOutcome(Status.UNKNOWN, actions, score,
                               stats={**stats, "upper_bound": bound},
                               reason=f"{TimeUp(deadline.limit, SEARCH)}: best score found "
                                      f"{score}, upper bound {bound} of {target}")
        return LiveOutcome(Status.UNWINNABLE, actions, score, stats=stats,
                           reason=f"CP-SAT: no complete game plays more than {score} of "
                                  f"{target} cards (proved optimal)")

    def _run(self, options: SolveOptions, deadline: Deadline,
             presolve: bool) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
        """One CP-SAT run.  The first (``presolve`` False) has the solitaire model's
        settings (``solvers.cpsat.configure``: no presolve, probing, symmetry or LP;
        workers, seed, what is left of the time, SIGINT left to the command) and at
        most FAST_SECONDS: most decks are decided at once from the hint.  The
        second has CP-SAT's presolve, probing and symmetry back on (LP still off):
        measured on 6-player standard decks that the greedy game does not win, it
        decides in 1-3 s what the first takes 20-30 s for, and costs about 0.8 s
        on the easy decks, hence only after the first."""
        solver = cp_model.CpSolver()
        configure(solver, options, deadline)
        prm = solver.parameters
        if presolve:
            prm.cp_model_presolve = True
            prm.cp_model_probing_level = 2
            prm.symmetry_level = 2
        else:
            prm.max_time_in_seconds = min(prm.max_time_in_seconds, FAST_SECONDS)
        return solver, solver.solve(self.m)

    def _decode(self, solver: cp_model.CpSolver) -> list[Action]:
        moved = sorted((k, i) for i, at in self.at.items() for k, x in at.items()
                       if solver.boolean_value(x))
        order = [i for _, i in moved]
        fates = [next(x for x, v in self.fate[i].items() if solver.boolean_value(v))
                 for i in order]
        runs = [solver.value(self.run[k]) for k in range(len(order) + 1)]
        first = None
        if self.lay.by_type is not None and self.lay.last_clue is None:
            first = solver.boolean_value(self.next_color[0])
        return to_actions(self.start, order, fates, runs, first)

