// Package pursesnatcher referees Purse Snatcher (Game Poem 34), a two-player
// role-playing game: a tourist whose purse, money and passport were stolen
// asks a busy police officer for help. The words are spoken; tableref keeps
// track of what the rules constrain: the tourist's posture and the details
// she pays to climb, the officer's questions and invitations and whether
// she may refuse them, who may touch whom, the finger challenges and the
// request in return, the token of responsibility, the time limit and how
// the tourist leaves.
//
// # Seats
//
// Seat 0 is the tourist, seat 1 the officer (the rulebook has the tourist
// read first and casts each role against the player's sex; tableref leaves
// casting to the table). Exactly two players.
//
// # Rules, in short
//
// The tourist walks in standing and the officer begins by asking her to sit.
// From then on the tourist is sitting, standing, or touching the officer
// (a hand on his shoulder or arm); each posture sets how she must behave.
// She climbs one posture at a time, sitting to standing to touching, and
// every climb costs a new detail that makes the theft graver.
//
// The talk. Once she is seated the officer asks his questions, one at a
// time. Sitting or touching him, she must answer; standing, she may
// refuse. He may invite her to sit down, or, while she touches him, to let
// go and stand back; she may accept or decline. He never touches her unless
// she has asked him to (once for each asking), or to arrest her.
//
// Whenever she likes she may challenge the officer: she raises a fist and
// closes her eyes, he says "okay", she raises 1 to 4 fingers, he raises 1 to
// 4, and he tells her to open her eyes. An even total wins the challenge for
// the tourist, an odd one for the officer. Whether the officer may look
// depends on her posture: sitting, he chooses; standing, he must close his
// eyes; touching, he must keep them open. With his eyes open he sees her
// fingers before raising his, and can pick the outcome. She is never told
// whether he looked.
//
// A won challenge gives her one demand or one question that the officer must
// satisfy; if she won while touching him, he may then ask something of her
// in return, which she must grant. A lost challenge makes her change posture: touching, she lets
// go and stands; standing, she sits down or adds a detail and touches him;
// sitting, the officer may tell her to leave, and if he does not she stands
// up with a new detail.
//
// The tourist holds a token, the responsibility for the theft. She wins if
// the officer ever takes it into his hand; she loses if she leaves still
// holding it, or is arrested. After the time limit (15 minutes unless the
// "minutes" option says otherwise) the officer must end the meeting and tell
// her to leave; if she refuses, he arrests her.
//
// # Moves
//
// Seat 0, the tourist:
//
//	challenge          challenge the officer (during the talk, or as her last stand once told to leave)
//	fingers N          raise N fingers, N = 1..4, after the officer's okay
//	demand token       with token-demand=yes: spend a won challenge on making the officer take the token (ends the game: she wins)
//	demand other       spend it on any other demand or one question, settled at the table
//	escalate KIND WORD add a new detail and climb one posture (talk, or after a lost challenge);
//	                   KIND is sentimental, tickets, injury, documents, money or other, WORD a
//	                   short word (up to 24 lower-case letters, digits, hyphens); a detail
//	                   already told is refused; Legal lists four suggested words per kind
//	answer             answer the officer's question waiting (talk)
//	refuse-answer      refuse to answer it: only while standing
//	accept | decline   take up or turn down the officer's invitation waiting (talk)
//	ask-touch          ask the officer to touch her, which lets him touch her once (talk)
//	comply             do what the officer asked in return (after his request)
//	refuse-request     refuse it: she disobeys him, and he may tell her to leave
//	deescalate         step down one posture (after a lost challenge; in the talk only with step-down=yes)
//	offer              hold out the token (during the talk, or as her last stand once told to leave)
//	leave              walk out (during the talk, before a demand, a posture change or complying, or when told to): she still holds the token, so she loses
//	stay               refuse to leave when told to
//
// Seat 1, the officer:
//
//	seat               ask the tourist to sit down (the first move of the game)
//	okay open|closed   answer a challenge with the eyes open or closed; standing forces closed, touching forces open
//	fingers N          raise N fingers, N = 1..4, after the tourist has
//	take | refuse      take the offered token (and lose) or not
//	dismiss | keep     after she loses sitting down, or refuses his request in return: tell her to leave, or let her stay
//	arrest             arrest her after she refused to leave
//	ask TOPIC          ask a question (talk, when nothing he asked waits for her reply);
//	                   TOPIC is when, where, what-was-taken, description, contact or other
//	invite sit|stand   invite her to sit down (she is standing or touching him), or to let go
//	                   and stand back (she is touching him) (talk, when nothing waits)
//	touch              touch her arm, once after each ask-touch (talk)
//	request sit|stand|other  after her win while touching and her demand: what he asks in
//	                   return (stand only while she touches him); never to leave
//	waive              ask nothing in return
//
// The referee's clock:
//
//	time               the time limit has passed
//
// The engine has no clock. The referee reads the "minutes" option, times the
// meeting from the "seat" move, and when the time is up applies "time" in
// the name of whichever seat is in Turn (Legal lists "time" for that seat
// whenever it is accepted; a phone should not offer it as a player's
// button). It is accepted once, until the tourist has been told to leave. In
// the opening or the talk it ends the meeting at once: the officer tells her
// to leave. In the middle of an exchange (a challenge and its demand or
// posture change, a token offer, a decision to dismiss) that exchange is
// settled first, and the meeting ends as soon as it would go back to the
// talk.
//
// # Turn and secrets
//
// Outside the talk exactly one seat acts at a time. In the talk the tourist
// is always in Turn, and the officer too whenever he has a move (a question
// or an invitation when nothing he asked waits for her reply, a touch she
// asked for): speaking is not taking turns. A challenge always runs okay (officer),
// then the tourist's fingers, then the officer's fingers, which reveals both.
// The tourist's fingers show in her own view, and in the officer's only
// when his eyes are open; the table sees them at the reveal. The officer's
// eyes show in his view alone, during the challenge, and are never
// announced: the public "okay" event says nothing about them.
//
// # Readings
//
//   - Pick order. The rulebook has the tourist raise her fingers after the
//     officer's okay, and the officer his while her eyes are still closed.
//     tableref always takes the tourist's fingers first and the officer's
//     second. With his eyes closed he cannot see hers, so the picks are
//     secret and in effect simultaneous; with them open he sees them before
//     choosing. Using one order for both keeps the turn order from telling
//     the tourist whether he watched, which the rules ask him to hide.
//   - The officer's eye choice while she sits is part of his "okay" move,
//     so the referee knows whether to show him her fingers.
//   - Demanding the token. The tourist's rules say a won challenge makes the
//     officer do one thing she demands; the officer's rules only ask him to
//     do his best with her request, and forbid him outright to take the
//     token into his hand (he loses if he does). Each player reads only
//     their own rules, so an officer told "take this coin" has a plain
//     order not to. By default (token-demand=no) the token is outside what
//     a demand can force: she wins only if he takes it when offered, which
//     is the game's real contest (persuasion, tricks, a slip). The other
//     reading, token-demand=yes, lets a won demand force the token on him
//     and end the game: it turns the meeting into a race to win one
//     challenge, a fair coin while she stands. With the bots, which never
//     slip, the tourist wins 0% of games by default and about 70% with
//     token-demand=yes (about 61% if told-to-leave=last-offer also takes
//     away her last challenge; the bot officer's questions cost her
//     time); neither figure says much about people.
//   - Taking the token ends the game at once (the officer's rules say he
//     loses), without waiting for the tourist to walk out.
//   - Losing while sitting. The posture rule leaves only "stand up with a
//     new detail" from sitting, and separately lets the officer send her
//     away. tableref asks the officer first (dismiss or keep); if he keeps
//     her she must stand up (sitting-loss=rise, the default) or, with
//     sitting-loss=stay, she stays seated. The right to send her away is
//     used right after that loss or not at all.
//   - Stepping down. The rules price climbing (a new detail) and make
//     stepping down a consequence of a lost challenge; they never say she
//     may sit back down at will. Default step-down=no; step-down=yes lets
//     her step down one posture whenever she has the floor.
//   - Postures change one step at a time (sitting to touching takes two
//     climbs, and two details).
//   - Leaving "at any time" means at any moment she has the floor: not in
//     the middle of a challenge (her eyes are closed and her fist raised) nor
//     while the officer is answering her.
//   - Once told to leave (by time or by dismissal). The tourist may
//     challenge "at any time", and the officer must arrest her if, once
//     ordered out, she does not go. Read together: anything but going is
//     a refusal to go, so she has one last stand, a challenge or an offer
//     of the token (told-to-leave=last-stand, the default). Its exchange is
//     settled in full (a won challenge's demand, the officer's answer to the
//     offer, the posture change of a lost challenge; a loss while sitting
//     does not send her away again); then, if the game goes on, she leaves
//     or refuses, and refusing brings the arrest. The arrest is the
//     officer's move, the only one he has then. Option
//     told-to-leave=last-offer reads the order as ending challenges at once
//     and leaves her only one last offer of the token.
//   - A token offer is a move the referee records when she holds it out;
//     whether the officer closes his hand on it is his move, take or refuse.
//     Tricks of sleight of hand are settled by the table, not the engine.
//   - A won demand and its one question are still talk: the engine
//     announces them and moves on. So is what she says in her answers: the
//     engine records that she answered or refused, not what she said.
//   - A new detail is a kind and a word, picked from the phone (six kinds,
//     four suggested words each) or typed. "New" means not the same kind
//     and word as one told before: another detail of a kind already used
//     (her train ticket after her flight) is new. A kind alone would have
//     left her no more than six climbs in a meeting, and a tourist who must
//     stand up after a loss needs a detail to do it. Whether a typed word
//     really makes the theft graver is for the table to judge.
//   - Answering. The posture rules say who may refuse a question: standing
//     she may, sitting or touching she must answer; the engine refuses her
//     refusal with the reason. A question waiting does not stop the talk:
//     she may still challenge, climb, offer or leave first, and a seated
//     tourist who climbs with a new detail may then refuse. The officer asks
//     one thing at a time, and none before she is seated. Being told to
//     leave ends the talk: a question still waiting lapses, and so does her
//     asking to be touched.
//   - Invitations. Her rules have her follow the officer's instructions
//     within reason, but price her posture by their own means: a detail to
//     climb, a lost challenge to step down. tableref reads an invitation to
//     sit or to stand back as a courtesy within that: she may accept (and
//     then step down even with step-down=no) or decline without breaking a
//     rule. He invites her to stand only to let go of him: a seated tourist
//     stands up only by adding a detail. An invitation lapses when her
//     posture changes so that it no longer fits.
//   - Touching. The officer's touch is allowed once for each time she asks
//     for it (ask-touch), and otherwise only as the arrest.
//   - The request in return after a win while touching. The officer may ask
//     "anything": tableref offers sit (straight down to her seat), stand
//     (let go of him) and other (settled at the table), and he may waive it.
//     Not leaving: sending her away has its own rules (a loss while sitting,
//     the time). She must comply; if she refuses, she disobeys the
//     authority she owes obedience to, and the engine treats it as the one
//     other moment the rules let him act on her: he may tell her to leave
//     (dismiss) or let it pass (keep), and the refusal is counted as a
//     breach in the view. Once already told to leave, a refusal just sends
//     her back to going or staying.
//   - The game has no chance: nothing is dealt or rolled, so the seed
//     changes nothing.
package pursesnatcher
