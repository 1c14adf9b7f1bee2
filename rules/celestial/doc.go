// Package celestial referees Warriors of the Celestial Emperor, a short
// fighting game for two to four players with a standard deck (game id
// "celestial").
//
// # The game in brief
//
// Each player fights for one of four clans and holds the thirteen cards of
// its suit: the Dragon (diamonds), the Phoenix (hearts), the White Tiger
// (spades) and the Tortoise (clubs). Clans attack in that cycle, the Dragon
// first, the Tortoise last, then round again; a clan not in the battle is
// passed over. The storytelling (where the fight takes place, how each blow
// lands) is the players' own: the referee only keeps the cards. The view
// names the seat who describes the setting: the Tortoise, or failing it the
// White Tiger, or failing that the Phoenix.
//
// On its turn a warrior names an opponent to attack. Both fighters then lay
// a card face down at the same moment, unseen by anyone else, and the two
// cards are turned over together. Aces are worth one, the lowest; jacks,
// queens and kings 11, 12 and 13; suits do not matter.
//
//   - Equal values: both cards are discarded face up and nobody gains.
//   - Otherwise the higher card wins the exchange. Each fighter takes the
//     other's card into hand, then both discard one card of their choice
//     (it may be the card just received) face down at the same moment. The
//     winner takes the two discards as one trick; nobody ever sees them.
//
// A warrior down to a single card leaves the fight: that card stays face
// down, and it may neither attack nor be attacked. When fewer than two
// warriors still hold more than one card, the battle is over. A warrior who
// still holds several cards then keeps one and discards the rest, each
// discarded card counting as one more trick.
//
// Finally the last cards are turned over. A final card is covered when its
// value is no more than its owner's tricks. The champion is the warrior with
// the highest covered final card; if no card is covered, the warrior with
// the lowest final card. Equal final cards are decided by more tricks, then
// by the clan latest in the cycle: Tortoise, White Tiger, Phoenix, Dragon.
// There is always exactly one champion. Result.Scores holds each seat's
// tricks.
//
// # Moves
//
// Seats are numbered from 0, as in game.Move. Cards are written as in
// package deck: "AD", "10H", "QS", "7C" (any case).
//
//   - attack TARGET: the attacker names the opponent, by seat number ("2")
//     or clan ("dragon", "phoenix", "tiger", "tortoise"). Legal lists seat
//     numbers. The target must hold more than one card.
//   - play CARD: each fighter lays a card from hand face down. Turn lists
//     both fighters until each has played; a played card cannot be taken
//     back. When both have played, the cards are revealed in the events.
//   - discard CARD: after an exchange that was won, each fighter discards a
//     card face down; Turn lists both until each has.
//   - keep CARD: at the end, the one warrior left with several cards keeps
//     this one and discards all the others as tricks.
//
// Events telling a seat its own face-down card (laid or discarded) go to that
// seat alone; everyone else learns only that a card was laid.
//
// # Options
//
//   - clans: "seats" (default) gives seat 0 the Dragon, seat 1 the Phoenix,
//     seat 2 the White Tiger and seat 3 the Tortoise, so the seats attack in
//     seat order; "random" draws a different clan for each seat from all four,
//     so a smaller battle may lack the Dragon, and the attack order follows
//     the clans, not the seats.
//   - clan-1 to clan-4: the clan the players chose at the table for the
//     first to fourth player in the order of play ("deal", the default,
//     leaves it to the clans option among the clans nobody chose). Two
//     players may not choose one clan. With no choice made, the clans are
//     dealt exactly as before these options (same seed, same clans).
//   - qualify: "at-most" (default) covers a final card whose value is no more
//     than its tricks; "below" only one strictly less than its tricks.
//
// # Readings
//
// Where the rulebook is silent or unclear, this engine reads it as follows.
//
//  1. Which clans fight when fewer than four play is not said; the setting
//     rule ("the White Tiger if there is no Tortoise, or the Phoenix") shows
//     any clan may be missing. Default: clans by seat from the Dragon on;
//     option clans=random for a random draw. A missing clan is skipped in the
//     cycle, and the first attacker is the earliest clan present.
//  2. The attacker lays his card before the target does, but face down, so
//     the order tells nothing: both fighters lay theirs at once, and neither
//     (nor the table) sees the other's until both are down. The target is
//     named first, in its own move, so that both may then act together.
//  3. Attacking is not optional: a warrior able to attack must name a target
//     (the rulebook gives no way to pass, and warns against sitting out).
//  4. Laying aside the last card is automatic, since there is no choice; a
//     warrior holding one card when its turn comes is passed over.
//  5. After a tie there is no exchange, no discard and no trick; the tied
//     cards stay face up (they were shown) and the next clan attacks.
//  6. The exchange and the discards happen whoever wins, and both fighters
//     discard at once, unseen. The discarder is told privately what it
//     discarded; the cards of a trick are never shown to anyone, even at the
//     end.
//  7. A trick is counted once per exchange won (its two cards make one
//     trick), plus one per card discarded at the end, as in the rulebook's
//     example (four wins and two discards make six tricks).
//  8. The only choice in discarding down at the end is which card to keep,
//     so it is one move, keep.
//  9. The final card's value is its rank: ace 1 to king 13, whatever the
//     suit; a warrior may end holding another clan's card.
//  10. The rulebook says "equal to or lower than" the tricks twice and "lower
//     than" once: the default is the former, option qualify=below the latter.
//     Read literally the sentence mixes them: the covered branch opens when
//     some final card is equal to or lower than its tricks, and its winner is
//     the highest card lower than them, which leaves no winner when the only
//     cards in reach equal their tricks. qualify=below applies "lower than"
//     throughout instead: a final card equal to its tricks is not covered at
//     all, so if no card is strictly below its tricks, the lowest final card
//     wins (the card equal to its tricks competes there like any other).
//  11. The tie-breaks (more tricks, then reverse order of play from the
//     Tortoise) go by clan, not by seat; the Dragon, unnamed in the list,
//     comes last. When no card is covered, the same tie-breaks apply to the
//     lowest card.
//  12. The cards of the last exchange stay shown in the views until the
//     next one, as they lay on the table for all to see.
package celestial
