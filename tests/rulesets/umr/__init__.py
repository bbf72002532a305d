"""Tests of the Universal Miniatures Rules ruleset (rulesets/umr)."""
