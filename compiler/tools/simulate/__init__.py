"""Simulation: many games of an edition played by bots, and what they show.

`engines` finds the editions named, `bots` and `mcts` play (from what a
seat may see: `hidden` deals the unseen cards), `games` plays one game,
`runner` plays many (here, in worker processes, or on Ray), `summary` and
`stats` compute the figures, `report` writes them to a folder.
"""
