"""Canned queries: the questions people ask a card pool, with parameters filled in a form.

Written against the core tables only. The cost curves are built per game from its declared
cost and facets, and the highest cost in the pool; a game without a cost has none.
"""

from __future__ import annotations

import copy
from typing import Any

from charnel.fields import CardField

# Sub-rules of :rule, found through `parent`, the rule itself included.
_SUBTREE = """with recursive subtree(number) as (
  select number from rules where number = :rule
  union all
  select rules.number from rules join subtree on rules.parent = subtree.number
)"""

QUERIES: dict[str, dict[str, Any]] = {
    "cards_by_group_and_type": {
        "title": "Cards by group and type",
        "description": "How many distinct cards each set or deck holds of each card type.",
        "sql": """select set_code, type, count(*) as cards
from cards group by set_code, type
order by set_code, type""",
    },
    "cards_with_keyword": {
        "title": "Cards with a keyword",
        "description": "Every card carrying a keyword; `keyword` is the term slug, e.g. shield.",
        "sql": """select cards.id, cards.name, cards.type, card_keywords.text as printed
from cards join card_keywords on card_keywords.card_id = cards.id
where card_keywords.keyword = lower(trim(:keyword))
order by cards.name, cards.id""",
    },
    "rulings_citing_rule": {
        "title": "Rulings that cite a rule",
        "description": "Every ruling citing the rule or any of its sub-rules.",
        "sql": _SUBTREE
        + """
select rulings.id, rulings.card_id, rulings.date, rule_refs.target as cites, rulings.text
from rulings
join rule_refs on rule_refs.source_kind = 'ruling' and rule_refs.source_id = rulings.id
where rule_refs.target_kind = 'rule' and rule_refs.target in (select number from subtree)
order by rulings.date, rulings.id""",
    },
    "rule_with_subrules": {
        "title": "A rule and its sub-rules",
        "description": "The rule with this number and everything under it, in rulebook order.",
        "sql": _SUBTREE
        + """
select rules.number, rules.level, rules.title, rules.text, rules.pages
from rules where rules.number in (select number from subtree)
order by rules.position""",
    },
    "what_cites_rule": {
        "title": "What cites a rule",
        "description": "Rules, glossary terms, rulings and examples that cite this exact rule.",
        "sql": """select rule_refs.source_kind, rule_refs.source_id,
  coalesce(rules.title, glossary_terms.term, rulings.card_id, examples.title) as about
from rule_refs
left join rules on rule_refs.source_kind = 'rule' and rules.number = rule_refs.source_id
left join glossary_terms on rule_refs.source_kind = 'term'
  and glossary_terms.slug = rule_refs.source_id
left join rulings on rule_refs.source_kind = 'ruling' and rulings.id = rule_refs.source_id
left join examples on rule_refs.source_kind = 'example' and examples.id = rule_refs.source_id
where rule_refs.target_kind = 'rule' and rule_refs.target = :rule
order by rule_refs.source_kind, rule_refs.source_id""",
    },
    "what_changed_in_release": {
        "title": "What changed in a release",
        "description": "Every rule, glossary term and card a release changed, with the word-level "
        "diff and the reason; `release` is a version such as 1.1 (see the releases table).",
        "sql": """select * from (
  select 1 as part, id as row, 'rule' as what, coalesce(new_number, old_number) as id,
    kind, title as name, diff, reason
  from clause_history where release = trim(:release)
  union all
  select 2, id, 'term', term_id, kind, term, diff, reason
  from term_history where release = trim(:release)
  union all
  select 3, id, 'card', card_id,
    case when kind != 'erratum' then kind when functional then 'functional erratum'
      else 'erratum, not functional' end,
    name, diff, reason
  from card_errata where release = trim(:release)
) order by part, row""",
    },
    "clause_history": {
        "title": "A clause's history",
        "description": "Every release that added, changed, renumbered or removed the clause "
        "numbered `rule`, or any clause that had that number before (`identity` tells them "
        "apart), oldest first.",
        "sql": """select clause_history.identity, clause_history.release, releases.date,
  clause_history.kind, clause_history.old_number, clause_history.new_number,
  clause_history.number as now, clause_history.diff, clause_history.reason
from clause_history join releases on releases.version = clause_history.release
where clause_history.identity in (
  select identity from clause_history
  where trim(:rule) in (number, old_number, new_number)
)
order by clause_history.identity, releases.position""",
    },
    "example_results_for_card": {
        "title": "Example results for a card",
        "description": "Every example run with this card substituted in, and whether it held.",
        "sql": """select examples.id, examples.title,
  example_results.passed, example_results.message
from example_results join examples on examples.id = example_results.example_id
where example_results.card_id = :card
order by examples.id""",
    },
}


def canned_queries(
    facet_columns: list[str], cost: CardField | None, cost_max: int, keywords: bool = True
) -> dict[str, dict[str, Any]]:
    """All canned queries for a database; the cost curves, one per facet (or one by type), are
    there when the game's cards have a cost, and the keyword query when they have keywords."""
    queries = copy.deepcopy(QUERIES)
    if not keywords:
        del queries["cards_with_keyword"]
    if cost is not None:
        for column in facet_columns:
            queries[f"cost_curve_by_{column}"] = _cost_curve(column, cost, cost_max)
        if not facet_columns:
            queries["cost_curve"] = _cost_curve("type", cost, cost_max)
    return dict(sorted(queries.items()))


def _cost_curve(column: str, cost: CardField, cost_max: int) -> dict[str, Any]:
    printed, value = cost.name, f"{cost.name}_value"
    variable = cost.cost.variable if cost.cost else ""
    # a variable cost (X) is counted apart from the fixed ones
    fixed = f" and {printed} not like '%{variable}%'" if variable else ""
    buckets = ",\n".join(
        f"  sum({value} = {n}{fixed}) as \"{n}\"" for n in range(cost_max + 1)
    )
    apart = f"  sum({printed} like '%{variable}%') as \"{variable}\",\n" if variable else ""
    counted = f"; {variable} costs counted apart" if variable else ""
    return {
        "title": f"Cost curve by {column.replace('_', ' ')}",
        "description": (
            f"How many cards cost 0, 1, 2 ... for each {column.replace('_', ' ')}{counted}. "
            "`type` narrows to one card type; leave it empty for all."
        ),
        "sql": f"""select {column},
{buckets},
{apart}  sum({printed} is null) as "no cost",
  count(*) as total
from cards
where :type = '' or type = :type
group by {column}
order by {column}""",
    }
