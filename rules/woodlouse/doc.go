// Package woodlouse referees Woodlouse Chaos (game id "woodlouse"), a party
// game for 3 to 6 players.
//
// # The game in short
//
// Each animal card shows 1 to 5 animals of one species; every species has
// ten cards, two each of 1 to 5 animals. Sequence cards, one per animal in
// play, lie in a row next to the box; the one next to the box is position 1.
//
// At the start each player gets three score cards face down, unseen even by
// their owner, and a face-down draw pile is made: 15 cards for 3 players, 16
// for 4, 15 for 5, 18 for 6 (12 in the easier games). The other cards stay in
// the box.
//
// Players take turns as the trainer, seat 0 first (seat the youngest player
// there), then clockwise (seat order). The trainer draws the top card, looks
// at it, and gives its code without a word: a bang of the flat hand for each
// position of its animal in the sequence row and a clap for each animal on
// it, mixed in any order. The others then shout guesses ("4 spiders"). The
// first right guess wins the card onto the guesser's score pile. Each wrong
// guess costs the guesser the top card of their score pile, which goes to the
// trainer's. A guesser whose score pile is empty still guesses, for free, but
// only once per card. If nobody gets it, the trainer shows the card and keeps
// it. A trainer who gives a wrong code shows the card and puts it, with the
// top card of their own score pile, under the draw pile; the turn ends.
//
// After every round, once each player has been trainer, the sequence cards
// are shuffled and laid out again. The game ends when the draw pile is empty
// at the end of a turn. Most score cards wins; a tie goes to the higher total
// of animals on the tied players' cards; a tie on both is a shared win.
//
// Variants: basic (four animals, 40 cards), harder (all five, 50 cards),
// easier (three animals, 30 cards, 12-card pile), even-easier (the easier
// game with the sequence never reshuffled; option even-easier-cards=40 or
// 50 plays it with the basic or the harder game's cards). The players
// decide together which animal stays in the box (option left-out; by
// default the draw decides); in a game of three animals, which two
// (left-out and left-out-too, which must differ; either may be left to
// the draw).
//
// # Moves
//
// The engine draws for the trainer at the start of each turn; the drawn card
// is told to the trainer alone (an event To the trainer, and View.Card).
//
//   - code BANGS CLAPS — the trainer's seat, when the card is drawn: the code
//     as given, e.g. "0 code 3 4". The referee's listener enters the code it
//     heard under the trainer's seat; so may the trainer by hand. Each number
//     is 0 to 20, not both 0. A code that does not stand for the card (by the
//     sequence as it lies) is the trainer's mistake. Legal lists only the
//     right code; Apply judges any.
//   - guess ANIMAL NUMBER — any seat but the trainer's, once the code is
//     given: "2 guess spider 4" (also "2 guess 4 spiders"; singular or plural,
//     either order). Any of the five animals and any number from 1 to 20
//     is a shout: one that cannot be right (an animal not in play, more
//     than 5 animals) is judged wrong and paid for like any other wrong
//     shout, as the rulebook makes every wrong shout cost a score card.
//     Legal lists only the animals in play with 1 to 5; only words that
//     are no animal, and numbers that are no count (0, over 20, not a
//     number), are refused.
//   - pass — any seat but the trainer's, once the code is given: the seat
//     gives up on this card and may not guess it any more.
//
// Guesses are out of turn: after the code, Turn lists every seat that may
// still guess, and the referee applies guesses in the order they arrive;
// the first right one ends the turn. The card stays with the trainer when no
// seat may guess any more: every guesser has passed, or is out of free
// guesses with an empty score pile. There is no clock in the engine; to call
// time, the referee enters "pass" for each silent seat.
//
// # Readings
//
// Where the rulebook leaves room, these are the choices made:
//
//   - Card values: each species has two cards of each number 1 to 5, and a
//     card's value (for the tie-break) is its number of animals.
//   - Which animals: the basic game leaves an animal out by the players'
//     common choice, and the rulebook says nothing of how the easier game's
//     two are chosen: read as the same choice, twice (options left-out and
//     left-out-too); an animal not chosen is drawn at random (all animals
//     play alike). The sequence cards are laid out in a random order, shown
//     on the table view.
//   - Harder game pile: the rulebook changes only the cards, so the pile
//     sizes stay those of the basic game (15/16/15/18).
//   - Even easier: read as a step beyond the easier game, so it uses its 30
//     cards and 12-card pile; since its rule changes only the sequence
//     cards, option even-easier-cards=40 or 50 uses the basic or the harder
//     game's cards instead.
//   - Score cards are face down and dealt unseen; won and paid cards go face
//     down on top. Nobody's view shows what is in any score pile, only how
//     many cards it holds (revealed cards are announced in events when they
//     are shown). The card paid for a wrong guess, and the one a mistaken
//     trainer adds to the pile, is the top card of the score pile.
//   - Mistake: the card goes under the pile first, then the trainer's score
//     card beneath it. A trainer with no score card adds none. The code is
//     judged as soon as it is given, so there is no guessing on a wrong code.
//     A mistaken turn still counts as that player's turn as trainer.
//   - Empty score pile: a guess made with an empty score pile costs nothing
//     and each seat gets one such free guess per card. By default a guesser
//     who pays away their last card may still make that free guess on the
//     same card; option after-last-card=stop ends their guessing on that card
//     instead (they have guessed once already).
//   - Repeated guesses: a seat with score cards may guess again and again,
//     paying for each wrong guess, even repeating a wrong call.
//   - Nobody right: decided by passes, as above, not by a clock. A seat that
//     passed may not guess again on that card.
//   - End: the game ends when the pile is empty at the end of a turn, so the
//     last card is played out; a mistake that refills the pile keeps the game
//     going. Rounds need not be complete.
//   - Reshuffle: after every full round of trainers (every N turns), before
//     the next trainer draws; the new order may by chance equal the old one.
//   - Tie-break: most cards, then the most animals on one's cards; a tie on
//     both is a shared win.
//   - First trainer: the youngest player starts; the engine starts with seat
//     0 and leaves it to the players to seat the youngest there.
//   - Impossible shouts: every wrong shout costs a card, so a shout that no
//     card could match (an animal not in play, more than five animals) is
//     judged and paid for like any other; only words that name no animal
//     or no count are refused as mishearings.
//   - Impossible codes: a code the trainer gives wrongly is a mistake, but
//     more than 20 bangs or claps, or none of either, is taken for a
//     mishearing by the referee and refused unjudged.
//   - Late moves: a guess or pass arriving after the card was won, kept or
//     sent under the pile is refused and costs nothing, as is a code from
//     the last trainer arriving after their turn ended; the player hears
//     that the card is gone.
//
// # Bot
//
// The game's bot (Bot, DefaultBot) gives the right code as trainer; as a
// guesser it decodes the public code but slips now and then (swapped bangs
// and claps, a count off by one, the neighbouring sequence card), sometimes
// passes, and after a wrong guess sometimes tries again. It reads only the
// public code, the sequence, the wrong calls and, as trainer, its own card.
package woodlouse
