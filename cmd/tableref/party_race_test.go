package main

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPublishingWhileACodeIsUsedIsNoRace: the screens are told what was
// heard (publish) while the heard code is judged (useCode writes its note,
// or that it was used, under the party's lock). What publish hands the
// server must be its own copy, which the server marshals after the party's
// lock is released: under -race, a shared code is a data race.
func TestPublishingWhileACodeIsUsedIsNoRace(t *testing.T) {
	p, srv, _ := newParty(t)
	infos := listeningInfos()
	require.NotEmpty(t, infos, "a game that listens")
	in := infos[0]
	room, _, _, err := srv.CreateRoom(in.ID, in.MinPlayers, "", nil)
	require.NoError(t, err)
	p.listenFor(room)

	// The screens are refreshed over and over while codes are judged.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				p.publish(room)
			}
		}
	})
	for i := range 50 {
		c := &heardCode{Bangs: 1, Claps: 1 + i%3, Order: "BC"}
		p.mu.Lock()
		p.lastCode = c
		p.mu.Unlock()
		p.useCode(room, c) // the room's game has not started: a note says so
		p.mu.Lock()
		note := c.Note
		p.mu.Unlock()
		require.Contains(t, note, "no game under way")
	}
	close(stop)
	wg.Wait()
}
