package sandbox

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

type rateKey struct {
	key   string
	group int
}

type rateWindow struct {
	start time.Time // start of the fixed one-minute window
	count int
}

// rateLimit counts the request in the key's window of its level, sets the
// X-RateLimit-* headers and answers 429 when the window is used up.
func (s *Server) rateLimit(w http.ResponseWriter, a *account, group int) bool {
	s.mu.Lock()
	limit := s.cfg.RateLimits.ReadPerMinute
	if group == groupWrite {
		limit = s.cfg.RateLimits.WritePerMinute
	}
	if limit < 0 {
		s.mu.Unlock()
		return true
	}
	now := s.now().UTC()
	start := now.Truncate(time.Minute)
	k := rateKey{a.key, group}
	win := s.windows[k]
	if win == nil || !win.start.Equal(start) {
		win = &rateWindow{start: start}
		s.windows[k] = win
	}
	win.count++
	count := win.count
	s.mu.Unlock()

	end := start.Add(time.Minute)
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, limit-count)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(end.Unix(), 10))
	if count <= limit {
		return true
	}
	wait := int(math.Ceil(end.Sub(now).Seconds()))
	h.Set("Retry-After", strconv.Itoa(max(1, wait)))
	writePlain(w, http.StatusTooManyRequests,
		"rate limit exceeded: "+strconv.Itoa(limit)+" requests per minute for this endpoint group; retry after "+strconv.Itoa(max(1, wait))+" s",
		"RATE_LIMITED")
	return false
}
