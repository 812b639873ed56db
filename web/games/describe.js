// Each game's events in its own words, from their typed fields. describe(event, name) is
// {text, group?}; summary(items, names) is the one line a folded group shows.
import { enumName } from '../common.js';
import { armOf } from '../boards.js';

const en = enumName;
const piece = (p) => (p ? `${en(p.size, 'SIZE_')} ${en(p.color, 'COLOR_')}` : 'a piece');
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
const list = (xs) => (xs.length ? xs.join(', ') : 'nothing');
const count = (items, pred) => items.filter(pred).length;

// amounts is "2 red, 1 blue" of a counts message, "nothing" when every count is 0.
function amounts(m, keys) {
  if (!m) return 'nothing';
  return list(keys.filter((k) => m[k]).map((k) => `${m[k]} ${k}`));
}

const icetraders = {
  describe(e, name) {
    const [kind, f] = armOf(e);
    switch (kind) {
      case 'action_taken':
        return { text: f.redacted ? `${name(f.seat)} made a secret choice` : `${name(f.seat)}: ${f.notation}` };
      case 'alignment_assigned':
        return { text: f.alignment === 'ALIGNMENT_UNSPECIFIED' ? `${name(f.seat)} was given a secret alignment` : `${name(f.seat)} is ${en(f.alignment, 'ALIGNMENT_')}` };
      case 'picks_revealed':
        return { text: `opening picks: ${(f.picks || []).map((p) => `${name(p.seat)} ${piece(p.first)}${p.first_served ? '' : ' (not served)'} and ${piece(p.second)}${p.second_served ? '' : ' (not served)'}`).join('; ')}` };
      case 'first_player': return { text: `${name(f.seat)} goes first` };
      case 'concentration':
        return { text: `${en(f.kind, 'CONCENTRATION_KIND_')} in ${f.in_hyperspace ? 'hyperspace' : 'system'} ${f.location_id}, caused by ${name(f.causer)} with ship ${f.catalyst_ship_id}${f.effect ? `: ${f.effect}` : ''}`, cls: 'big' };
      case 'hyperspace_closed': return { text: `hyperspace ${f.id} closed` };
      case 'eliminated': return { text: `${name(f.seat)} is eliminated${f.by >= 0 ? ` by ${name(f.by)}` : ''}`, cls: 'big' };
      case 'alignments_revealed': return { text: `alignments revealed: ${(f.alignments || []).map((a, i) => `${name(i)} ${en(a, 'ALIGNMENT_')}`).join(', ')}` };
      case 'turned_evil': return { text: `${name(f.seat)} turned evil` };
      case 'game_over': return { text: `game over: ${en(f.kind, 'END_KIND_')}${f.winners && f.winners.length ? `, won by ${f.winners.map(name).join(' and ')}` : ''}${f.detail ? ` (${f.detail})` : ''}`, cls: 'big' };
      default: return { text: kind || '' };
    }
  },
  summary: () => '',
};

const planet = {
  describe(e, name) {
    const [kind, f] = armOf(e);
    switch (kind) {
      case 'objective_dealt':
        return { text: f.habitat === 'HABITAT_UNSPECIFIED' ? `${name(f.seat)} was dealt a secret objective` : `${name(f.seat)} was dealt the ${en(f.habitat, 'HABITAT_')} objective` };
      case 'turn_started':
        return { text: `turn ${f.turn}: ${name(f.first_player)} picks first from tiles ${(f.display || []).map((t) => `#${t.id}`).join(' ')}`, cls: 'big' };
      case 'tile_placed':
        return { text: `${name(f.seat)} placed tile #${f.place.tile} on face ${f.place.face}, turned ${f.place.rotation}` };
      case 'leftover_stored':
        return { text: f.stack ? `tile #${f.tile} went onto stack ${f.stack}` : `tile #${f.tile} went back to the box` };
      case 'animal_won':
        return { text: `${name(f.seat)} won the ${f.card.name} (${f.card.requirement}: ${f.value}${f.tie_break ? `, tie broken by region ${f.tie_break}` : ''})` };
      case 'animal_carried': return { text: `the ${f.card.name} moves on to turn ${f.to_turn} (a tie, or nobody qualified)` };
      case 'animal_returned': return { text: `the ${f.card.name} went back to the box` };
      case 'first_player_passed': return { text: `${name(f.seat)} takes the first-player token` };
      case 'mystery_revealed': return { text: `mystery animal of turn ${f.turn}: the ${f.card.name} (${f.card.requirement})` };
      case 'game_ended':
        return { text: `game over: ${(f.planets || []).map((p) => `${name(p.seat)} ${p.score} (objective ${p.objective_points}, animals ${p.animal_points})`).join('; ')}${f.result ? ` · ${f.result}` : ''}`, cls: 'big' };
      default: return { text: kind || '' };
    }
  },
  summary: () => '',
};

const chipKeys = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
const chips = (c) => amounts(c, chipKeys);
const col = (c) => en(c, 'COLOR_');
const card = (c) => (c === 'CARD_KIND_UNSPECIFIED' ? 'a card' : en(c, 'CARD_KIND_'));

const pantropia = {
  describe(e, name) {
    const s = name(e.seat), o = name(e.other_seat);
    const k = e.kind.replace('EVENT_KIND_', '');
    // A trade negotiation (the offers and their answers in one turn) is one line that opens.
    const trade = { group: `trade:${k === 'OFFER' ? e.seat : e.other_seat}` };
    switch (k) {
      case 'SETTLE': return { text: `${s} settled intersection ${e.intersection} with the rings of strut ${e.strut}${sumChips(e.chips) ? `, and got ${chips(e.chips)}` : ''}` };
      case 'ROLL': return { text: `${s} rolled ${col(e.color)} and ${en(e.die, 'DIE_')} ${col(e.color2)}` };
      case 'PRODUCE': return { text: `${s} produced ${chips(e.chips)}`, group: 'produce' };
      case 'LUDDITE_PASS': return { text: `${s} let it stand (no Luddite Legislation)` };
      case 'LUDDITE': return { text: `${s} played Luddite Legislation against ${o}` };
      case 'TERRAFORM': return { text: `${s} chose Terraforming, swapping the ${en(e.die, 'DIE_')} and the ${en(e.die2, 'DIE_')}` };
      case 'PANTROPY': return { text: e.count < 0 ? `${s} chose Pantropy: no slot to swap` : `${s} chose Pantropy, swapping menu slots ${e.slot} and ${e.slot2}` };
      case 'EARTH_TRADE': return { text: `${s} traded with Earth: ${chips(e.chips)} for ${chips(e.chips2)}` };
      case 'OFFER': return { text: `${s} offered ${o} ${chips(e.chips)} for ${chips(e.chips2)}`, ...trade, offer: true };
      case 'ACCEPT': return { text: `${s} accepted ${o}'s offer`, ...trade, accept: true };
      case 'DECLINE': return { text: `${s} declined ${o}'s offer`, ...trade };
      case 'RING': return { text: `${s} put a ring on joint ${e.joint}${e.other_seat >= 0 ? `, replacing ${o}'s` : ''}` };
      case 'HABITAT': return { text: `${s} built a habitat at intersection ${e.intersection}` };
      case 'ARCOLOGY': return { text: `${s} built an arcology at intersection ${e.intersection}` };
      case 'SHUTTLE': return { text: `${s} hung its shuttle at intersection ${e.intersection}` };
      case 'BUY_CARD': return { text: `${s} bought a card` };
      case 'DRAW': return { text: `${s} drew ${card(e.card)}` };
      case 'COUNTDOWN': return { text: `${s} drew a Technocalypse: ${e.count} face up`, cls: 'big' };
      case 'PLAY_CARD': return { text: `${s} played ${card(e.card)}` };
      case 'CARD_CANCELLED': return { text: `the card was lost` };
      case 'REMOVE_RING': return { text: `${s} removed ${o}'s ring from joint ${e.joint}` };
      case 'SHADE_SKIP': return { text: `${s} removed no ring` };
      case 'MIRROR_SKIP': return { text: `${s} had no joint to build on` };
      case 'SHUTTLE_MOVED': return { text: `${o}'s shuttle moved to intersection ${e.intersection}` };
      case 'AQUIFER': return { text: `${s} took ${chips(e.chips)} from ${o}` };
      case 'COMET': return { text: `${s} recoloured menu slot ${e.slot} ${col(e.color)}` };
      case 'ELEVATOR': return { text: `${s} paid ${chips(e.chips)} for the Space Elevator` };
      case 'TECHNOCALYPSE': return { text: 'Technocalypse!', cls: 'big' };
      case 'DEMOTE': return { text: `${s}'s arcology at intersection ${e.intersection} became a habitat` };
      case 'ABANDON': return { text: `${s} abandoned the site at intersection ${e.intersection}` };
      case 'ELEVATOR_DISCARDED': return { text: `${s} lost the Space Elevator` };
      case 'SHUTTLE_RETURNED': return { text: `${s}'s shuttle went back to the supply` };
      case 'DISCARD': return { text: `${s} discarded ${chips(e.chips)}` };
      case 'END_TURN': return { text: `${s} ended the turn`, cls: 'dim' };
      case 'GAME_OVER': return { text: e.text.startsWith('game over') ? e.text : `game over: ${e.text}`, cls: 'big' };
      default: return { text: e.text || k };
    }
  },
  summary(items, names) {
    if (items[0].group === 'produce') return `production: ${items.map((i) => i.text.replace(' produced', ':')).join('; ')}`;
    const offers = count(items, (i) => i.offer), accepted = count(items, (i) => i.accept);
    return `${items[0].text.split(' offered')[0].split(' accepted')[0].split(' declined')[0]} negotiated: ${plural(offers, 'offer')}, ${accepted} accepted`;
  },
};

function sumChips(c) { return c ? chipKeys.reduce((n, k) => n + (c[k] || 0), 0) : 0; }

const resKeys = ['wood', 'brick', 'ore', 'sheep'];
const res = (r) => en(r, 'RESOURCE_');
const fcCard = (c) => (c === 'CARD_UNSPECIFIED' ? 'a card' : en(c, 'CARD_'));

const fccatan = {
  describe(e, name) {
    const [kind, f] = armOf(Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'round' && k !== 'tick')));
    const who = (ref) => `${name(ref.seat)}'s player ${ref.avatar}`;
    const offer = (x) => `${name(x.from_seat)} offers ${name(x.to_seat)} ${amounts(x.give, resKeys)} for ${amounts(x.want, resKeys)}`;
    const at = `round ${e.round}, tick ${e.tick}: `;
    switch (kind) {
      case 'setup': return { text: `${name(f.seat)} starts at hoop ${f.hoop} with knights ${list((f.knights || []).map(String))}` };
      case 'round_started': return { text: `round ${f.round} starts`, cls: 'big' };
      case 'picked_up': return { text: `${at}${who(f.player)} picked up ${res(f.resource)} at pile ${f.pile}`, group: `play:${e.round}` };
      case 'delivered': return { text: `${at}${who(f.player)} delivered ${res(f.resource)} to hoop ${f.hoop}`, group: `play:${e.round}`, delivered: true };
      case 'tagged': return { text: `${at}${who(f.knight)} tagged ${who(f.player)}${f.taken !== 'RESOURCE_UNSPECIFIED' ? ` and took its ${res(f.taken)}` : ''}`, group: `play:${e.round}`, tag: true };
      case 'ball_returned': return { text: `${res(f.resource)} went back to pile ${f.pile}`, group: `returned:${e.round}` };
      case 'placed': return { text: `${at}${who(f.player)} placed a settlement in hoop ${f.hoop}`, cls: 'big' };
      case 'thrown': return { text: `${at}${who(f.from)} threw ${res(f.resource)} to ${who(f.to)}`, group: `play:${e.round}` };
      case 'whistle': return { text: `whistle: round ${f.round} is over`, cls: 'big' };
      case 'offers_made': return { text: `trade step ${f.trade_step}: ${(f.offers || []).map(offer).join('; ') || 'no offers'}`, group: `market:${e.round}` };
      case 'trades_settled': return { text: `trade step ${f.trade_step}: ${(f.accepted || []).map((x) => `accepted: ${offer(x)}`).concat((f.declined || []).map((x) => `declined: ${offer(x)}`), (f.failed || []).map((x) => `failed: ${offer(x)}`)).join('; ') || 'no trade'}`, group: `market:${e.round}` };
      case 'bought': return { text: `${name(f.seat)} ${f.dropped ? 'could not buy' : 'bought'} ${purchase(f.purchase)}` };
      case 'card_drawn': return { text: `${name(f.seat)} drew ${fcCard(f.card)}` };
      case 'card_effect': return { text: `${name(f.seat)}'s ${fcCard(f.card)}: ${f.card === 'CARD_BARBARIANS' ? (f.hoop >= 0 ? `hit hoop ${f.hoop} of ${name(f.victim)}` : 'wasted') : amounts(f.resources, resKeys)}` };
      case 'game_ended': return { text: `game over: ${(f.vp || []).map((v, i) => `${name(i)} ${v} VP`).join(', ')}; won by ${list((f.winners || []).map(name))}${f.reason ? ` (${f.reason})` : ''}`, cls: 'big' };
      default: return { text: kind || '' };
    }
  },
  summary(items) {
    const g = items[0].group;
    if (g.startsWith('returned')) return `${plural(items.length, 'ball')} went back to the piles`;
    if (g.startsWith('market')) return `market: ${items.map((i) => i.text).join(' · ').slice(0, 140)}`;
    return `round ${g.split(':')[1]} play: ${plural(items.length, 'event')}, ${count(items, (i) => i.delivered)} delivered, ${count(items, (i) => i.tag)} tags`;
  },
};

function purchase(p) {
  const k = en(p.kind, 'PURCHASE_KIND_');
  switch (p.kind) {
    case 'PURCHASE_KIND_SETTLEMENT': return `a settlement (player ${p.avatar} carries it)`;
    case 'PURCHASE_KIND_CITY': return `a city at hoop ${p.hoop}`;
    case 'PURCHASE_KIND_KNIGHT': return `a knight (player ${p.avatar})`;
    case 'PURCHASE_KIND_HANDOVER': return `a marker handed from player ${p.avatar} to player ${p.to_avatar}`;
    default: return `a ${k}`;
  }
}

export const describers = { icetraders, planet, pantropia, fccatan };
