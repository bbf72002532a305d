"""The Universal Miniatures Rules chapter by chapter: character creation's abilities and
armies, action dice, movement (walking, jumps, climbing and falling), melee and ballistic
attacks with their dice maths, what is measured on the table, the leader, RPG tests and
drones. The top-level modules (flow, rules, candidates, score, victory) call these.
"""
