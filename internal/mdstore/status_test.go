package mdstore

import (
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"
)

func TestStale(t *testing.T) {
	now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		date, last string
		days       int
		want       bool
	}{
		{"2026-01-01", "2026-01-01", 120, true},
		{"2026-01-01", "2026-05-01", 120, false}, // seen again: fresh again
		{"2026-02-01", "", 120, true},            // no sighting: the first date counts
		{"2026-02-02", "2026-02-02", 120, false}, // 119 days and 9 hours
		{"2026-01-01", "2026-01-01", 0, false},
		{"", "", 120, false},
		{"2026-13-45", "", 120, false},
		{"2020-01-01", "2020-01-01", 999999, false}, // "never": no overflow to stale
	}
	for _, tt := range tests {
		e := Entry{Date: tt.date, LastSeen: tt.last}
		if got := e.Stale(now, tt.days); got != tt.want {
			t.Errorf("Stale(%s, %s, %d) = %v, want %v", tt.date, tt.last, tt.days, got, tt.want)
		}
	}
}

// TestStaleDayIsTimeDate: the day arithmetic agrees with package time on
// every day (and non-day) of years at the edges and around now, for
// budgets small and overflowing.
func TestStaleDayIsTimeDate(t *testing.T) {
	t.Parallel()
	// dayOf is the day d names as package time reads it; ok is false for
	// what is no day. Read once per date, not once per date, now and budget.
	dayOf := func(d string) (day time.Time, ok bool) {
		if !validDate(d) {
			return day, false
		}
		var y, m, dd int
		fmt.Sscanf(d, "%4d-%2d-%2d", &y, &m, &dd)
		day = time.Date(y, time.Month(m), dd, 0, 0, 0, 0, time.UTC)
		return day, day.Month() == time.Month(m) && day.Day() == dd
	}
	ref := func(day time.Time, ok bool, now time.Time, days int) bool {
		if days <= 0 || !ok {
			return false
		}
		// In nanoseconds as big numbers: no budget or span overflows.
		age := new(big.Int).Mul(big.NewInt(now.Unix()-day.Unix()), big.NewInt(1e9))
		age.Add(age, big.NewInt(int64(now.Nanosecond())))
		budget := new(big.Int).Mul(big.NewInt(int64(days)), big.NewInt(86400e9))
		return age.Cmp(budget) > 0
	}
	nows := []time.Time{time.Date(2026, 11, 27, 13, 5, 0, 0, time.UTC), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 27, 0, 0, 0, 1, time.UTC)}
	budgets := []int{-1, 0, 1, 29, 30, 31, 365, 106751, 106752, 999999, 1 << 20, 1 << 40, math.MaxInt}
	for _, y := range []int{0, 1, 4, 100, 400, 1600, 1900, 1969, 1970, 2000, 2023, 2024, 2025, 2026, 2100, 9999} {
		for m := 0; m <= 13; m++ {
			for dd := 0; dd <= 32; dd++ {
				d := fmt.Sprintf("%04d-%02d-%02d", y, m, dd)
				day, ok := dayOf(d)
				for _, now := range nows {
					for _, days := range budgets {
						if got, want := staleDay(d, now, days), ref(day, ok, now, days); got != want {
							t.Fatalf("staleDay(%s, %v, %d) = %v, time.Date says %v", d, now, days, got, want)
						}
					}
				}
			}
		}
	}
}

// TestEpochDay checks staleDay's day count against package time for
// every day of the years a date field can hold (TestStaleDayIsTimeDate
// covers the days that are not in the calendar).
func TestEpochDay(t *testing.T) {
	t.Parallel()
	for day := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() < 10000; day = day.AddDate(0, 0, 1) {
		y, m, d := day.Date()
		if got, want := epochDay(y, int(m), d), day.Unix()/86400; got != want {
			t.Fatalf("%s: epochDay %d, want %d", day.Format(time.DateOnly), got, want)
		}
	}
}
