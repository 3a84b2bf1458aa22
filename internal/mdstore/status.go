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

// staleDay is Stale of the day d.
func staleDay[T ~string | ~[]byte](d T, now time.Time, days int) bool {
	if days <= 0 || !validDate(d) {
		return false
	}
	// Read by hand: list and read ask this of every entry, and time.Parse
	// cost more than the rest of reading one.
	num := func(s T) int {
		n := 0
		for i := 0; i < len(s); i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	y, m, dd := num(d[:4]), num(d[5:7]), num(d[8:])
	if m < 1 || m > 12 || dd < 1 || dd > daysIn(y, m) {
		return false // not a day of the calendar
	}
	// Midnight UTC of the day as a count of days (time.Date's
	// normalisation cost more than the rest of counting an entry).
	// Whole days and seconds, not a time.Duration: a budget over 292
	// years (a user's "never") would overflow one and make every entry
	// stale.
	secs := now.Unix() - civilDays(y, m, dd)*86400
	if secs < 0 {
		return false
	}
	full, rest := secs/86400, secs%86400
	return full > int64(days) || full == int64(days) && (rest > 0 || now.Nanosecond() > 0)
}

// daysIn is the number of days of month m of year y (proleptic
// Gregorian, as package time counts).
func daysIn(y, m int) int {
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

// civilDays is the number of days from 1970-01-01 to y-m-d (m 1 to 12),
// H. Hinnant's days_from_civil.
func civilDays(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
