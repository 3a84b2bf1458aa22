package mdstore

import (
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
	}
	for _, tt := range tests {
		e := Entry{Date: tt.date, LastSeen: tt.last}
		if got := e.Stale(now, tt.days); got != tt.want {
			t.Errorf("Stale(%s, %s, %d) = %v, want %v", tt.date, tt.last, tt.days, got, tt.want)
		}
	}
}
