"""The Necromancer's cards: Phase 2 conjuring (keep, or discard for ONE printed resource
amount; or take the top of a discard pile), Events set aside while drawing, Invoke (paid
only from the N squad, the Blood Eye one step per creature, placement and the Invoke
movement rule), Secondary Conjuration, casting Spells, and the advanced Sacrifice and
discarding from hand."""

from __future__ import annotations

from . import death, effects, hexes, squads
from .args import Args, find_card
from .state import (
    CONJURATION_DECKS,
    CONTROL_CARDS,
    RESOURCES,
    Card,
    ExampleError,
    Illegal,
    Squad,
    State,
)

DECK_RESOURCE = {"bribe": "metals", "construct": "gore", "summon": "shadowflame"}


def deck_name(args: Args, key: str = "deck") -> str:
    name = args.need(key)
    if name not in CONJURATION_DECKS:
        raise ExampleError(
            args.at(key), f"unknown deck '{name}' (known: {', '.join(CONJURATION_DECKS)})"
        )
    return name


def draw_past_events(state: State, deck: str, on_event) -> Card:
    """Draw until a card with a cost (Creature, Item or Spell); each Event goes to
    `on_event` (set aside for Phase 4, or boxed where the rules ignore it)."""
    pile = state.decks[deck]
    while True:
        if not pile:
            raise Illegal("empty-deck", f"the {deck} deck is empty")
        card = pile.pop(0)
        if card.kind != "event":
            return card
        on_event(card)


def set_aside(state: State, player: str):
    return lambda card: state.players[player].events.append(card)


def to_box(state: State):
    return state.box.append


def n_squad(state: State, player: str) -> Squad:
    squad = state.n_squad(player)
    if squad is None:
        raise Illegal("no-necromancer", f"{player} has no Necromancer")
    return squad


def conjure(state: State, args: Args) -> None:
    player = state.players[args.actor]
    if state.conjured:
        raise Illegal("already-conjured", "one card is conjured in Phase 2")
    if args.has("discard_pile"):
        deck = deck_name(args, "discard_pile")
        pile = state.discards[deck]
        if not pile:
            raise Illegal("empty-pile", f"the {deck} discard pile is empty")
        if args.has("take"):
            raise Illegal("must-keep", "a card taken from a discard pile is kept: no resources")
        player.hand.append(pile.pop(0))
        state.conjured = True
        return
    deck = deck_name(args)
    card = draw_past_events(state, deck, set_aside(state, args.actor))
    state.conjured = True
    take = args.get("take")
    if take is None:
        player.hand.append(card)
        return
    if take not in RESOURCES:
        raise ExampleError(
            args.at("take"), f"unknown resource '{take}' (known: {', '.join(RESOURCES)})"
        )
    amount = card.cost.get(take, 0)
    if amount == 0:
        raise Illegal("not-printed", f"{card.name} shows no {take}: its cost is {cost_text(card)}")
    state.discards[deck].insert(0, card)
    n_squad(state, args.actor).resources[take] += amount


def cost_text(card: Card) -> str:
    parts = [f"{n} {r}" for r, n in card.cost.items() if n]
    return ", ".join(parts) or "nothing"


def _n_action(state: State, player: str, kind: str, squad: Squad | None = None) -> Squad:
    """The necromancer's action of the turn, taken by the N squad (or by the squad of the
    other half of a split Black Wizard: between them they take one)."""
    squad = squad or n_squad(state, player)
    p = state.players[player]
    if squad.trapped and kind not in ("invoke", "cast"):
        raise Illegal("trapped", "a Necromancer trapped in a Collapse may only Invoke, dig or cast")
    took = ("necromancer action", state.cycle, player)
    if p.n_action == kind:
        if state.marks.get(took, squad.key) != squad.key:
            raise Illegal(
                "already-acted", "the other half of the necromancer took this turn's action"
            )
        return squad
    if squad.acted or p.n_action is not None:
        raise Illegal(
            "already-acted",
            f"the N squad has already taken its action ({p.n_action or 'one'}) this turn",
        )
    p.n_action = kind
    state.marks[took] = squad.key
    for c in squad.creatures:
        c.acted = True
    return squad


def secondary_conjure(state: State, args: Args) -> None:
    player = state.players[args.actor]
    if player.necromancer_moved:
        raise Illegal(
            "moved", "Secondary Conjuration needs a Necromancer that does not move this turn"
        )
    _n_action(state, args.actor, "secondary_conjure")
    if player.meditating:
        raise Illegal("already-acted", "one Secondary Conjuration a turn")
    player.meditating = True
    card = draw_past_events(state, deck_name(args), set_aside(state, args.actor))
    player.hand.append(card)


def _invoker(state: State, args: Args) -> Squad | None:
    """`from`: the squad of a split necromancer's other half, which invokes beside itself."""
    if not args.has("from"):
        return None
    squad = args.squad("from")
    if squad.owner != args.actor or squad.necromancer() is None:
        raise Illegal("no-necromancer", f"{squad.key} holds no necromancer of {args.actor}'s")
    return squad


def invoke(state: State, args: Args) -> None:
    """One card from hand into play; several invoke steps are one Invoke action."""
    player = state.players[args.actor]
    card = find_card(player.hand, args.need("card"), args.at("card"), f"{args.actor}'s hand")
    n = _n_action(state, args.actor, "invoke", _invoker(state, args))
    if card.kind not in ("creature", "item", "spell"):
        raise Illegal(
            "not-invokable",
            f"{card.name} is a {card.kind}: only Creatures, Items and Spells are Invoked",
        )
    for r in RESOURCES:
        if n.resources[r] < card.cost[r]:
            raise Illegal(
                "cannot-pay",
                f"{card.name} costs {cost_text(card)}; the N squad carries "
                f"{', '.join(f'{n.resources[x]} {x}' for x in RESOURCES)} (only its resources pay)",
            )
    label = args.get("to", "N")
    if label not in CONTROL_CARDS:
        raise ExampleError(
            args.at("to"), f"unknown control card '{label}' (known: {', '.join(CONTROL_CARDS)})"
        )
    key = f"{args.actor} {label}"
    target = state.squads.get(key)
    if target is None:
        if not card.is_creature:
            raise Illegal("needs-creature", "a new squad needs a Creature on its Control Card")
        at = args.hex("at")
        if not hexes.adjacent(at, n.at):
            raise Illegal(
                "not-adjacent",
                f"a new squad's marker goes next to the Necromancer ({hexes.show(n.at)})",
            )
        if not state.cave.is_open(at) or state.occupant(at) is not None or at in state.cave.pits:
            raise Illegal(
                "no-room", f"{hexes.show(at)} is not an open, empty space off the Spawn Pits"
            )
        target = Squad(args.actor, label, at=at)
        creatures, items = [card], []
    else:
        if target is not n and not hexes.adjacent(target.at, n.at):
            raise Illegal("not-adjacent", f"{key} is not next to the Necromancer")
        creatures = target.creatures + ([card] if card.is_creature else [])
        items = target.items + ([] if card.is_creature else [card])
    squads.check_holds(creatures, items, key)
    for r in RESOURCES:
        n.resources[r] -= card.cost[r]
    player.hand.remove(card)
    if card.is_creature:
        card.invoked = True
        state.blood_eye += 1
        state.invoked_creatures_cycle += 1
        target.creatures.append(card)
    else:
        target.items.append(card)
        if card.kind == "spell":
            player.invoked_spells.append(card)
    state.squads.setdefault(key, target)
    if target is not n:
        player.invoked_into.add(key)
        if player.necromancer_moved:
            for c in target.creatures:
                c.halted = True  # the Necromancer moved: this squad may not


def cast(state: State, args: Args) -> None:
    squad = args.squad()
    if squad.owner != args.actor:
        raise Illegal("not-yours", f"{squad.key} is not {args.actor}'s")
    spell = find_card(
        squad.items, args.need("spell"), args.at("spell"), f"what {squad.key} carries"
    )
    if spell.kind != "spell":
        raise Illegal("not-a-spell", f"{spell.name} is an Item")
    if not squads.spellcasters(squad):
        raise Illegal("not-spellcaster", f"{squad.key} has no Spellcaster")
    mind = effects.HOOKS["silenced"](state, squad)
    if mind is not None:
        raise Illegal("silenced", f"{mind}'s Mind keeps {squad.key} from casting")
    player = state.players[args.actor]
    if squad.label == "N":
        if spell in player.invoked_spells:
            raise Illegal(
                "invoked-this-turn", "the N squad cannot cast a Spell it Invoked this turn"
            )
        _n_action(state, args.actor, "cast")
    else:
        if squad.acted:
            raise Illegal("already-acted", f"{squad.key} has already taken its action")
        for c in squad.creatures:
            c.acted = True
    if squad.dig is not None:
        state.box.append(squad.dig.card)
        squad.dig = None  # any other action discards a dig
    squad.items.remove(spell)
    effects.resolve(state, args, spell, squad, args.actor)
    if spell.deck in CONJURATION_DECKS:
        state.discards[spell.deck].insert(0, spell)  # Spells are discarded after use
    else:
        state.box.append(spell)


def sacrifice(state: State, args: Args) -> None:
    """Advanced: the N squad's only action; any number of cards with a cost, in or next to
    it, go to the box for their full cost."""
    if "sacrifice" not in state.advanced:
        raise Illegal("advanced", "Sacrifice is an advanced rule (given: advanced: [sacrifice])")
    n = _n_action(state, args.actor, "sacrifice")
    source = args.squad("from") if args.has("from") else n
    if source.owner != args.actor:
        raise Illegal("not-yours", f"{source.key} is not {args.actor}'s")
    if source is not n and not hexes.adjacent(source.at, n.at):
        raise Illegal("not-adjacent", f"{source.key} is not next to the Necromancer")
    card = find_card(
        source.creatures + source.items, args.need("card"), args.at("card"), source.key
    )
    if card.kind == "necromancer":
        raise Illegal("no-cost", "a Necromancer is not sacrificed")
    if source.protector:
        raise Illegal("protector", "a subdued Protector is never sacrificed")
    if not any(card.cost.values()):
        raise Illegal("no-cost", f"{card.name} has no cost")
    if card in source.creatures:
        rest = [c for c in source.creatures if c is not card]
        if rest and len(source.items) > squads.carry_capacity(rest):
            raise Illegal(
                "cannot-carry", f"{source.key} could not carry its items without {card.name}"
            )
        source.creatures.remove(card)
    else:
        source.items.remove(card)
    state.box.append(card)
    for r in RESOURCES:
        n.resources[r] += card.cost[r]
    if not source.creatures and source is not n:
        death.drop_items(state, source.at, source.items)
        for r in RESOURCES:
            state.ground_at(source.at).resources[r] += source.resources[r]
        del state.squads[source.key]


def discard_hand(state: State, args: Args) -> None:
    """Advanced: a card from hand to the box for 1 resource of its deck (Abyss: any)."""
    if "discarding" not in state.advanced:
        raise Illegal(
            "advanced", "discarding from hand is an advanced rule (advanced: [discarding])"
        )
    if state.phase != 3:
        raise Illegal("wrong-phase", "cards are discarded from hand in Phase 3")
    player = state.players[args.actor]
    card = find_card(player.hand, args.need("card"), args.at("card"), f"{args.actor}'s hand")
    resource = DECK_RESOURCE.get(card.deck or "")
    if card.deck == "abyss":
        resource = args.need("resource")
        if resource not in RESOURCES:
            raise ExampleError(args.at("resource"), f"unknown resource '{resource}'")
    elif resource is None:
        raise Illegal("no-deck", f"{card.name} is from no Conjuration deck")
    elif args.has("resource") and args.get("resource") != resource:
        raise Illegal("wrong-resource", f"a {card.deck} card gives 1 {resource}")
    player.hand.remove(card)
    state.box.append(card)
    n_squad(state, args.actor).resources[resource] += 1
