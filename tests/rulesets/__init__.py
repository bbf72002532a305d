"""Tests of the rulesets, one package per rulebook."""
