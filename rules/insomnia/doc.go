// Package insomnia referees Insomnia (Game Poem 33): one player trying to
// sleep against six voices that will not stop talking.
//
// # The game, in our words
//
// Seat 0 is the sleeper. The other seats (three to six of them, so four to
// seven players in all) speak for six voices; when there are fewer than six
// voice players some hold two voices, one card in each hand. The deck is a
// standard 52 cards. Each voice gets one secret card, known only to the
// player holding it; the remaining 46 cards are the sleeper's deck, in an
// order nobody knows.
//
// The sleeper draws a card, looks at it, and shows it to one voice that is
// still talking (for a player with two voices, to one chosen hand). If the
// card has the same number and the same colour as the voice's card (the 7 of
// hearts silences the 7 of diamonds), the voice turns its card face up and
// falls silent for the rest of the game. Otherwise the voice answers, and
// its answer must be true:
//
//   - "higher": its card is higher than the card shown;
//   - "lower": its card is lower;
//   - "not red" (it holds black, and was shown red) or "not black" (it holds
//     red, and was shown black).
//
// Each voice may give its colour answer only once. The one exception: a
// voice shown a card of its own number but the other colour has no other
// true answer, so it says its colour again. The sleeper then draws the next
// card.
//
// The night ends when every voice is silent or when the sleeper has shown
// all 46 cards. If the voices are all silent the sleeper wins and sleeps ten
// minutes for every card still in the deck (Result.Scores[0]; the voice
// seats score 0). If the deck runs out first the alarm rings: the sleeper
// gets no sleep and every voice seat is among the winners.
//
// # Seats and voices
//
// Voices are numbered 1 to 6 and dealt round the voice seats starting at
// seat 1: voice v belongs to seat 1 + (v-1) mod (players-1). With 4 players
// seats 1, 2, 3 hold voices 1+4, 2+5, 3+6; with 5 players seats 1 and 2
// hold two voices (1+5, 2+6) and seats 3, 4 one each; with 6 players seat 1
// holds voices 1 and 6; with 7 players every voice seat holds one voice. A
// seat's lower-numbered voice is in its left hand, the other in its right.
//
// # Moves
//
//   - "show N" (the sleeper, seat 0): show the card in hand to voice N, 1 to
//     6, which must still be talking. A match silences the voice at once;
//     otherwise that voice's seat must answer.
//   - "higher", "lower", "not-red", "not-black" (the seat holding the voice
//     just shown a card; no arguments): the voice's true answer.
//
// The sleeper's draws are automatic: the first at set-up, then one after
// every answer or silencing until the night ends.
//
// # Secrets
//
// A voice's card is in its holder's view only; once silenced, it is turned
// to the sleeper too. The sleeper's drawn card is in the sleeper's view
// only, until it is shown; then the voice's player sees it as well, and
// everyone else learns only which voice was shown a card and what it
// answered (the events say so; the card is in an event for the two of them
// alone). With option shown=public, shown cards and silenced voices' cards
// are everyone's, as if laid face up. The deck order is in no view.
//
// # Readings
//
//   - Players: the rulebook asks for at least three voice players plus the
//     sleeper, and at most six (one per voice), so Insomnia takes 4 to 7
//     players. There are always six voices, as the "forty-six remaining
//     cards" confirms; nobody holds more than two, one per hand.
//   - The sleeper is seat 0; the referee seats whoever wants to sleep there.
//     The doubling order is ours (see Seats and voices).
//   - A match is the same number and colour, as written, not the same suit:
//     each voice can be silenced only by its "twin" card (7H by 7D), and if
//     another voice holds that twin the voice can never be silenced.
//   - Aces: the rulebook does not say where an ace stands for "higher" and
//     "lower". Default low (ace = 1, below the 2); option aces=high puts it
//     above the king. Jack, queen and king are 11, 12, 13.
//   - A voice chooses freely among the true answers; the engine refuses a
//     false one. "Not red"/"not black" may be chosen even when the numbers
//     differ (it is one of the three answers), but only once per voice (per
//     voice, not per player: a player with two voices has one colour answer
//     for each). After that, a voice whose number differs must say higher or
//     lower; a voice shown its own number in the other colour repeats its
//     colour, as the rulebook allows.
//   - The sleeper must show every drawn card to some talking voice; there
//     is no passing. A card shown to the wrong voice is spent.
//   - The rulebook leaves the answers to the sleeper's memory. With option
//     notes=yes (the default) the views list every voice's past answers and
//     whether it has given its colour; notes=no leaves them out (a voice's
//     own seat still sees whether it has given its colour). The events
//     announce every answer either way.
//   - Match ends: "the remaining cards" are those still in the deck once the
//     last voice falls silent; the card that silenced it is spent. Silencing
//     the last voice with the very last card is a win worth 0 minutes.
//   - Winners: the rulebook names none. We count the sleeper the winner when
//     every voice falls silent, and the voice seats the winners when the
//     alarm rings.
//   - A shown card is shown to one voice: the rulebook has the sleeper
//     turn it to that voice, and the voice turn its own card to the sleeper
//     when it matches; it never says the cards are laid face up. So by
//     default (shown=private) only the sleeper and that voice's player see
//     a shown card, and only the sleeper a silenced voice's card; the
//     other voices hear the answers. Option shown=public keeps every shown
//     card, and every silenced voice's card, face up for all to see (easier
//     for the voices to help each other mislead, and for onlookers).
//   - A match needs no move from the voice: turning its card to the sleeper
//     is the engine's job, since it knows both cards, so the voice falls
//     silent as soon as its twin is shown and cannot hide the match.
//   - The voices' talking, the sleeper's arguments and any time limits are
//     left to the players: the engine has no clock.
//
// # Bot
//
// The game's bot (Game implements game.Botter) remembers every public answer
// perfectly. The sleeper shows its card to the voice most likely to hold its
// twin, or, when none can, to the voice whose least telling answer would
// still narrow it down most. A voice gives the true answer that leaves the
// table the most candidates for its card. It uses only its seat's view of
// the game plus public history.
package insomnia
