"""HLE's own agents playing HLE's own games, converted to our form as they end.

``play_game(agent, players, seed)`` runs one game the way HLE's
``examples/rl_env_example.py`` does: an ``rl_env.HanabiEnv`` with the
"Hanabi-Full" parameters (5 colours and ranks, 8 information and 3 life tokens),
one agent object per player (``agents.random_agent.RandomAgent`` or
``agents.simple_agent.SimpleAgent``, shipped in the package), each step the
current player's agent acting on its own observation.  The environment is fresh
per game and seeded with ``seed``, so its deck is the seed's (``hle.deck_from_seed``);
the random agent draws from Python's module-level ``random``, seeded with ``seed``
for the game and restored after it, so a game is the same on every run.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ..core.errors import InvalidParameter
from ..core.registry import Registry
from .hle import HLEGame, require, to_game

# HLE's agents by name: classes of HLE's package
AGENTS: Registry[type] = Registry("HLE agent", [
    ("random", "hanabi_learning_environment.agents.random_agent:RandomAgent"),
    ("simple", "hanabi_learning_environment.agents.simple_agent:SimpleAgent"),
])
# HLE's seed is a C int, and -1 asks it for a random one: seeds stay in 0 .. 2^31 - 1.
MAX_SEED = 2 ** 31 - 1


@dataclass(frozen=True)
class AgentGame:
    game: HLEGame
    agent: str
    seed: int
    piles: int           # the fireworks at the end (HLE scores 0 once the lives run out)
    lives: int           # life tokens left
    seconds: float


def agent_class(name: str):
    require()
    return AGENTS.lookup(name)


def check_seed(seed: int, games: int = 1) -> None:
    if seed < 0 or seed + games - 1 > MAX_SEED:
        raise InvalidParameter(f"{{seed}} {seed}: HLE's seeds of {games} games must lie in "
                               f"0 .. {MAX_SEED}", "seed")


def play_game(agent: str, players: int, seed: int) -> AgentGame:
    """One game of HLE's ``agent`` at ``players``, HLE seeded with ``seed``."""
    require()
    from hanabi_learning_environment import pyhanabi, rl_env
    cls = agent_class(agent)
    check_seed(seed)
    start = time.perf_counter()
    env = rl_env.HanabiEnv({"colors": 5, "ranks": 5, "players": players,
                            "max_information_tokens": 8, "max_life_tokens": 3, "seed": seed,
                            "observation_type":
                                pyhanabi.AgentObservationType.CARD_KNOWLEDGE.value})
    saved = random.getstate()
    random.seed(seed)
    try:
        observations = env.reset()
        agents = [cls({"players": players}) for _ in range(players)]
        done = False
        while not done:
            current = observations["current_player"]
            action = agents[current].act(observations["player_observations"][current])
            observations, _, done, _ = env.step(action)
    finally:
        random.setstate(saved)
    game = replace(to_game(env.state), names=tuple(f"{agent} {i}" for i in range(players)))
    return AgentGame(game, agent, seed, sum(env.state.fireworks()), env.state.life_tokens(),
                     time.perf_counter() - start)
