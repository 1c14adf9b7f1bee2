// Package minefield referees Jerks in a Minefield (Brian Shurtleff, 2009):
// two to four players creep and dash across a field of 25 tiles, ten of
// them mined, trying to shove each other onto the mines. The last player
// with a token standing wins; the blown-up come back as ghosts who meddle.
//
// # The rules, in short
//
// The field is 5×5. Its middle row and middle column (the cross, nine
// tiles) are blank and lie face up; the other sixteen tiles, ten mines and
// six blanks, are shuffled face down around it. Nobody knows the layout:
// the referee holds it.
//
// Tokens start on the middle square of an edge: with four players c1, a3,
// c5 and e3 (seats 0 to 3, going round clockwise from the south edge); with
// three one edge is left empty, east (e3) unless the table chooses another
// (option empty-edge: the rulebook leaves an edge unused without saying
// which), the seats going round clockwise from the south on the other
// three; with two, each player has two
// tokens on opposite edges (seat 0 on c1 and c5, seat 1 on a3 and e3).
//
// On a turn a player moves one token, in one of two ways:
//
//   - Cautious: one step north, east, south or west, and, if wanted, one look
//     under a face-down tile next to where the token started or where it
//     ends. Only that player learns what the tile hides (an event addressed
//     to that seat alone), and the player's view remembers it from then on.
//   - Fast: the referee rolls a die and the token dashes that many steps
//     (doubling back is allowed), with no look.
//
// Every face-down tile a token steps onto is turned face up. A blank stays
// face up; a mine goes off, the token is blown up at once and its move
// ends. An exploded mine stays face up, spent: anyone may walk over it.
// Tokens never share a square: a token cannot step onto another, and a
// dash that finds every square around it taken stops there.
//
// Once per turn, at any moment of it (before, after or in the middle of the
// move), a token may shove an opponent standing right next to it (not
// diagonally). Both roll a die; if the shover rolls at least as high, the
// victim is pushed two squares straight away from the shover, turning over
// each tile it crosses, and is blown up by a mine on the way. A push stops
// early at the edge of the field or against another token.
//
// A player whose token is blown up misses their next turn and then comes
// back as a ghost. On its turn a ghost does one of these: peeks under any
// face-down tile (privately, as a look); re-arms a spent mine by turning it
// back over (in front of everyone, so the table's view marks it "armed"),
// which blows up a token standing on it; swaps any two tiles (each keeps
// its face: a spent mine moved is still spent), which is how mines get
// onto the cross; or haunts, rolling a die, and on a 6 pushes any living
// token of another player two squares in the direction of the ghost's
// choosing, by the same rules as a shove.
//
// The last player with a token standing wins. With two players each player
// is a team of two tokens, and wins while at least one of them stands.
//
// # Squares
//
// Squares are written column then row: columns a to e run west to east,
// rows 1 to 5 run south to north, so "c3" is the middle of the field, "a1"
// the south-west corner and "c5" the middle of the north edge. Directions
// are n, e, s and w (north is towards row 5). Parsing ignores case.
//
// # Moves
//
// A turn of a living token is several moves, made by the seat to act; it
// ends by itself once nothing is left to do, and otherwise with "end".
//
//	use SQUARE      two pieces could act (two tokens, or a token and the
//	use ghost       team's ghost, in a two-player game): pick one first
//	look SQUARE     cautious: look under a face-down tile next to the start
//	                or the current square (once a turn; before or after the step)
//	step SQUARE     move one square; the single step of a cautious move, or
//	                one step of a dash
//	fast            dash: the referee rolls the number of steps
//	shove SQUARE    shove the opponent on that square (once a turn)
//	end             end the turn (once the token has moved, or cannot)
//
// A ghost's turn is one move (two after a 6):
//
//	peek SQUARE        look under any face-down tile
//	rearm SQUARE       turn a spent mine back over
//	swap SQUARE SQUARE swap two tiles
//	haunt              roll a die: on a 6, push someone
//	push SQUARE DIR    after the 6: push the token on SQUARE one way (n, e, s, w)
//
// # Views
//
// View(seat) shows every square as that seat knows it: "clear" or "spent"
// when face up, "armed" for a mine a ghost re-armed in front of everyone,
// "seen-mine" or "seen-clear" for a face-down tile this seat has looked
// under (its knowledge follows the tile when a ghost swaps it), and "down"
// otherwise. The table's view has no looks at all. The layout of the
// face-down tiles is the table's secret; each look is its seat's secret.
// Events tell everyone which tile was looked under, and only the looker
// what it hides.
//
// # Options
//
//   - crossing (no/yes, default no): the rulebook's optional crossing rule.
//     During a dash, a face-down tile the token moves onto with steps still
//     to go is gambled on: 4 to 6 it passes over without turning the tile
//     (its contents stay secret), 1 to 3 the tile is turned over as if
//     landed on. A dash that ends (or is ended) on such a tile lands there.
//   - swap-occupied (no/yes, default no): whether a ghost may swap a tile a
//     token stands on. A live mine slid under a token goes off; a face-down
//     blank slid under one is turned over.
//   - fast-move (exact/up-to, default exact): whether a dash must use all the
//     steps rolled or may stop early.
//   - dash (free/no-revisit, default free): whether a dash may double back
//     or must cover the rolled number of different squares, never stepping
//     back onto one it has stood on this turn (reading 5).
//   - shoves (one/any, default one): one shove a turn, or any number, each
//     of the other players' tokens at most once a turn (reading 7).
//   - pair (one/both, default one; two players only): a turn acts with one
//     of the player's two pieces, or with both, one after the other
//     (reading 2).
//   - rounds (0 to 500, default 0): not in the rulebook. Stop after that many
//     rounds; the players still standing share the win. 0 plays on until one
//     is left, as the rulebook does.
//
// # Readings
//
// Where the rulebook is silent or unclear, this engine reads it so:
//
//  1. Adjacent means orthogonally adjacent, for steps, looks and shoves;
//     nothing moves diagonally.
//  2. Two players: "the team" is a player's own pair of tokens. The rulebook
//     gives each player two tokens but does not say whether a turn moves
//     one or both. By default a turn moves one of them (the player's
//     choice, "use"), so the two-player game keeps the pace of the others;
//     option pair=both moves both, one after the other, each with its own
//     cautious or fast move and its own shove. When one is blown up the
//     player misses the next turn, then acts each turn with either the
//     surviving token or the ghost (with pair=both, with both). The game
//     ends when a player has no token left, so two ghosts never happen.
//  3. "Loses their next turn" is the next turn of that seat after the blast,
//     whether the blast came on its own turn or someone else's.
//  4. A cautious look may come before or after the step; afterwards it may
//     be next to the starting square or the new one. It is optional and
//     commits the turn to a cautious move. Looking at a face-up tile is
//     refused. Which tile was looked at is public (the others see the tile
//     lifted); what it hides is not.
//  5. A fast move travels exactly the roll (option fast-move=up-to allows
//     stopping short), step by step with free choice of direction; every
//     square stepped onto counts as landed on, since the rulebook halts the
//     movement at once on a mine. "Travel that many tiles" does not say
//     whether a tile may be travelled twice: by default doubling back is
//     allowed (a dash is a number of steps); option dash=no-revisit makes
//     the dash cover that many different squares. Only a token boxed in
//     (by other tokens and the edge, and with no-revisit its own trail)
//     stops early; with doubling back that can only happen before the
//     first step, where fast is refused.
//  6. A token must move on its turn, cautiously or fast, unless boxed in by
//     other tokens (then it may only shove and end).
//  7. One shove per turn, at any time during it, including mid-dash. The
//     rulebook says a player next to an opponent "at any point" of the turn
//     may shove, which can be read as allowing several; option shoves=any
//     does, with each opponent token shoved at most once a turn, so that a
//     failed shove is not simply rolled again until it works. The
//     shover must win the roll or tie; a failed shove has no other effect.
//     A shove with no room to push (the edge, or a token behind the
//     victim) is still rolled: the rule moves a victim only as far as they
//     can go and forbids no such shove, so a won roll moves them 0 tiles
//     (the shove is spent all the same). Shoving your own token is
//     refused. Pushes stop before another token rather than moving it.
//  8. Tokens may not share a square; a token may not pass through another.
//  9. The tiles are pieces with an identity: a swap moves the tile and what
//     everyone knows about it (a spent mine stays spent, a re-armed mine
//     stays known, a looked-at tile stays known to the looker).
//  10. A ghost's push (on a 6) moves two squares, like a shove ("up to" read
//     as "as far as the edge allows"); the ghost rolls first and picks the
//     victim and direction after a 6. It may not push its own team's token.
//     As with a shove (7), a push toward the edge or another token is still
//     made: the victim goes as far as they can, perhaps 0 tiles (the rule
//     for ghosts is the shove's "otherwise", and the shove forbids no such
//     push), so a 6 always finds someone to push while an opponent stands.
//  11. Re-arming a spent mine under a token blows that token up at once and
//     leaves the mine spent again; re-arming an empty one leaves a live mine
//     face down that everyone knows about.
//  12. With swap-occupied, a face-down blank slid under a token is turned
//     over (the token now stands on it); a mine goes off.
//  13. A ghost may re-arm or swap against its own team's token (it would be
//     foolish); the bot never does.
//  14. The crossing rule applies to dashes only (a cautious step always
//     lands), not to shoves and pushes, whose tiles are turned over as the
//     rulebook says for shoves.
//  15. The cross is laid face up: its tiles are known to be blank, so
//     there is nothing to turn over there (a mine a ghost swaps onto it
//     comes face down, and is turned over like any other when landed on).
//  16. A ghost's peek, like a look, is refused under a face-up tile; a
//     peek under a tile the ghost already knows is allowed (the action is
//     spent for nothing), though Legal does not offer it.
//  17. A swap needs two different squares; swapping two alike face-up
//     tiles is allowed, though Legal leaves it out, as it changes nothing
//     anyone can see.
//
// # The bot
//
// The bot reads only its seat's view of the tiles and the public positions.
// It shoves whenever the push could land the victim on a tile it knows or
// fears is mined, looks under unknown tiles next to it, steps cautiously
// toward squares from which it could make such a shove, keeps off known
// mines and away from squares where it could be shoved into danger, and
// dashes only when the target is far. As a ghost it blows up anyone
// standing on a spent mine, and otherwise peeks, slides known mines next to
// opponents or haunts. After round 40 it acts more and more on a whim (but
// never walks onto a mine it knows of), so that a stand-off on the cross
// cannot last for ever.
package minefield
