"""Ruleset plugins, one package per rulebook (loaded by name through engine.ruleset.load)."""
