"""The Cave Evil rules engine: the game state, squads and the hex map, conjuring and
invoking, movement, excavation, combat (the fight arithmetic and exact odds in `fight` and
`odds`), spawns and the passing of cycles, run by the core runner (`charnel.engine`)."""
