// Package louseflea referees The Louse and the Flea (game id "louseflea"),
// a card game after the Grimm tale in which a louse burns itself, the flea
// weeps, and the whole household goes wild, one thing after another.
//
// # The game in brief
//
// Six things of the tale take part, in story order: Door, Broom, Cart, Ash,
// Tree, Girl, and after the Girl comes the Door again. Seat 0 is the Door
// (the player nearest a real door) and the identities go round the table in
// story order. The deck holds 60 object cards, ten for each thing, plus one
// Louse, one Flea and three Springs. Everyone starts standing with four
// cards; the top card of the deck is turned up (louse, flea and spring are
// turned past) and counts as played on its thing.
//
// When a card of your thing is played, it is your turn and you are called:
// you stay standing (or stand up again, if you were sitting) by playing your
// own card, which gives the next thing in the story a free turn, or the next
// thing's card, which calls that thing in turn. If you can do neither you
// sit down and play any other object card, calling that card's thing. On a
// free turn nobody sits: you play any object card, and your own or the next
// card still stands you up if you were seated. After playing you draw back up
// to your hand limit. The game ends the moment only one player is standing:
// that player wins.
//
// The Louse and the Flea: a player who draws one, is dealt one, or is given
// one puts it in front of them; their hand limit drops by one and they
// discard a card of their choice at once. Once it has spent a full turn in
// front of you, you may pass it on by attaching it to an object card you
// play: the card is played as usual and the bug goes to that card's player,
// who discards a card and takes the turn; your limit goes back up.
//
// The Spring, played on your turn, washes away any louse and flea in front of
// you, discards your whole hand and deals you four fresh cards; your turn
// goes on and you still play an object card.
//
// # Moves
//
//   - "play CARD": play a card from your hand. CARD is door, broom, cart,
//     ash, tree, girl or spring.
//   - "attach CARD BUG": play object card CARD with BUG (louse or flea) from
//     in front of you attached; the bug goes to CARD's player.
//   - "discard CARD": the discard owed when a bug arrives in front of you
//     (the only move allowed then).
//
// Only the player of the called thing acts (or the player who owes a
// discard). Card names are read in any case.
//
// # Options
//
//   - small-table (fewer than six players): "deal" (default) deals all six
//     identity cards round the table, so with 3 players each is two things
//     (Door+Ash, Broom+Tree, Cart+Girl), with 4 the first two players are
//     two things and with 5 the Door is also the Girl; "remove" uses only the
//     first N things of the story and leaves the other things' cards out
//     (4 or 5 players; refused at 3, where nearly every card keeps its
//     player up and games barely end).
//   - deck-out: "reshuffle" (default) or "end" (see Readings).
//   - stand: "must" (default) or "choice" (see Readings).
//   - start-specials: "discard" (default) or "shuffle" (see Readings).
//
// # Readings
//
// The rulebook leaves these open; the choices made, and the options that
// offer the alternatives:
//
//  1. Drawing. The rulebook never says when cards are drawn, only that the
//     deck lies within reach and that bugs shrink the "hand size". We read it
//     as: after playing an object card you draw back up to your hand limit
//     (4, less one per bug in front of you).
//  2. Dealing. Each player gets four cards, dealt a seat at a time (the same
//     as round by round, with a shuffled deck). A bug dealt to you counts as
//     drawn: it goes in front of you, you discard a card if you hold one, and
//     the deal goes on up to your new limit, all before the start card.
//  3. The start card. It counts as played on its thing, whose player must
//     stand or sit as usual. Louse, flea and spring cards turned past go on
//     the discard pile (they return at the first reshuffle); option
//     start-specials=shuffle shuffles them back into the draw pile instead.
//  4. Where the turn goes. Your own card hands the next thing a free turn
//     (the rulebook: the next player does not sit, since their card was not
//     played). The next card, or any other card, calls that card's thing,
//     who must stand or sit: their card was played.
//  5. Sitting is not elimination. Seated players still take their turns when
//     called, and stand up again by playing their own or the next card (the
//     rulebook ties standing to following the story's order). On a free turn a seated player who plays their own or the next
//     card stands up; any other card leaves them as they were.
//  6. Having to stand. The rulebook's sit-down-otherwise rule is read as: a called
//     player who holds their own or the next card must play one of them
//     (stand=must). Option stand=choice lets them sit on purpose and play
//     another card, to call someone else.
//  7. Receiving a bug. "Discard a card" is one card of the receiver's
//     choice, at once (if they hold any); if the bug was drawn, drawing then
//     goes on up to the new limit, so every bug costs one card of hand size.
//     A given bug is discarded for before its receiver plays. A receiver
//     with no card at all (no real deal leaves a hand empty, but a referee
//     must not stall) discards nothing and draws up to the new limit before
//     playing.
//  8. Passing a bug. One bug per object card, never to yourself (not onto a
//     card of your own thing: with two identities, neither of yours). The
//     card counts as an ordinary play: you stand or sit by it as for any
//     card. Your limit rises by one as the bug leaves and you draw up to it.
//  9. When a bug may move on. A bug may be attached only once a
//     whole turn has gone by with it in front of you: a bug handed to you
//     cannot go on during the turn it brings you; one drawn after your play
//     or in a spring's fresh hand must sit out the next turn too; one dealt
//     at the start must sit out the first turn.
//  10. The Spring. It may be played on any turn of yours (called or free,
//     standing or sitting). It does not end the turn: afterwards you still
//     play an object card, from the fresh hand, with the same call on you.
//     The washed-off bugs go to the discard pile. If a bug turns up in the
//     fresh hand it is handled as any drawn bug (with nothing yet in hand,
//     nothing to discard).
//  11. Running out. The rulebook does not say. Default deck-out=reshuffle:
//     when a card must be drawn and the draw pile is empty, the discard pile
//     except its top card is shuffled into a new draw pile (washed-off bugs
//     come back this way). Option deck-out=end: the game ends when a card
//     must be drawn from an empty pile, and everyone still standing shares
//     the win.
//  12. Fewer than six players. The rulebook assumes six (one per thing). We
//     take 3 to 6 players; see the small-table option above. With two
//     identities you act as whichever thing was called: "your own card" and
//     "the next card" are that thing's and the one after it. Two players
//     are not offered: with "deal" the first card anyone cannot answer ends
//     the game, and with "remove" every card answers, so nobody ever sits.
//  13. Secrets. Hands and the draw pile are secret; discards, bugs in front
//     of players, hand sizes and who stands are public. Drawn cards are told
//     to the drawer alone.
//  14. Who plays after an attach. "Play passes to them" is read as the
//     card's thing being called as by any card played: after discarding,
//     the receiver must stand or sit on that card.
//  15. Springs in a row. The fresh hand a spring brings may hold another
//     spring, and it may be played at once: the turn still goes on.
//  16. A discard owed comes first. While a player owes the discard for a
//     bug, nobody plays, and the one owing it may only discard (not play a
//     spring to wash the bug away).
//
// The bot stands whenever it can (calling the next thing if that player is
// up), otherwise aims its card at a standing opponent, passes bugs on at the
// first chance, and plays a spring when it carries a bug it cannot pass yet
// or is called with no way to stand. It reads only its own hand and the
// public table.
package louseflea
