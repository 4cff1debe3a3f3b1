import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="run the long opt-in sweeps marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow sweep: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _collector_left_running():
    # hanabi_cp.runtime.nogc pauses the cyclic collector around bulk builders; a pause that
    # outlives its call would let a long-running library user's memory grow unseen.
    import gc

    was = gc.isenabled()
    yield
    if was and not gc.isenabled():
        gc.enable()
        pytest.fail("the cyclic garbage collector was left disabled")
