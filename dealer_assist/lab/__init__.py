"""The game-math lab: theoretical hold of the house-rules profiles (numpy allowed here only).

``batch`` evaluates arrays of hands with the rules engine's keys; ``caribbean_exact`` counts
Caribbean stud exactly; ``montecarlo`` simulates the games with choices; ``house_edge`` is the
entry point the CLI, the profile page and the shift report use.
"""
