//go:build race

package troll

// raceOn: the race detector slows the bot's look-ahead tenfold, so the
// bot-heavy tests play fewer games under it.
const raceOn = true
