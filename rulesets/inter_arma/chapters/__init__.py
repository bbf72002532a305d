"""Inter Arma's rules, one module per chapter of the rulebook: movement, ranged combat,
melee (and the massed clash), combat (hits, saves, the horse), morale, retreat, night,
spotting and sentries, formation, the morale goals, the tables and the measuring in cm.
"""
