package timer

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC)

func TestACountdownRunsPausesAndResumes(t *testing.T) {
	tm := New("purse", 15*time.Minute)
	assert.False(t, tm.Running())
	assert.Equal(t, 15*time.Minute, tm.Remaining(t0.Add(time.Hour)), "a stopped timer does not run")
	tm.Start(t0)
	assert.Equal(t, 10*time.Minute, tm.Remaining(t0.Add(5*time.Minute)))
	tm.Pause(t0.Add(5 * time.Minute))
	assert.Equal(t, 10*time.Minute, tm.Remaining(t0.Add(50*time.Minute)), "paused with the room")
	tm.Start(t0.Add(50 * time.Minute))
	due, ok := tm.DueAt()
	require.True(t, ok)
	assert.Equal(t, t0.Add(60*time.Minute), due)
	assert.False(t, tm.Expired(t0.Add(59*time.Minute)))
	assert.True(t, tm.Expired(t0.Add(61*time.Minute)))
	assert.Equal(t, time.Duration(0), tm.Remaining(t0.Add(99*time.Minute)))
}

func TestStartingARunningTimerChangesNothing(t *testing.T) {
	tm := New("x", time.Minute)
	tm.Start(t0)
	tm.Start(t0.Add(30 * time.Second))
	assert.Equal(t, 20*time.Second, tm.Remaining(t0.Add(40*time.Second)))
}

func TestASandTimerFlipsOver(t *testing.T) {
	tm := New("sand", time.Minute)
	tm.Start(t0)
	tm.Flip(t0.Add(20 * time.Second)) // 40 s had not run through: 20 s come back on top
	assert.True(t, tm.Running())
	assert.Equal(t, 20*time.Second, tm.Remaining(t0.Add(20*time.Second)))
	tm.Pause(t0.Add(30 * time.Second))
	tm.Flip(t0.Add(30 * time.Second))
	assert.False(t, tm.Running())
	assert.Equal(t, 50*time.Second, tm.Remaining(t0))
}

func TestResetFillsItAgain(t *testing.T) {
	tm := New("x", time.Minute)
	tm.Start(t0)
	tm.Reset()
	assert.False(t, tm.Running())
	assert.Equal(t, time.Minute, tm.Remaining(t0.Add(time.Hour)))
}

func TestATimerSurvivesARoundTripThroughTheJournal(t *testing.T) {
	tm := New("sand", 90*time.Second)
	tm.Start(t0)
	b, err := json.Marshal(tm)
	require.NoError(t, err)
	var back Timer
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, tm.Remaining(t0.Add(time.Minute)), back.Remaining(t0.Add(time.Minute)))
	assert.True(t, back.Running())
}

func TestTheTimerSaysWhereItIs(t *testing.T) {
	tm := New("sand", 90*time.Second)
	assert.Equal(t, "sand 1:30 (stopped)", tm.Format(t0))
	tm.Start(t0)
	assert.Equal(t, "sand 0:41 (running)", tm.Format(t0.Add(49500*time.Millisecond)))
	tm.Pause(t0.Add(60 * time.Second))
	assert.Equal(t, "sand 0:30 (paused)", tm.Format(t0))
	tm.Start(t0)
	assert.Equal(t, "sand 0:00 (running)", tm.Format(t0.Add(time.Hour)))
	tm.Pause(t0.Add(time.Hour))
	assert.Equal(t, "sand 0:00 (done)", tm.Format(t0))
}

func TestTheFakeClockFiresInTimeOrderAndHonoursStop(t *testing.T) {
	var c Fake
	start := c.Now()
	var got []string
	c.AfterFunc(3*time.Second, func() { got = append(got, "c") })
	c.AfterFunc(1*time.Second, func() {
		got = append(got, "a")
		assert.Equal(t, start.Add(time.Second), c.Now())
		c.AfterFunc(time.Second, func() { got = append(got, "b") }) // scheduled from inside a callback
	})
	stop := c.AfterFunc(2500*time.Millisecond, func() { got = append(got, "never") })
	assert.True(t, stop())
	assert.False(t, stop())
	c.Advance(2 * time.Second)
	assert.Equal(t, []string{"a", "b"}, got)
	c.Advance(2 * time.Second)
	assert.Equal(t, []string{"a", "b", "c"}, got)
	assert.Equal(t, start.Add(4*time.Second), c.Now())
}

func TestTheRealClockCallsBack(t *testing.T) {
	done := make(chan struct{})
	Real{}.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang, not a slow machine
		t.Fatal("the real clock never called back")
	}
	stop := Real{}.AfterFunc(time.Hour, func() {})
	assert.True(t, stop())
}
