// Package troll is Angry Troll versus Magic Bridge, a solitaire for one
// 52-card deck and a six-sided die (game ID "troll"), played to the final
// rules of its design log (section 7.1), with the difficulty variants of
// section 4.1 as variants and options.
//
// # The game in brief
//
// The bridge is two rows (upper and lower) of six positions, numbered 1 to
// 6 from left to right, with a river bank beyond each end. Each row is built
// face down with 3,2,1,1,2,3 bricks (cards) per position; the other cards
// form the deck of awakening, whose order nobody sees. The first card of
// the deck is turned up to start the lower stack: cards of its colour are
// played to the lower stack and wake the lower row, cards of the other
// colour go to the upper stack and wake the upper row. The engine rolls the
// die and puts the troll on that position of the lower row.
//
// Every turn has three phases.
//
//  1. Awakening. The cards set aside during the last turn are played one by
//     one; if there are none, one card is drawn from the deck (when the deck
//     is empty and nothing is set aside, nobody wakes). For each card the
//     engine rolls the die: the top brick of that row and position wakes
//     (turns face up). If the position is empty, the next brick towards the
//     bank nearer to it wakes instead, or failing that the next brick the
//     other way; in an empty row nothing wakes. A brick that is already
//     awake is jolted off into the sky and set aside (it will be played next
//     turn); if the troll stands on it, the troll goes too and the game is
//     lost.
//  2. The troll's two actions (both must be taken): walk to a brick next to
//     it (not diagonally), never onto a position it already stood on
//     this turn; stomp the awake brick it stands on (it sleeps again); pick
//     up an awake brick next to it (never a heart; one thing carried at a
//     time); use what it carries: a club beats an awake brick next to it to
//     sleep, a diamond thrown in a direction puts the first awake brick that
//     way to sleep (passing over sleeping bricks and gaps; thrown at nothing
//     it is simply lost), a spade shovels an awake brick next to it into the
//     troll's hands as a sleeping brick, and the used card is set aside; lay
//     a carried sleeping brick onto a position next to it (an empty one, or
//     on top of sleeping bricks). The ace of clubs, once picked up, is THE
//     CLUB: it is never set aside, can be swung every turn, and the troll
//     can pick nothing else up for the rest of the game.
//  3. Flight. Every awake brick on the bridge, except the one the troll
//     stands on, moves one step along its row towards its nearer bank
//     (positions 1-3 the left, 4-6 the right), or towards the other bank if
//     the troll stands between it and the nearer one. A brick stepping off
//     the bridge has escaped and is set aside. Then the bricks must still
//     join bank to bank, side to side; otherwise the bridge collapses and
//     the game is lost.
//
// The troll wins when the deck is empty, nothing is set aside, no brick on
// the bridge is awake and the bridge stands; the win is perfect if all
// twelve positions hold a brick. The score counts the awakening cards
// still undrawn when the bridge falls (lower is better; 0 on a win). Result: Winners [0]
// on a win, none on a loss; Scores [score]; Perfect on a perfect win.
//
// # Moves
//
// Seat 0 plays; every action is one move and the second action of a turn
// ends it (the engine then runs the flight phase and the next awakening
// phase). A direction is one of four words, up (towards the upper row),
// down, left or right.
//
//	move <dir>     step onto the brick that way
//	stomp          put the awake brick under the troll to sleep
//	pickup <dir>   pick up the awake brick that way (not a heart)
//	club <dir>     club the awake brick that way (a carried club or THE CLUB)
//	throw <dir>    throw the carried diamond that way
//	shovel <dir>   shovel the awake brick that way up with the carried spade
//	lay <dir>      lay the carried sleeping brick down that way
//	rest           only when no other action is possible
//
// # Variants and options
//
// Variants are the bridge layouts of section 4.1, hardest first:
// "standard" (3,2,1,1,2,3; 27 awakenings), "sturdy-ends" (4,2,1,1,2,4;
// slightly easier), "easy" (4,3,2,2,3,4; much easier) and "tutorial"
// (5,4,3,3,4,5; hard to lose). Options: "start-with" = nothing (default),
// card (the troll starts holding the deck's top card; harder or easier),
// the-club (THE CLUB from the start; easier) or toys (THE CLUB and a
// reusable ace of diamonds; much easier); "reusable-diamond" = no/yes (the
// ace of diamonds works like THE CLUB: kept after each throw, and nothing
// else can be picked up; easier once found); "troll-blocks" = own-row
// (default) or both-rows.
//
// # Readings
//
// Where the rulebook is silent or unclear, this engine reads it so:
//
//   - The first card only sets the lower stack's colour and places the
//     troll; it wakes nobody. The first turn draws its own card (the
//     playtest log confirms the second roll).
//   - The rule against revisiting a brick within a turn means the troll
//     may not step back onto any position it stood on this turn, its
//     starting one included (with two actions the literal reading would
//     forbid nothing; the design notes say the rule keeps the troll moving).
//   - A brick is the top card of a position's pile; waking, stomping,
//     clubbing, throwing at, picking up and shovelling all act on that top
//     card, and only a top card can be awake. A fleeing brick moves onto the
//     top of the next position's pile (or floats over an empty position) and
//     counts as a brick there: the bridge's connection after the flight
//     phase counts every position holding any card, awake or asleep.
//   - All awake bricks flee at once. The troll blocks the way to a bank only
//     when it stands in the same row between the brick and that bank (option
//     troll-blocks=both-rows: in either row, its column is a wall). The
//     nearer bank is the left one for positions 1-3, the right for 4-6.
//   - The bridge stands when its positions holding a card join the left
//     bank to the right bank through positions side by side, and a path may
//     pass from one row to the other where two positions are one above the
//     other (up or down, never diagonally). The rules say only that the
//     bricks must join bank to bank, side to side; the two rows are one
//     bridge, so a gap in one row is bridged by the other.
//   - When several bricks escape in one flight, they are set aside (and so
//     played in the next awakening phase) in reading order: the upper row
//     before the lower, left to right within a row. The rules do not say;
//     any fixed order keeps a game replayable from its seed.
//   - The bridge is only judged after the flight phase, as the rules say: a
//     gap opened during the awakening phase or by the troll can be mended by
//     laying a brick before then. The winning condition is checked after the
//     flight phase and again after the awakening phase (so a last awakening
//     that wakes nothing ends the game at once).
//   - "No brick there": the search goes from the rolled position towards
//     its nearer bank, then the other way from the rolled position.
//   - Cards set aside (escaped, used, or flown away) are played in the order
//     they were set aside. Cards flying away during an awakening phase wait
//     for the next one.
//   - Picking up is of a brick next to the troll, not under it (7.1). A
//     carried awake card is not on the bridge: it neither flees nor stops a
//     win. A club, a spade or a diamond can target hearts; only picking up
//     refuses them. A diamond may be thrown where no awake brick lies (4.1):
//     it is lost and set aside; the reusable ace of diamonds is not thrown
//     for nothing (it would be a free pass).
//   - A carried sleeping brick may be laid on an empty position or on a
//     pile whose top brick sleeps, but not on an awake brick (it would bury
//     it) and not under the troll (7.1: "next to").
//   - The troll must take two actions; when it can do nothing at all (no
//     brick to step to, nothing to stomp, use or lay) it may rest instead.
//   - Holding THE CLUB (or the reusable ace of diamonds) fills the troll's
//     hands for good: it cannot pick up, and so it never carries a spade or
//     a shovelled brick.
//   - start-with=card: a heart cannot be held, so it is set aside and played
//     on the first turn instead of a draw. start-with=the-club and toys take
//     the aces out before the shuffle, so the deck has one or two cards
//     fewer. With toys the ace of diamonds is reusable whatever the
//     reusable-diamond option says, and the troll holds both toys (the one
//     place where it carries two things).
//   - Section 4.1's "more cards on the end slots" is read as one more brick
//     on each end position (sturdy-ends).
//   - The troll may step onto an awake brick (nothing forbids it): standing
//     there it keeps that brick from fleeing, can stomp it, and goes with
//     it if it wakes again.
//   - An empty deck is not yet the end while cards wait set aside: they are
//     still to be played and may wake bricks, so the win also waits for
//     them.
//   - The score is the number of cards still in the deck of awakening, not
//     counting cards waiting set aside. The rules do not say which way it
//     counts: fewer is better, since it means the bridge held out longer,
//     and a win scores 0.
//   - The player sees every face-up card and the number of cards in each
//     pile, never a face-down card (not even one seen before and stomped
//     back to sleep) nor the deck's order.
//
// # The bot
//
// The bot (Game's Bot) plays the troll by look-ahead. It tries every pair
// of actions left this turn, plays the flight phase that follows, and
// scores the result: a lost bridge is worst; otherwise points for bricks
// on the bridge, penalties for gaps and for single bricks whose loss would
// cut the bridge, for cards set aside (each is one more awakening), and
// for awake bricks it could not stomp or strike next turn; tools in hand
// are worth something (THE CLUB a lot). The largest term is the expected
// cost of the next awakening: for each row (by the chances of the unseen
// colours, or the known colour of a set-aside card) and each die face, what
// waking that brick would cost given where the troll stands: nothing if it
// can step on and stomp it, a tool's price if it can strike it, its flight
// (a lost brick, perhaps a collapse, and one more awakening) if not; a
// second waking under the troll counts as a loss. The four best plans are
// then looked at one turn deeper: every way the next awakening can fall,
// each answered by the best pair of actions; a plan's score is half its
// plain value and half this deeper one. So the troll stays central,
// stomps what it can reach, stands on a brick it cannot otherwise hold only
// when that brick is vital, spends tools where a brick would otherwise
// break the bridge, and lays shovelled bricks into gaps.
//
// The bot plans on a copy of the game in which every face-down card (the
// sleeping bricks, the deck, a brick carried asleep) is replaced by an
// unknown card and the dice to come are forgotten, so it decides from what
// lies face up alone (a test reshuffles the hidden cards and checks that
// its choice never changes). When its look-ahead wakes a brick from face
// down, that brick's colour and suit are unknown: the chance that it is a
// heart, or wakes a row when set aside, comes from the cards not yet seen,
// and picking it up is weighed kind by kind (a heart, which cannot be
// picked up; a club, a diamond, a spade; the ace of clubs, which is THE
// CLUB; the reusable ace of diamonds), each with the best pair of actions
// for it.
package troll
