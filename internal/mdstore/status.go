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
	if m < 1 || m > 12 || dd < 1 || dd > monthDays(y, m) {
		return false // not a day of the calendar
	}
	secs := now.Unix() - epochDay(y, m, dd)*86400
	if secs < 0 {
		return false
	}
	full, rest := secs/86400, secs%86400
	return full > int64(days) || full == int64(days) && (rest > 0 || now.Nanosecond() > 0)
}

// monthDays is the number of days of month m of year y.
func monthDays(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// epochDay is the number of days from 1970-01-01 to the day y-m-d of the
// proleptic Gregorian calendar (y from 0 to 9999), by whole-number
// arithmetic: read and list ask it of every entry, and building a
// time.Time for each was a tenth of reading 100,000 of them.
func epochDay(y, m, d int) int64 {
	if m <= 2 {
		y-- // a year counted from March puts the leap day last
	}
	era := (y + 400) / 400 // y may be -1 here
	era--
	yoe := y - era*400                     // [0, 399]
	doy := (153*((m+9)%12)+2)/5 + d - 1    // [0, 365], from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return int64(era*146097 + doe - 719468)
}
