package webremote

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/rivo/uniseg"
)

// apiError is a refusal with its HTTP status: {"error": msg}.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func fail(status int, msg string) *apiError { return &apiError{status, msg} }

// errorHandler answers every error, Fiber's own included (413 from the body
// limit, 404 for unknown paths, 405), as {"error": "one line"}.
func errorHandler(c *fiber.Ctx, err error) error {
	status, msg := fiber.StatusInternalServerError, "internal error"
	var ae *apiError
	var fe *fiber.Error
	switch {
	case errors.As(err, &ae):
		status, msg = ae.status, ae.msg
	case errors.As(err, &fe):
		status, msg = fe.Code, fe.Message
		switch fe.Code {
		case fiber.StatusRequestEntityTooLarge:
			msg = "the request body is over 16 KiB"
		case fiber.StatusNotFound:
			msg = "not found: " + excerpt(c.Path())
		}
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).JSON(fiber.Map{"error": oneLine(msg)})
}

// oneLine keeps a message on a single line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// maxExcerpt is the most letters of its input an error quotes.
const maxExcerpt = 40

// excerpt is what an error quotes of an input: on one line, its first
// maxExcerpt letters (grapheme clusters, never cut inside one), and "…"
// when there were more.
func excerpt(s string) string {
	s = oneLine(s)
	n := 0
	for g := uniseg.NewGraphemes(s); g.Next(); n++ {
		if n == maxExcerpt {
			from, _ := g.Positions()
			return s[:from] + "…"
		}
	}
	return s
}

// newToken is 192 random bits, base64url.
func newToken() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// hashToken is what the server keeps of a token (in memory and on disk):
// its SHA-256, hex. A token is checked by hashing it.
func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// bearer is the token of a request: Authorization: Bearer TOKEN.
func bearer(c *fiber.Ctx) string {
	h := c.Get(fiber.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// errStopping is the answer while the server stops (Shutdown).
func errStopping() *apiError {
	return fail(fiber.StatusServiceUnavailable, "the server is stopping: try again once it is back")
}
