"""The research interface (issue 23): a fixed action space, observation tensors,
and the game core the adapters of `adapters/` wrap (docs/rl.md)."""
