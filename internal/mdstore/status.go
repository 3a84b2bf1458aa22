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
	// Read by hand: list and read ask this of every entry, and time.Parse
	// cost more than the rest of reading one.
	num := func(s string) int {
		n := 0
		for _, c := range []byte(s) {
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, m, dd := num(d[:4]), time.Month(num(d[5:7])), num(d[8:])
	t := time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)
	if t.Month() != m || t.Day() != dd {
		return false // not a day of the calendar
	}
	return now.Sub(t) > time.Duration(days)*24*time.Hour
}
