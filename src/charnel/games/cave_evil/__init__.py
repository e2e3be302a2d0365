"""Cave Evil: card fields, checks and the rules engine."""
