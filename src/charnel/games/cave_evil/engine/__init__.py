"""Cave Evil's rules engine."""
