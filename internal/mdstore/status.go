package mdstore

import "time"

// Live reports whether an entry may reach a prompt: active, neither
// archived nor waiting for approval.
func (e *Entry) Live() bool { return e.Status == Active }

// Stale reports whether e has not been seen for more than days days at
// now: its last sighting, else its first date. Staleness is read, never
// written: a stale lesson seen again is fresh again. days <= 0, or an entry
// without a date, is never stale.
func (e *Entry) Stale(now time.Time, days int) bool {
	d := e.LastSeen
	if d == "" {
		d = e.Date
	}
	if days <= 0 || !validDate(d) {
		return false
	}
	t, err := time.Parse("2006-01-02", d)
	if err != nil {
		return false
	}
	return now.Sub(t) > time.Duration(days)*24*time.Hour
}
