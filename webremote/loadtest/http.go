package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// api calls the HTTP half of the API.
type api struct {
	base string // http://host:port, no trailing slash
	hc   *http.Client
}

func newAPI(base string) *api {
	tr := &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     30 * time.Second,
	}
	return &api{base: strings.TrimRight(base, "/"), hc: &http.Client{Transport: tr, Timeout: 15 * time.Second}}
}

// statusError is an answer other than the one expected.
type statusError struct {
	Status int
	Msg    string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%d %s", e.Status, e.Msg)
}

// call sends one request and decodes a 2xx answer into out. With retry,
// a 429 (the server's rate limit: 20 requests a second per token or
// address) is retried after a pause; the set-up calls of 200 phones from
// one address need that against a server that limits by address.
func (a *api) call(ctx context.Context, method, path, token string, body, out any, retry bool) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, a.base+path, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := a.hc.Do(req)
		if err != nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return fmt.Errorf("%s %s%s: %w", method, a.base, path, err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && retry && attempt < 40 {
			if err := sleep(ctx, backoff(resp.Header.Get("Retry-After"), attempt)); err != nil {
				return err
			}
			continue
		}
		if resp.StatusCode/100 != 2 {
			var e struct {
				Error string `json:"error"`
			}
			msg := strings.TrimSpace(string(data))
			if json.Unmarshal(data, &e) == nil && e.Error != "" {
				msg = e.Error
			}
			return &statusError{Status: resp.StatusCode, Msg: msg}
		}
		if out != nil {
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("%s %s: the answer is not the JSON expected: %v", method, path, err)
			}
		}
		return nil
	}
}

// backoff is the pause before retrying a 429: the server's Retry-After
// when it gives one, else a growing pause with jitter.
func backoff(retryAfter string, attempt int) time.Duration {
	if s, err := strconv.Atoi(retryAfter); err == nil && s > 0 && s < 10 {
		return time.Duration(s)*time.Second + time.Duration(rand.Int64N(int64(200*time.Millisecond)))
	}
	d := time.Duration(100+50*min(attempt, 10)) * time.Millisecond
	return d + time.Duration(rand.Int64N(int64(d)))
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
