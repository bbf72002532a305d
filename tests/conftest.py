"""Hypothesis draws the same examples on every run unless ``WARBENCH_FUZZ`` is set, as
``tests/test_fuzz.py`` does. Why: a property test that draws new examples each run can
fail CI on a latent bug in code a change never touched (it did: a subnormal coordinate,
5e-324, made GEOS raise), while the long random hunt stays one variable away:

    WARBENCH_FUZZ=1 ./warbench test tests/engine/test_geometry_props.py
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("hunt", derandomize=False)
settings.load_profile("hunt" if "WARBENCH_FUZZ" in os.environ else "repeatable")
