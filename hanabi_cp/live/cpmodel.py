"""The real game as an OR-Tools CP-SAT model (encodings/live-cpsat.md), used by the
method ``cpsat`` (``live.methods.cpsat``, which imports this module only when it
runs: OR-Tools takes half a second to load).

No time grid: the backbone is the sequence of slots (plays and discards) with the
run of clues before each; a card carries the slot it leaves the hand at (or
stays) and how (play, discard, strike).  Who moves at a slot follows from the
runs (the mover rotates by 1 + run), who owns a drawn card from the slot that
drew it; piles are monotone "reached" literals per slot, clue tokens a running
count per slot, the final round a bound on the turns after the last draw.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from ..deadline import NEVER, Deadline, TimeUp
from ..methods.cpsat import configure
from ..errors import SolverBug
from ..model import Deck
from ..solvers import SolveOptions, Status
from .actions import Action
from .rules import Rules
from .schedule import DISCARD, PLAY, STRIKE, Layout, first_legal_game, to_actions
from .solve import LiveOutcome


BUILD, SEARCH = "building the CP-SAT model", "CP-SAT search"
FAST_SECONDS = 1.0      # the first run, without presolve (``LiveCpModel._run``)


class LiveCpModel:
    """The model of (deck, rules): a win, or with ``maximize`` the best score over
    the complete games that do not strike out."""

    def __init__(self, deck: Deck, rules: Rules, maximize: bool,
                 deadline: Deadline = NEVER):
        t0 = time.perf_counter()
        deadline.check(BUILD)
        self.deck, self.rules, self.maximize = deck, rules, maximize
        self.lay = lay = Layout.of(deck, rules)
        self.m = cp_model.CpModel()
        self._slots()
        self._cards()
        self._piles()
        deadline.check(BUILD)
        if lay.tokens is not None:
            self._tokens()
        if lay.strikes <= lay.N:
            self.m.add(sum(f[STRIKE] for f in self.fate) <= lay.strikes - 1)
        if lay.final_round:
            self._final_round()
        if lay.tail_matters:
            self._tail()
        self._ending()
        deadline.check(BUILD)
        if maximize:
            self.m.maximize(sum(self.played))
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
            # The mover turns by 1 + run; turn -1 "was" player p-1's.
            for j, x in enumerate(one):
                for q0 in range(p) if k else [p - 1]:
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

    # ---- cards: leave slot, fate, owner -------------------------------------------

    def _cards(self) -> None:
        m, lay, n = self.m, self.lay, self.deck.n
        self.fate: list[dict[str, cp_model.IntVar]] = []
        self.at: list[dict[int, cp_model.IntVar]] = []
        for i, (a, _) in enumerate(self.deck.cards):
            owner, d = lay.owner[i], lay.draw_slot[i]
            at = {k: m.new_bool_var(f"at_{i}_{k}") for k in range(d + 1, lay.slots)}
            f = {x: m.new_bool_var(f"{x}_{i}") for x in (PLAY, DISCARD, STRIKE)}
            stay = m.new_bool_var(f"stay_{i}")
            m.add_exactly_one([*f.values(), stay])
            m.add_exactly_one([*at.values(), stay])
            for k, x in at.items():
                # The slot's mover owns the card: its dealt owner or its drawer.
                if owner is not None:
                    m.add_implication(x, self.mover[k][owner])
                else:
                    for q in range(lay.players):
                        m.add_bool_or([~x, ~self.mover[d][q], self.mover[k][q]])
                dis, top, oth = self.kind[k]
                m.add_bool_or([~x, ~f[DISCARD], dis])
                m.add_bool_or([~x, ~f[PLAY], top if a == n else oth])
                m.add_bool_or([~x, ~f[STRIKE], oth])
            self.fate.append(f)
            self.at.append(at)
        for k in range(lay.slots):
            m.add(sum(at[k] for at in self.at if k in at) == self.used[k])

    # ---- piles: monotone "reached" literals, grown only by a successful play -----

    def _piles(self) -> None:
        m, deck, S = self.m, self.deck, self.lay.slots
        groups: dict = {}
        for i, card in enumerate(deck.cards):
            groups.setdefault(card, []).append(i)
        reached: dict = {}       # (a, c) -> [pile c has reached a before slot k]
        self.played = []
        for c in range(1, deck.c + 1):
            for a in range(1, deck.n + 1):
                r = reached[(a, c)] = [m.new_bool_var(f"reached_{a}_{c}_{k}") for k in range(S + 1)]
                below = reached.get((a - 1, c))
                m.add(r[0] == 0)
                for k in range(S):
                    m.add_implication(r[k], r[k + 1])
                    if below:
                        m.add_implication(r[k + 1], below[k + 1])
                copies = groups.get((a, c), [])
                # Redundant: one copy of each card on the piles is a successful play.
                m.add(sum(self.fate[i][PLAY] for i in copies) == r[S])
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

    # ---- clue tokens: a running count per slot ----------------------------------

    def _tokens(self) -> None:
        m, S, M = self.m, self.lay.slots, self.lay.tokens
        assert M is not None
        # tok[k]: the tokens before slot k's move, after its run of clues
        self.tok = [m.new_int_var(0, M, f"tokens_{k}") for k in range(S + 1)]
        gains: list = []        # per slot: a discard, a top card's token
        for k in range(S + 1):
            before = self.tok[k - 1] + sum(gains[k - 1]) if k else M
            m.add(self.tok[k] == before - self.run[k])
            if k == S:
                break
            dis, top, _ = self.kind[k]
            below = m.new_bool_var(f"below_max_{k}")
            m.add(self.tok[k] <= M - 1).only_enforce_if(below)
            m.add(self.tok[k] >= M).only_enforce_if(~below)
            m.add_implication(dis, below)
            back = m.new_bool_var(f"top_gain_{k}")    # a top card's token, below the max
            m.add_bool_and([top, below]).only_enforce_if(back)
            m.add_bool_or([~top, ~below, back])
            gains.append((dis, back))

    # ---- the final round: no turn after the p turns that follow the last draw ---

    def anchor(self) -> cp_model.LinearExprT:
        """The turn that drew the last card (0 when the deal did, as the referee counts)."""
        return self.turn[self.lay.last_draw] if self.lay.last_draw >= 0 else 0

    def _final_round(self) -> None:
        for k in self.lay.tail:
            c = self.m.add(self.turn[k] <= self.anchor() + self.lay.players + 1)
            if k:
                c.only_enforce_if(self.used[k - 1])

    # ---- after the last draw: hand counts, clue targets ----------------------

    def _tail(self) -> None:
        m, lay = self.m, self.lay
        p, H, S = lay.players, lay.hand_size, lay.slots
        self.holds: dict = {}    # k -> per player (cards held before slot k, holds any)
        count: list = list(lay.hands)
        for k in lay.tail:
            holds = []
            for q in range(p):
                h = m.new_int_var(0, H, f"hand_{k}_{q}")
                m.add(h == count[q])
                hp = m.new_bool_var(f"holds_{k}_{q}")
                m.add(h >= 1).only_enforce_if(hp)
                m.add(h == 0).only_enforce_if(~hp)
                holds.append((h, hp))
            self.holds[k] = holds
            # Every clue in run k needs another player holding a card.
            for j in range(1, min(lay.run_cap, p) + 1):
                at_least = m.new_bool_var(f"run_ge_{k}_{j}")
                m.add(self.run[k] >= j).only_enforce_if(at_least)
                m.add(self.run[k] <= j - 1).only_enforce_if(~at_least)
                for q0 in range(p) if k else [p - 1]:
                    others = sum(holds[x][1] for x in range(p) if x != (q0 + j) % p)
                    when = [self.mover[k - 1][q0]] if k else []
                    m.add(others >= 1).only_enforce_if([*when, at_least])
            if k == S:
                break
            moves = [m.new_bool_var(f"moves_{k}_{q}") for q in range(p)]
            m.add(sum(moves) == self.used[k])
            for q in range(p):
                m.add_implication(moves[q], self.mover[k][q])
            count = [holds[q][0] - moves[q] for q in range(p)]

    # ---- how the game ends ----------------------------------------------------

    def _ending(self) -> None:
        m, lay = self.m, self.lay
        S = lay.slots
        won = m.new_bool_var("won")
        m.add_bool_and(self.played).only_enforce_if(won)
        m.add_bool_or([*(~x for x in self.played), won])
        if not self.maximize:
            m.add(won == 1)
        for k in range(S + 1):
            end = m.new_bool_var(f"end_{k}")        # exactly k slots are used
            m.add(end == (self.used[k - 1] if k else 1) - (self.used[k] if k < S else 0))
            if k:
                # A win ends with the play that completes the last pile.
                m.add_bool_and([self.kind[k - 1][1], self.is_run[k][0]]).only_enforce_if([won, end])
            else:
                m.add_bool_or([~won, ~end])
            if not self.maximize:
                continue
            over = []
            if k > lay.last_draw and lay.final_round:
                fin = m.new_bool_var(f"final_round_over_{k}")
                m.add(self.turn[k] == self.anchor() + lay.players + 1).only_enforce_if(fin)
                over.append(fin)
            if k > lay.last_draw and lay.tail_matters:
                over.append(self._stuck(k))
            # Before the last draw every hand is full: only a win ends the game.
            m.add_bool_or([won, ~end, *over])

    def _stuck(self, k: int) -> cp_model.IntVar:
        """A literal that forces the player to move after slot k-1 to have no card
        and no clue (no token, or nobody else holding a card)."""
        m, p = self.m, self.lay.players
        stuck = m.new_bool_var(f"stuck_{k}")
        no_token = m.new_bool_var(f"no_token_{k}")
        if self.lay.tokens is None:
            m.add(no_token == 0)
        else:
            m.add(self.tok[k] == 0).only_enforce_if(no_token)
        holds = self.holds[k]
        for q in range(p):
            m.add(holds[q][0] == 0).only_enforce_if([stuck, self.mover[k][q]])
            others = sum(holds[x][1] for x in range(p) if x != q)
            m.add(others == 0).only_enforce_if([stuck, self.mover[k][q], ~no_token])
        return stuck

    def values(self, order: list[int], fates: list[str], runs: list[int]) -> list[tuple]:
        """(variable, value) for the choices of a game given as (cards by slot, fates,
        runs), e.g. by ``schedule.from_actions``: its slots, fates, runs, used slots."""
        slot_of = {i: k for k, i in enumerate(order)}
        out: list[tuple] = []
        for i, (at, fate) in enumerate(zip(self.at, self.fate)):
            out += [(x, int(slot_of.get(i) == k)) for k, x in at.items()]
            mine = fates[slot_of[i]] if i in slot_of else None
            out += [(x, int(f == mine)) for f, x in fate.items()]
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
            if not self.maximize:
                return LiveOutcome(Status.UNWINNABLE, stats=stats,
                                   reason="CP-SAT: infeasible (no legal game wins)")
            # Every complete game strikes out: any complete game scores 0.
            return LiveOutcome(Status.UNWINNABLE, first_legal_game(self.deck, self.rules), 0,
                               stats=stats, reason="CP-SAT: every complete game strikes out")
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
            return LiveOutcome(Status.UNKNOWN, actions, score, stats=stats,
                               reason=f"{TimeUp(deadline.limit, SEARCH)}: best score found "
                                      f"{score}, upper bound {bound} of {target}")
        return LiveOutcome(Status.UNWINNABLE, actions, score, stats=stats,
                           reason=f"CP-SAT: no complete game plays more than {score} of "
                                  f"{target} cards (proved optimal)")

    def _run(self, options: SolveOptions, deadline: Deadline,
             presolve: bool) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
        """One CP-SAT run.  The first (``presolve`` False) has the solitaire model's
        settings (``methods.cpsat.configure``: no presolve, probing, symmetry or LP;
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
        moved = sorted((k, i) for i, at in enumerate(self.at) for k, x in at.items()
                       if solver.boolean_value(x))
        order = [i for _, i in moved]
        fates = [next(x for x, v in self.fate[i].items() if solver.boolean_value(v))
                 for i in order]
        runs = [solver.value(self.run[k]) for k in range(len(order) + 1)]
        return to_actions(self.deck, self.rules, order, fates, runs)

