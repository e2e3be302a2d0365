"""The history of a game's rules and cards: releases frozen as text, clause identity across
renumbering, and the changes between any two releases.

A release is a copy of a game's sources, `releases/<game>/<version>/` (its `rules/<game>/`
and `cards/<game>/`, plus `release.yaml`), read by the same loader as the live sources, so
every release stays readable and buildable. What a release changes beyond what a diff shows
(renumberings, and why things changed) is authored in `rules/<game>/changes.yaml` before the
release is cut and frozen with it.
"""
