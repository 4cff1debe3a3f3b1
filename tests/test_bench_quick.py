"""`python -m bench --quick` stays a small run (a minute or two): the arguments it
gives each module (no benchmark is run here)."""

import bench.__main__ as runner


def test_quick_scale_run_stops_at_small_images():
    # Without its own quick arguments bench.scale ran v = 50..250 (minutes, 1.6 GB).
    argv = runner.quick_args("scale")
    sizes = argv[argv.index("--sizes") + 1]
    assert max(int(v) for v in sizes.split(",")) <= 75
