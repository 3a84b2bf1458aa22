package curate

import (
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Close names only active entries of the lesson's type, not the other
// lessons asked about, and none below the floor.
func TestClose(t *testing.T) {
	mk := func(id string, k mdstore.Kind, st mdstore.Status, issue string) mdstore.Entry {
		e := mdstore.Entry{ID: id, Kind: k, Status: st, Issue: issue, Seen: 2}
		e.Normalize()
		return e
	}
	docker := "docker exec --user agent keeps the root HOME so tools write config into root"
	entries := []mdstore.Entry{
		mk("p-new", mdstore.Pitfall, mdstore.Active, "podman exec --user agent keeps the root HOME so tools write config under root"),
		mk("p-old", mdstore.Pitfall, mdstore.Active, docker),
		mk("p-gone", mdstore.Pitfall, mdstore.Archived, docker),
		mk("p-wait", mdstore.Pitfall, mdstore.Pending, docker),
		mk("d-other", mdstore.Decision, mdstore.Active, docker),
		mk("p-new2", mdstore.Pitfall, mdstore.Active, docker+" again"),
		mk("p-far", mdstore.Pitfall, mdstore.Active, "A timestamp parsed without a zone is read as UTC"),
	}
	got := Close(entries, []string{"p-new", "p-new2", "p-far", "p-none"}, 2, CloseFloor)
	if len(got) != 4 {
		t.Fatalf("got %d lists, want 4", len(got))
	}
	if len(got[0]) != 1 || got[0][0].ID != "p-old" || got[0][0].Seen != 2 || got[0][0].Score < CloseFloor {
		t.Errorf("p-new: got %+v, want p-old alone (not the archived, pending, other-type or asked-about entries)", got[0])
	}
	if len(got[1]) != 1 || got[1][0].ID != "p-old" {
		t.Errorf("p-new2: got %+v, want p-old alone", got[1])
	}
	if len(got[2]) != 0 || len(got[3]) != 0 {
		t.Errorf("p-far, p-none: got %+v, %+v, want nothing", got[2], got[3])
	}
}
