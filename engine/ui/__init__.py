"""The game window: the only package that imports pygame and pygame_gui.

Why a package of its own: the rules, the runner and the AI must never load a window
toolkit (DESIGN.md "Rules of dependency"), so everything that draws or reads the mouse
lives here and talks to the engine only through ``Game`` and ``Ruleset``'s public calls.

Modules: ``camera`` (inches <-> pixels, pan, zoom), ``draw`` (a pure renderer with its
caches), ``overlays`` (plain data saying what to draw on top of the table), ``measure``
(the geometry service, with plain-math fallbacks), ``controls`` (mouse and keys into
proposed actions), ``hud`` (pygame_gui widgets), ``newgame`` (the start screen) and
``app`` (the loop, the agents, ``run_app``).
"""

import os

# pygame prints a banner on import; a player launching the game does not need it
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
