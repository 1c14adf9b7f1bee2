package webremote

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// request is a request to s through App().Test with the given headers
// ("Host" sets the Host).
func request(t *testing.T, s *Server, method, path string, body any, h map[string]string) resp {
	t.Helper()
	req, err := http.NewRequest(method, "http://tableref.test"+path, jsonBody(t, body))
	require.NoError(t, err)
	for k, v := range h {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	return do(t, s, req)
}

// A body must be declared JSON: a form's or text/plain (which another
// site's page may send without asking) is refused with 415.
func TestBodiesMustBeDeclaredJSON(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "troll"})
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/jsonp"} {
		r := request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, map[string]string{"Content-Type": ct})
		assert.Equal(t, 415, r.status, "%s: %s", ct, r.body)
		assert.Contains(t, r.errorText(t), "Content-Type: application/json", ct)
		r = request(t, s, "POST", "/api/rooms/"+code+"/join", `{"name":"Ann"}`, map[string]string{"Content-Type": ct})
		assert.Equal(t, 415, r.status, "%s: %s", ct, r.body)
	}
	r := request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"})
	assert.Equal(t, 201, r.status, "%s", r.body)
	r = request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, map[string]string{"Origin": "http://tableref.test"})
	assert.Equal(t, 415, r.status, "a browser's body without a type: %s", r.body)
	r = request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, nil)
	assert.Equal(t, 201, r.status, "a script that names no type and no origin: %s", r.body)
}

// A browser's request from another site's page is refused: POSTs and the
// websocket check the Origin.
func TestOtherSitesPagesAreRefused(t *testing.T) {
	s := newTestServer(t, Config{})
	json := map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}
	r := request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, json)
	assert.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "cross-site")
	json["Origin"] = "null"
	assert.Equal(t, 403, request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, json).status)
	json["Origin"] = "http://tableref.test"
	assert.Equal(t, 201, request(t, s, "POST", "/api/rooms", `{"game":"deck"}`, json).status, "the server's own pages")

	l := startLive(t, Config{})
	code, _ := createRoom(t, l.Server, map[string]any{"game": "troll"})
	_, res, err := dialWith(t, l, "/ws/"+code+"?watch=1", http.Header{"Origin": {"http://evil.example"}})
	require.Error(t, err)
	require.NotNil(t, res)
	assert.Equal(t, 403, res.StatusCode)
	_, res, err = dialWith(t, l, "/ws/"+code+"?watch=1", http.Header{"Origin": {"http://" + strings.TrimPrefix(l.base, "http://") + ".evil.example"}})
	require.Error(t, err)
	assert.Equal(t, 403, res.StatusCode)
	c, _, err := dialWith(t, l, "/ws/"+code+"?watch=1", http.Header{"Origin": {l.base}})
	require.NoError(t, err, "the server's own page")
	c.readState()
	c, _, err = dialWith(t, l, "/ws/"+code+"?watch=1", nil)
	require.NoError(t, err, "a client that is not a browser sends no Origin")
	c.readState()
}

// The server answers only to its own names and addresses: a page on a
// stranger's name that resolves to this machine (DNS rebinding) is refused.
func TestOnlyTheServersOwnNamesAreAnswered(t *testing.T) {
	s := newTestServer(t, Config{PublicURL: "http://party.example.org:8080", Hosts: []string{"games.example.net"}})
	for _, h := range []string{"evil.example", "evil.example:8080", "192.168.1.20.nip.io:8080", "tableref.lan.evil.example"} {
		r := request(t, s, "GET", "/api/games", nil, map[string]string{"Host": h})
		assert.Equal(t, 421, r.status, "%s: %s", h, r.body)
		msg := r.errorText(t)
		assert.Contains(t, msg, "does not answer to the name", h)
		assert.Contains(t, msg, "http://party.example.org:8080", h)
		r = request(t, s, "GET", "/", nil, map[string]string{"Host": h})
		assert.Equal(t, 421, r.status, "the pages too: %s", h)
	}
	for _, h := range []string{"party.example.org:8080", "games.example.net", "localhost:8080", "127.0.0.1:8080", "[::1]:8080",
		"192.168.1.20:8080", "[fe80::1]", "laptop", "laptop.local", "tableref.lan:8080", "tableref.test", "a.localhost"} {
		r := request(t, s, "GET", "/api/games", nil, map[string]string{"Host": h})
		assert.Equal(t, 200, r.status, "%s: %s", h, r.body)
	}
}

// Every answer, page, file, API or error, carries the security headers.
func TestEveryAnswerCarriesTheSecurityHeaders(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "troll"})
	for _, c := range []struct {
		path   string
		host   string
		status int
	}{
		{"/", "", 200}, {"/t/" + code, "", 200}, {"/j/" + code, "", 200}, {"/static/app.css", "", 200},
		{"/static/games/troll.js", "", 200}, {"/api/games", "", 200}, {"/api/rooms/" + code + "/qr.png", "", 200},
		{"/api/rooms/ZZZZ/table", "", 404}, {"/nowhere", "", 404}, {"/", "evil.example", 421},
	} {
		r := request(t, s, "GET", c.path, nil, map[string]string{"Host": c.host})
		require.Equal(t, c.status, r.status, "%s: %s", c.path, r.body)
		csp := r.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self';", "img-src 'self' data: blob:", "media-src 'self'",
			"connect-src 'self' ws://", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", "object-src 'none'"} {
			assert.Contains(t, csp, want, c.path)
		}
		assert.NotContains(t, csp, "unsafe-eval", c.path)
		assert.Equal(t, "DENY", r.header.Get("X-Frame-Options"), c.path)
		assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"), c.path)
		assert.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"), c.path)
	}
}

// The policy allows no inline script: the pages have none (their scripts
// are modules from /static), and no handler in an attribute.
func TestThePagesHaveNoInlineScript(t *testing.T) {
	script := regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`)
	handler := regexp.MustCompile(`(?i)\son[a-z]+\s*=|javascript:`)
	for _, page := range []string{"index.html", "table.html", "phone.html"} {
		b, err := staticFile(page)
		require.NoError(t, err)
		for _, m := range script.FindAllStringSubmatch(string(b), -1) {
			assert.Contains(t, m[1], "src=", "%s: an inline script would be refused: %s", page, m[0])
			assert.Empty(t, strings.TrimSpace(m[2]), page)
		}
		assert.NotRegexp(t, handler, string(b), page)
		assert.NotContains(t, strings.ToLower(string(b)), "<style", "%s: styles come from app.css", page)
	}
}
