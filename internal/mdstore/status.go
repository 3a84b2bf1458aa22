package mdstore

import (
	"cmp"
	"time"
)

// Live reports whether an entry may reach a prompt: active, neither
// archived nor waiting for approval.
func (e *Entry) Live() bool { return e.Status == Active }

// Stale reports whether e has not been seen for more than days days at
// now: its last sighting, else its first date. Staleness is read, never
// written: a stale lesson seen again is fresh again. days <= 0, or an entry
// without a date, is never stale.
func (e *Entry) Stale(now time.Time, days int) bool {
	return staleDay(cmp.Or(e.LastSeen, e.Date), now, days)
}

// Stale is Entry.Stale of the entry v views (its LastSeen is the entry's
// last sighting).
func (v *View) Stale(now time.Time, days int) bool {
	return staleDay(v.LastSeen, now, days)
}

// staleDay is Stale of the day d.
func staleDay[T ~string | ~[]byte](d T, now time.Time, days int) bool {
	if days <= 0 || !validDate(d) {
		return false
	}
	// Read by hand: list and read ask this of every entry, and time.Parse
	// costs more than the rest of reading one.
	num := func(s T) int {
		n := 0
		for i := 0; i < len(s); i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	y, m, dd := num(d[:4]), num(d[5:7]), num(d[8:])
	day := time.Date(y, time.Month(m), dd, 0, 0, 0, 0, time.UTC)
	if _, dm, ddd := day.Date(); int(dm) != m || ddd != dd {
		return false // not a day of the calendar
	}
	// Whole days and seconds, not a time.Duration: a budget over 292
	// years (a user's "never") would overflow one and make every entry
	// stale.
	secs := now.Unix() - day.Unix()
	if secs < 0 {
		return false
	}
	full, rest := secs/86400, secs%86400
	return full > int64(days) || full == int64(days) && (rest > 0 || now.Nanosecond() > 0)
}
