package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestScriptPayloadsMatchFixtures: the testscripts (testdata/script/hook*.txtar)
// carry copies of the payload fixtures, because a script sees only its own
// archive. Every copy must be the fixture byte for byte (txtar adds a final
// newline where a file lacks one).
func TestScriptPayloadsMatchFixtures(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "hook*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no hook scripts: %v", err)
	}
	copies := 0
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			name, ok := strings.CutPrefix(f.Name, "payloads/")
			if !ok {
				continue
			}
			copies++
			want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", name))
			if err != nil {
				t.Errorf("%s: %s has no fixture: %v", filepath.Base(s), f.Name, err)
				continue
			}
			if !bytes.HasSuffix(want, []byte("\n")) {
				want = append(want, '\n')
			}
			if !bytes.Equal(f.Data, want) {
				t.Errorf("%s: %s differs from testdata/capture/payloads/%s", filepath.Base(s), f.Name, name)
			}
		}
	}
	if copies < 15 {
		t.Errorf("only %d payload copies in the scripts", copies)
	}
}
