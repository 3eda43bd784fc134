"""Pure maths the use cases use, apart from any feature's code: no Discord, no database, no
I/O (:mod:`bot.maths.glicko`: the Glicko-2 ratings of puzzles)."""
