"""The Cave Evil rules engine: the game state, squads and the hex map, conjuring and
invoking, movement, excavation, combat (the fight arithmetic and exact odds in `fight`),
spawns and the passing of cycles."""
