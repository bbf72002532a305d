"""Warbench engine: the simulator core. It knows no particular ruleset (see DESIGN.md)."""
