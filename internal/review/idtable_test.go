package review

import (
	"strings"
	"testing"
)

// A later list whose items name findings by their ids is their fixes,
// whatever language its heading is written in.
func TestIDPlan(t *testing.T) {
	review := "## Befunde\n\n" +
		"### H1. `Push` wiederholt fehlgeschlagene Uploads sofort und endlos\n\nEin Ausfall flutet die API.\n\n" +
		"### H2. `Store` setzt kein Ablaufdatum\n\nAbgemeldete Tokens bleiben dauerhaft gültig.\n\n" +
		"## Reihenfolge\n\n" +
		"1. **Sofort**: Wiederholungen auf fünf begrenzen, mit Backoff (**H1**).\n" +
		"2. **Bald**: beim Abmelden den Eintrag löschen (**H2**).\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "Backoff") || strings.Contains(fs[0].Fix, "Abmelden") {
		t.Errorf("first fix = %q, want the H1 item only", fs[0].Fix)
	}
	if !strings.Contains(fs[1].Fix, "Abmelden") {
		t.Errorf("second fix = %q, want the H2 item", fs[1].Fix)
	}
}
