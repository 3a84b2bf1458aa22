package capture

import (
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func TestJudgeActsByStatusAndNamesOneTask(t *testing.T) {
	en := func(id string, st mdstore.Status, task string) mdstore.Entry {
		return mdstore.Entry{ID: id, Status: st, Task: task}
	}
	tests := []struct {
		name    string
		entries []mdstore.Entry
		archive []string
		pending []string
		gone    []string
		add     string
	}{
		{"active of one task", []mdstore.Entry{en("p-1", mdstore.Active, "fn-2.1"), en("p-2", mdstore.Active, "fn-2.1")},
			[]string{"p-1", "p-2"}, nil, nil, "flowmem memory add --type pitfall --task fn-2.1 --category <framework|convention|api|build|edge-case|security|general> [--replaces ID] \"<lesson>\""},
		{"pending and archived of two tasks", []mdstore.Entry{en("p-1", mdstore.Pending, "fn-2.1"), en("p-2", mdstore.Archived, "fn-3.1")},
			nil, []string{"p-1"}, []string{"p-2"}, "flowmem memory add --type pitfall --category <framework|convention|api|build|edge-case|security|general> [--replaces ID] \"<lesson>\""},
		{"a task id no shell word", []mdstore.Entry{en("p-1", mdstore.Active, "fn 2; rm -rf")},
			[]string{"p-1"}, nil, nil, "flowmem memory add --type pitfall --category <framework|convention|api|build|edge-case|security|general> [--replaces ID] \"<lesson>\""},
		{"manual", []mdstore.Entry{en("p-1", mdstore.Active, "manual")},
			[]string{"p-1"}, nil, nil, "flowmem memory add --type pitfall --category <framework|convention|api|build|edge-case|security|general> [--replaces ID] \"<lesson>\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Judge(tt.entries)
			if !slices.Equal(a.Active, tt.archive) || !slices.Equal(a.Pending, tt.pending) || !slices.Equal(a.Gone, tt.gone) {
				t.Errorf("active %v pending %v archived %v, want %v %v %v", a.Active, a.Pending, a.Gone, tt.archive, tt.pending, tt.gone)
			}
			if (a.Archive != "") != (len(tt.archive) > 0) || (a.Approve != "" || a.Reject != "") != (len(tt.pending) > 0) || (a.Restore != "") != (len(tt.gone) > 0) {
				t.Errorf("commands %+v do not match the entries' statuses", a)
			}
			if !strings.HasPrefix(a.Add, tt.add) || !strings.HasSuffix(a.Add, `--fix "<what to do instead>"`) {
				t.Errorf("add = %q, want it to start %q", a.Add, tt.add)
			}
		})
	}
}
