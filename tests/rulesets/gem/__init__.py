"""Forced-dice tests of the GEM ruleset."""
