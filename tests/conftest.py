"""Settings shared by every test folder: the Hypothesis profiles, the one place for them.

``ci`` (the default, what `make test` runs) plays many random games per property; ``quick``
(``HYPOTHESIS_PROFILE=quick``, for `make test-quick`) far fewer. A test that needs its own
counts or probe rates for each profile takes them from ``tests.common.per_profile``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.common import CI, QUICK

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"

# Properties play whole games, which take much longer than Hypothesis expects of one example:
# no deadline (a wall-clock limit fails at random on a busy machine) and no "too slow" check.
# No example database either, so a run depends on its seed only, not on earlier runs.
_BASE = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(CI, _BASE, max_examples=300)
settings.register_profile(QUICK, _BASE, max_examples=60)
settings.load_profile(os.environ.get(PROFILE_VARIABLE, CI))


@pytest.fixture(autouse=True)
def _saved_games_in_a_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal game saves every game under the user's data folder: in tests, a fresh
    folder of the test's own (``rebelspace.terminal.saves``), never the user's."""
    from rebelspace.terminal.saves import DATA_DIR_VARIABLE

    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path_factory.mktemp("data")))
