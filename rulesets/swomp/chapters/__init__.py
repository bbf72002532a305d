"""The SWOMP rulebook's chapters, one module each (contests, movement, shooting, close
combat, units and morale, vehicles...), with the verbs that carry them out and the
reactions they raise. The top level of the ruleset (flow, rules, candidates, odds,
score, victory, state) wires them into the engine's hooks."""
