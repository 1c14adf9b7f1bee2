package webremote

import (
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The network's limits (docs/api.md, "Limits"). Everything a stranger can
// do is counted against the address it comes from: a token never buys
// more. An address on this machine (loopback, or the server's own address:
// the host's laptop) gets generous limits, but not enough to fill the
// server alone; a negative Config.RateLimit lifts every limit by address
// (load tests and browser tests, whose phones all share 127.0.0.1).
const (
	localRateFactor    = 5   // this machine's rate: 5 times Config.RateLimit
	maxRoomsPerAddr    = 8   // live rooms created by one address
	maxRoomsLocal      = 50  // live rooms created from this machine (over and above maxRooms)
	maxSocketsPerAddr  = 16  // open websockets from one address
	maxSocketsLocal    = 256 // open websockets from this machine
	maxSocketsPerToken = 4   // open websockets of one token: a fifth closes the oldest
)

// limiter is a token bucket per key (an address, or a known token): each
// bucket holds up to its rate of requests and refills at its rate per
// second. It is written here rather than taken from fiber's limiter
// middleware so that the websocket's frames can be counted against the same
// buckets as requests.
type limiter struct {
	rate float64 // allow's rate
	now  func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	rate   float64
	last   time.Time
}

func newLimiter(rate int, now func() time.Time) *limiter {
	return &limiter{rate: float64(rate), now: now, buckets: map[string]*bucket{}, swept: now()}
}

// allow takes one request from key's bucket; false means over the limit.
func (l *limiter) allow(key string) bool {
	if l == nil {
		return true
	}
	return l.allowAt(key, l.rate)
}

// allowAt is allow for a bucket of its own rate.
func (l *limiter) allowAt(key string, rate float64) bool {
	if l == nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > time.Minute {
		// Forget buckets that are full again, so that the map stays small.
		for k, b := range l.buckets {
			if now.Sub(b.last).Seconds()*b.rate+b.tokens >= b.rate {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: rate, rate: rate, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(rate, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.rate, b.last = rate, now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// peer is where a request comes from, for the limits.
type peer struct {
	key   string // "a:ADDRESS" (an IPv6 address by its /64: one host's many addresses are one), or "local"
	local bool   // this machine: loopback, or the server's own address
}

// peerOf is the request's peer.
func (s *Server) peerOf(c *fiber.Ctx) peer {
	if s.testPeer != nil {
		if p, ok := s.testPeer(c); ok {
			return p
		}
	}
	ip := net.ParseIP(c.IP())
	local := false
	if ip != nil && !ip.IsUnspecified() {
		local = ip.IsLoopback()
		if la, ok := c.Context().LocalAddr().(*net.TCPAddr); ok && la.IP.Equal(ip) {
			local = true // the host's browser on the server's own LAN address
		}
	}
	if local {
		return peer{key: "local", local: true} // loopback and the LAN address: one machine
	}
	return peer{key: addrKey(ip, c.IP())}
}

// addrKey is an address's key: an IPv4 address, or an IPv6 address's /64
// (a host picks addresses from its /64 at will).
func addrKey(ip net.IP, raw string) string {
	if ip == nil {
		return "a:" + raw
	}
	if ip.To4() == nil {
		return "a:" + ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return "a:" + ip.String()
}

// limited reports whether the limits by address apply (Config.RateLimit
// not negative).
func (s *Server) limited() bool { return s.limiter != nil }

// rate is a peer's requests a second.
func (s *Server) rate(p peer) float64 {
	r := s.limiter.rate
	if p.local {
		r *= localRateFactor
	}
	return r
}

// allowPeer takes one request from the peer's bucket and, for a live token,
// from the token's too: a token has a budget of its own within its
// address's, never instead of it.
func (s *Server) allowPeer(p peer, tok string) bool {
	if !s.limited() {
		return true
	}
	ok := s.limiter.allowAt(p.key, s.rate(p))
	if tok != "" && s.knownToken(tok) {
		ok = s.limiter.allowAt("t:"+hashToken(tok), s.limiter.rate) && ok
	}
	return ok
}

// limit answers 429 past the rate of the request's address (and of its
// token, when it carries a live one).
func (s *Server) limit(c *fiber.Ctx) error {
	if !s.limited() {
		return c.Next()
	}
	tok := bearer(c)
	if tok == "" {
		tok = c.Query("token")
	}
	p := s.peerOf(c)
	if !s.allowPeer(p, tok) {
		return fail(fiber.StatusTooManyRequests, s.tooMany(p))
	}
	return c.Next()
}

func (s *Server) tooMany(p peer) string {
	if s.limiter == nil {
		return "too many requests; slow down"
	}
	return fmt.Sprintf("too many requests: at most %g a second from one address (and %g with one token); slow down", s.rate(p), s.limiter.rate)
}

// roomCap is the most live rooms the peer may have created.
func roomCap(p peer) int {
	if p.local {
		return maxRoomsLocal
	}
	return maxRoomsPerAddr
}

// socketCap is the most websockets the peer may have open.
func socketCap(p peer) int {
	if p.local {
		return maxSocketsLocal
	}
	return maxSocketsPerAddr
}

// ownRoomsLocked lists the live rooms key created, oldest first; the
// caller holds s.mu (and it forgets the rooms that ended).
func (s *Server) ownRoomsLocked(key string) []*room {
	var own []*room
	for r, o := range s.owners {
		if s.rooms[r.code] != r {
			delete(s.owners, r)
			continue
		}
		if o.key == key {
			own = append(own, r)
		}
	}
	// Oldest first: by creation number.
	for i := 1; i < len(own); i++ {
		for j := i; j > 0 && s.owners[own[j]].n < s.owners[own[j-1]].n; j-- {
			own[j], own[j-1] = own[j-1], own[j]
		}
	}
	return own
}

// socketSlot is one of an address's places for a websocket, held by one
// socket at a time: a token's new socket may take over the place of its
// own oldest one (replaceOwnSocket).
type socketSlot struct {
	key   string  // the address's (peer.key)
	owner string  // the room's code and hashToken of the socket's token; "" for a watching screen
	c     *client // the socket
}

// slotOwner is who a socket's place belongs to: a token of a room, or
// nobody ("") for a screen that only watches.
func slotOwner(code, tok string) string {
	if tok == "" {
		return ""
	}
	return code + " " + hashToken(tok)
}

// openSocket counts c, a websocket of the peer for owner (slotOwner); nil
// when the peer has too many.
func (s *Server) openSocket(p peer, owner string, c *client) *socketSlot {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	if s.limited() && len(s.sockets[p.key]) >= socketCap(p) {
		return nil
	}
	return s.holdLocked(&socketSlot{key: p.key, owner: owner, c: c})
}

// holdLocked records sl as the newest place of its address; the caller
// holds limMu.
func (s *Server) holdLocked(sl *socketSlot) *socketSlot {
	s.sockets[sl.key] = append(s.sockets[sl.key], sl)
	return sl
}

// releaseLocked frees sl's place, reporting false when it was not held
// (a newer socket of its owner took it over); the caller holds limMu.
func (s *Server) releaseLocked(sl *socketSlot) bool {
	held := s.sockets[sl.key]
	i := slices.Index(held, sl)
	if i < 0 {
		return false
	}
	if held = slices.Delete(held, i, i+1); len(held) == 0 {
		delete(s.sockets, sl.key)
	} else {
		s.sockets[sl.key] = held
	}
	return true
}

// closeSocket frees a place counted by openSocket, unless a newer socket
// of its owner took it over.
func (s *Server) closeSocket(sl *socketSlot) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.releaseLocked(sl)
}

// ownSocketLocked is the oldest place owner holds at the peer's address
// (nil for none); the caller holds limMu.
func (s *Server) ownSocketLocked(p peer, owner string) *socketSlot {
	if owner == "" {
		return nil
	}
	for _, sl := range s.sockets[p.key] { // oldest first
		if sl.owner == owner {
			return sl
		}
	}
	return nil
}

// replaceOwnSocket gives a new socket of owner the place of owner's oldest
// socket from the same address, which it returns for the caller to close:
// a phone that wakes while its dead socket still holds a place is never
// locked out by its address's cap. A nil place when owner has none there.
func (s *Server) replaceOwnSocket(p peer, owner string, c *client) (sl *socketSlot, old *client) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	o := s.ownSocketLocked(p, owner)
	if o == nil {
		return nil, nil
	}
	s.releaseLocked(o)
	return s.holdLocked(&socketSlot{key: p.key, owner: owner, c: c}), o.c
}

// socketsFull reports whether the peer has all the websockets it may and
// owner has none of them to replace.
func (s *Server) socketsFull(p peer, owner string) bool {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	return s.limited() && len(s.sockets[p.key]) >= socketCap(p) && s.ownSocketLocked(p, owner) == nil
}

func tooManySockets(p peer) string {
	return fmt.Sprintf("too many websockets open from one address (at most %d): close some pages", socketCap(p))
}
