"""Cross-record checks: uniqueness, numbering, and that everything cited exists."""

from __future__ import annotations

import re
from collections.abc import Callable

from charnel.diagnostics import Origin, Problems
from charnel.records import Example, GameRecords, slugify
from charnel.sources.rules_md import RULE_REF, TERM_REF


def text_refs(text: str) -> list[tuple[str, str]]:
    """(kind, target) of each rule number and [[term]] written in a text."""
    found = [("term", slugify(m[1])) for m in TERM_REF.finditer(text)]
    found += [("rule", m[1]) for m in RULE_REF.finditer(TERM_REF.sub("", text))]
    return found


def check(records: GameRecords, problems: Problems) -> None:
    """Every cross-record check: those over the whole pool, then each card's own."""
    check_pool(records, problems)
    facts = CardFacts(records)
    for card in records.cards:
        check_card(card, facts, problems)


def check_pool(records: GameRecords, problems: Problems) -> None:
    """The checks that are not one card's: declarations, cards used twice, the rulebook's
    numbering and every citation outside the cards."""
    _declarations(records, problems)
    unique_cards(records, problems)
    _clauses(records, problems)
    _examples(records, problems)
    _citations(records, problems)


class CardFacts:
    """What a card's own checks read beyond the card: the game's declarations, the rule
    numbers and the glossary's terms. A card's check results hold while these do."""

    def __init__(self, records: GameRecords):
        info, game = records.info, records.game
        self.group = info.group
        self.sets = {s.code for s in info.sets}
        self.types = {t.id for t in info.card_types}
        self.facets = [(f.name, f.facet, set(info.enum_ids(f.facet)))
                       for f in game.fields if f.facet]
        self.rules = {c.number for c in records.clauses}
        self.terms = _term_slugs(records)


def _term_slugs(records: GameRecords) -> set[str]:
    return {t.slug for t in records.glossary.terms} | {t.slug for t in records.glossary.lore}


def _unique(items, key, where, what: str, problems: Problems) -> None:
    """Report every item whose key was already taken, pointing at both places."""
    seen: dict = {}
    for i, item in enumerate(items):
        k = key(item)
        if k in seen:
            problems.add(where(i), f"{what} '{k}' is declared twice (also {where(seen[k])})")
        else:
            seen[k] = i


def _declarations(records: GameRecords, problems: Problems) -> None:
    """Ids in game.yaml and the glossary name one thing each: they become primary keys."""
    info = records.info
    for name, values in sorted(info.enums.items()):
        _unique(
            values,
            lambda v: v.id,
            lambda i, n=name: info.where("enums", n, i, "id"),
            f"{name} value",
            problems,
        )
    _unique(
        info.card_types,
        lambda v: v.id,
        lambda i: info.where("card_types", i, "id"),
        "card type",
        problems,
    )
    _unique(
        info.sets, lambda v: v.code, lambda i: info.where("sets", i, "code"), info.group, problems
    )
    glossary = records.glossary
    entries = [("terms", i, t) for i, t in enumerate(glossary.terms)]
    entries += [("lore", i, t) for i, t in enumerate(glossary.lore)]
    for part, i, term in entries:
        if not term.slug:  # its page's address would be the glossary's own
            problems.add(
                glossary.where(part, i, "term"),
                f"term {term.term!r} has no letter or digit to name its page; give it an 'id'",
            )
    _unique(
        entries,
        lambda e: e[2].slug,
        lambda i: glossary.where(entries[i][0], entries[i][1]),
        "glossary term",
        problems,
    )
    names = [(e, n.casefold()) for e in entries for n in (e[2].term, *e[2].aliases)]
    _unique(
        names,
        lambda x: x[1],
        lambda i: glossary.where(names[i][0][0], names[i][0][1]),
        "glossary name or alias",
        problems,
    )


def check_card(card, facts: CardFacts, problems: Problems) -> None:
    """One card's declared set, type and facet values, and the rules and terms its rulings
    cite."""
    if card.set_code not in facts.sets:
        problems.add(card.origin, f"{facts.group} '{card.set_code}' is not declared in game.yaml")
    if card.type not in facts.types:
        problems.add(
            card.where("type"),
            f"unknown card type '{card.type}' ({', '.join(sorted(facts.types))})",
        )
    for name, facet, allowed in facts.facets:
        value = getattr(card, name)
        # a list field (such as a champion's clans) takes each of its values from the list
        listed = value if isinstance(value, list) else [value]
        for i, one in enumerate(listed):
            if one is not None and one not in allowed:
                at = card.where(name, i) if isinstance(value, list) else card.where(name)
                problems.add(
                    at,
                    f"unknown {facet.replace('_', ' ')} '{one}' ({', '.join(sorted(allowed))})",
                )
    for i, ruling in enumerate(card.rulings):
        for j, number in enumerate(ruling.rules):
            _rule(number, facts.rules,
                  lambda c=card, i=i, j=j: c.where("rulings", i, "rules", j), problems)
        _prose(ruling.text, facts.rules, facts.terms,
               lambda c=card, i=i: c.where("rulings", i, "text"), problems)


def unique_cards(records: GameRecords, problems: Problems) -> None:
    """A card's name (and the game's fields unique in a group) once in its group, and each
    card file name once in the pool."""
    info, game = records.info, records.game
    unique = {f.name: f.label.lower() for f in game.fields if f.unique_in_group}
    cards = records.cards
    # the pool is searched card by card only when some value is taken twice: a set of the
    # values is ten times quicker than the search, and an edit runs this over every card
    if len({card.slug for card in cards}) == len(cards) and all(
        len(values) == len(cards) - skipped for values, skipped in _values_in_groups(cards, unique)
    ):
        return
    seen_in_set: dict[tuple[str, str, object], object] = {}
    slugs: dict[str, object] = {}
    for card in records.cards:
        for field in ("name", *unique):
            value = getattr(card, field)
            if value is None:
                continue
            key = (field, card.set_code, value.casefold() if field == "name" else value)
            what = f"card name '{value}'" if field == "name" else f"{unique[field]} {value}"
            if key in seen_in_set:
                problems.add(
                    card.where(field),
                    f"{what} is used twice in {info.group} '{card.set_code}' "
                    f"(also {seen_in_set[key].where(field)})",
                )
            else:
                seen_in_set[key] = card
        if card.slug in slugs:
            problems.add(
                card.origin,
                f"card file name '{card.slug}' is used twice (also {slugs[card.slug].origin})",
            )
        slugs[card.slug] = card


def _clause_key(number: str) -> tuple:
    parts = re.findall(r"\d+|[a-z]+", number)
    return tuple(int(p) if p.isdigit() else p for p in parts)


def _expected_next(prev: str) -> set[str]:
    """Numbers that may follow `prev` without a declared gap."""
    m = re.fullmatch(r"(\d+)(?:\.(\d+)([a-z])?)?", prev)
    section, rule, letter = m[1], m[2], m[3]
    s = int(section)
    nxt = {f"{s + 1}", f"{section}.1"}
    if rule is not None:
        r = int(rule)
        nxt |= {f"{section}.{r + 1}", f"{section}.{rule}a"}
        if letter:
            nxt.add(f"{section}.{rule}{chr(ord(letter) + 1)}")
    return nxt


def _allowed_next(prev: str, gaps: set[str]) -> set[str]:
    """Numbers that may follow `prev`, skipping over numbers declared as left out."""
    allowed = _expected_next(prev)
    skipped: set[str] = set()
    while todo := (allowed & gaps) - skipped:
        skipped |= todo
        for gap in todo:
            allowed |= _expected_next(gap)
    return allowed


def _clauses(records: GameRecords, problems: Problems) -> None:
    seen: dict[str, object] = {}
    gaps = set(records.info.numbering_gaps)
    prev = None
    for clause in records.clauses:
        if clause.number in seen:
            problems.add(
                clause.origin,
                f"rule {clause.number} is numbered twice (also {seen[clause.number]})",
            )
            continue
        seen[clause.number] = clause.origin
        if prev is not None:
            if _clause_key(clause.number) <= _clause_key(prev):
                problems.add(
                    clause.origin,
                    f"rule {clause.number} comes after {prev}; rules must be in order",
                )
            elif clause.number not in _allowed_next(prev, gaps):
                problems.add(
                    clause.origin,
                    f"rule {clause.number} follows {prev}: a gap in the numbering "
                    f"(list the missing numbers under numbering_gaps in game.yaml if it is meant)",
                )
        elif clause.number != "1":
            problems.add(clause.origin, f"the rules start at {clause.number}, not 1")
        prev = clause.number
        if clause.level == 2 and not (clause.pages or clause.heading):
            problems.add(
                clause.origin,
                f"rule {clause.number} cites no rulebook page; end it with [p. N] "
                "(or [§ Heading] where the rulebook prints no page)",
            )


def _examples(records: GameRecords, problems: Problems) -> None:
    seen: dict[str, Example] = {}
    for example in records.examples:
        if example.id in seen:
            problems.add(
                example.doc.at(("id",)),
                f"example id '{example.id}' is used twice "
                f"(also {seen[example.id].doc.at(('id',))})",
            )
        else:
            seen[example.id] = example


def _values_in_groups(cards: list, unique: dict[str, str]):
    """For the name and each field unique in a group: the set of (group, value) of every
    card, and how many cards have no value."""
    names = {(card.set_code, card.name.casefold()) for card in cards}
    yield names, 0
    for field in unique:
        values = [(card.set_code, getattr(card, field)) for card in cards]
        present = {v for v in values if v[1] is not None}
        yield present, sum(v[1] is None for v in values)


# Places are looked up only for a problem: finding one may parse its file again.
def _rule(number: str, rules: set[str], where: Callable[[], Origin], problems: Problems) -> None:
    if number not in rules:
        problems.add(where(), f"rule {number} does not exist")


def _prose(text: str, rules: set[str], terms: set[str], where: Callable[[], Origin],
           problems: Problems) -> None:
    # the renderer links these, so each must land somewhere
    for kind, target in text_refs(text):
        known = rules if kind == "rule" else terms
        if target not in known:
            what = f"rule {target}" if kind == "rule" else f"glossary term '{target}'"
            problems.add(where(), f"{what} does not exist")


def _citations(records: GameRecords, problems: Problems) -> None:
    """What the rules, glossary and examples cite (a card's rulings: `check_card`)."""
    rules = {c.number for c in records.clauses}
    terms = _term_slugs(records)
    for clause in records.clauses:
        for ref in clause.refs:
            if ref.kind == "rule" and ref.target not in rules:
                problems.add(ref.origin, f"rule {ref.target} does not exist")
            elif ref.kind == "term" and ref.target not in terms:
                problems.add(ref.origin, f"glossary term '{ref.target}' does not exist")
    for i, term in enumerate(records.glossary.terms):
        for j, number in enumerate(term.rules):
            _rule(number, rules, lambda i=i, j=j: records.glossary.where("terms", i, "rules", j),
                  problems)
        for j, other in enumerate(term.see):
            if other not in terms:
                problems.add(
                    records.glossary.where("terms", i, "see", j),
                    f"glossary term '{other}' does not exist",
                )
    for part in ("terms", "lore"):
        for i, term in enumerate(getattr(records.glossary, part)):
            _prose(term.definition, rules, terms,
                   lambda p=part, i=i: records.glossary.where(p, i, "definition"), problems)
    for example in records.examples:
        for j, number in enumerate(example.cites):
            _rule(number, rules, lambda e=example, j=j: e.doc.at(("cites", j)), problems)
