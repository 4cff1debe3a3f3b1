"""`python -m bench --quick` stays a small run (a minute or two): the arguments it
gives each module (no benchmark is run here)."""

import bench.__main__ as runner


def test_quick_scale_run_stops_at_small_images():
    # Without its own quick arguments bench.scale ran v = 50..250 (minutes, 1.6 GB).
    argv = runner.quick_args("scale")
    sizes = argv[argv.index("--sizes") + 1]
    assert max(int(v) for v in sizes.split(",")) <= 75


def test_live_sweep_asks_each_unknown_again_with_more_time():
    """``--retry S``: a question the table counts unknown is asked again with S
    seconds, and its answer (certified or proved, as every answer of the sweep) is
    printed under the table, with a count of those decided."""
    import io
    import multiprocessing

    from bench import live_sweep

    live_sweep._setup()
    # as the table's row of a 2-player position left unknown: game 1 after 3 actions
    rows = [(2, 1, 3, "UNKNOWN", 10.0, "search", 0, None, 10.0, "", False)]
    out = io.StringIO()
    with multiprocessing.get_context("fork").Pool(1, initializer=live_sweep._setup) as pool:
        live_sweep._retried(pool, rows, False, False, 5.0, out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("     again at 5 s: seed 1 after 3 actions: WINNABLE in "), lines
    assert lines[-1] == "     again at 5 s: 1 of 1 decided"


def test_live_sweep_asks_again_the_position_its_game_reached():
    """A second try (``_position_task``) asks the question of the position the
    sweep's game reached (``_game_task``), and of the deal for k = 0: the same
    answers, best scores and evidence, position by position."""
    from bench import live_sweep

    live_sweep._setup()
    rows = live_sweep._game_task((3, 5, True, 5.0))
    for r in rows[:: max(1, len(rows) // 8)]:
        again = live_sweep._position_task((3, 5, r[2], True, 5.0))
        assert again[:4] == r[:4] and again[7] == r[7] and again[9] == r[9], (r, again)
