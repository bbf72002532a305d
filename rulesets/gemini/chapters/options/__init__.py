"""The text's optional rules, each a switch a scenario's ``options`` table turns on.

Two layers. The rule modules are pure functions over the engine's dice and plain values
(``injuries``, ``conditions``, ``shooting_extras``, ``morale_extras``, ``nerve``,
``psychology``, ``reactions``, ``movement_extras``, ``targeting``, ``skills``,
``observation``; their tables in ``tables.toml``), tested with forced dice against the
rulebook's numbers. The hook modules (``damage``, ``fire_hooks``, ``fight_hooks``,
``move_hooks``, ``react_hooks``, ``nerve_hooks``, ``phase_hooks``, with ``sides`` and
``moving``) take the game's state and context: the core calls them at its call points
and they roll, log and set the statuses. No module here imports a core module that
imports one of them.
"""
