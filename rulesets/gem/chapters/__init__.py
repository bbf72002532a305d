"""The GEM rulebook's chapters: movement, missile fire, melee, morale, magic,
vehicles and the rest; the top-level modules dispatch to these."""
