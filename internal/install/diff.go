package install

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// Diff returns a unified diff (3 lines of context) from before to after,
// labelled with path; nil before means a new file, nil after a removal.
func Diff(path string, before, after []byte) string {
	from, to := path, path
	if !filepath.IsAbs(path) && !strings.HasPrefix(path, "~") {
		from, to = "a/"+path, "b/"+path
	}
	if before == nil {
		from = "/dev/null"
	}
	if after == nil {
		to = "/dev/null"
	}
	// What follows the "diff FROM TO" line is a unified diff.
	_, out, _ := bytes.Cut(diff.Diff(from, before, to, after), []byte("\n"))
	return string(out)
}
