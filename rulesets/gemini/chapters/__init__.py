"""The rulebook's chapters for Gemini and its skirmish rules: the core (movement,
shooting, melee, wounds, morale, measuring), the Combat Score, the activation-dice game,
the switches table, and ``options/``, the text's optional rules one family a module."""
