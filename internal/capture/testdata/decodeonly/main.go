// Command decodeonly is the baseline for the hook benchmark (make bench):
// the least a Go hook can do — decode one JSON object from stdin, bounded
// like flowmem's hook, and exit. flowmem's hook on a non-review event
// should cost within 1.5x of this program.
//
//	go build -o decodeonly ./internal/capture/testdata/decodeonly
package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	var v map[string]json.RawMessage
	_ = json.NewDecoder(io.LimitReader(os.Stdin, 16<<20)).Decode(&v)
}
