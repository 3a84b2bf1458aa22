package review

import (
	"strings"
	"testing"
)

// A table whose first column holds finding ids in every row is a table of
// findings whatever language its headers are written in; its longest
// column is the problem. A later list whose items name those ids is their
// fixes.
func TestIDTableAndIDPlan(t *testing.T) {
	review := "## Befunde\n\n### High\n\n" +
		"| ID | Modul | Befund |\n|----|----|----|\n" +
		"| H1 | `sync/push.go` | `Push` wiederholt fehlgeschlagene Uploads sofort und endlos, ein Ausfall flutet die API. |\n" +
		"| H2 | `auth/session.go` | `Store` setzt kein Ablaufdatum, abgemeldete Tokens bleiben dauerhaft gültig. |\n\n" +
		"## Reihenfolge\n\n" +
		"1. **Sofort**: Wiederholungen auf fünf begrenzen, mit Backoff (**H1**).\n" +
		"2. **Bald**: beim Abmelden den Eintrag löschen (**H2**).\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Problem, "endlos") || !strings.Contains(fs[1].Problem, "Ablaufdatum") {
		t.Errorf("problems = %q, %q, want the long column", fs[0].Problem, fs[1].Problem)
	}
	if !strings.Contains(fs[0].Fix, "Backoff") || strings.Contains(fs[0].Fix, "Abmelden") {
		t.Errorf("first fix = %q, want the H1 item only", fs[0].Fix)
	}
	if !strings.Contains(fs[1].Fix, "Abmelden") {
		t.Errorf("second fix = %q, want the H2 item", fs[1].Fix)
	}
}

// A table of short cells with ids is an index, not findings.
func TestShortIDTableIsNoFindings(t *testing.T) {
	review := "## Übersicht\n\n| ID | Modul | Stand |\n|----|----|----|\n| H1 | sync | offen |\n| H2 | auth | offen |\n"
	if fs := Extract(review); len(fs) != 0 {
		t.Errorf("got %d findings, want 0: %+v", len(fs), fs)
	}
}
