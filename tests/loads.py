"""What each load of a build gave, recorded with a snapshot taken as it returned: for tests
that the stages after the load leave the records as loaded (`charnel.memo` shares them)."""

from __future__ import annotations

from charnel.sources import loader


def snapshot(records) -> str:
    """Everything the loaded records hold, as text."""
    return repr((
        [(c.model_dump(), c.slug, c.set_code, c.source_hash, c.origin,
          [r.origin for r in c.rulings]) for c in records.cards],
        records.sections, records.clauses,
        [(e.id, e.title, e.owner_kind, e.owner, e.body, e.source, e.origin, e.cites)
         for e in records.examples],
        records.info.model_dump(), records.glossary.model_dump(), records.source_hash,
    ))


def recorded(monkeypatch) -> list[tuple]:
    """A list that every later `loader.load` adds (its records, their snapshot) to."""
    loads: list[tuple] = []
    load = loader.load

    def kept_load(*args, **kwargs):
        records = load(*args, **kwargs)
        loads.append((records, snapshot(records)))
        return records

    monkeypatch.setattr(loader, "load", kept_load)
    return loads
