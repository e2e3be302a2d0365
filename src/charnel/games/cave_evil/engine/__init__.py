"""The Cave Evil rules engine: the game state, squads and the hex map, conjuring and
invoking, movement, excavation, combat, spawns and the passing of cycles."""
