package app

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func testIO(dir string) (IO, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" },
		Getwd: func() (string, error) { return dir, nil }}, &out, &errb
}

// TestEveryCommandHasHelpWithExample walks the whole command tree: each
// command answers --help with exit 0 and shows at least one example.
func TestEveryCommandHasHelpWithExample(t *testing.T) {
	t.Parallel()
	var notFound usageError
	root := newApp(IO{}, &notFound)
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string{}, path...), c.Name)
			t.Run(strings.Join(p, " "), func(t *testing.T) {
				std, out, _ := testIO(t.TempDir())
				args := append(append([]string{"flowmem"}, p...), "--help")
				if code := Main(context.Background(), args, std); code != 0 {
					t.Fatalf("exit %d", code)
				}
				if !strings.Contains(out.String(), "Example") {
					t.Errorf("help of %q has no example:\n%s", strings.Join(p, " "), out)
				}
			})
			walk(p, c.Subcommands)
		}
	}
	walk(nil, root.Commands)
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"--help"}, 0},
		{[]string{"--version"}, 0},
		{[]string{"nope"}, exitUsage},
		{[]string{"memory", "add", "--bogus"}, exitUsage},
		{[]string{"config", "get"}, exitUsage},
		{[]string{"memory", "list"}, exitError}, // no project here
	}
	for _, tt := range tests {
		std, _, errb := testIO(t.TempDir())
		if got := Main(context.Background(), append([]string{"flowmem"}, tt.args...), std); got != tt.want {
			t.Errorf("flowmem %v = %d, want %d (stderr %q)", tt.args, got, tt.want, errb)
		}
	}
}

func TestPermute(t *testing.T) {
	t.Parallel()
	var nf usageError
	cmds := newApp(IO{}, &nf).Commands
	tests := []struct{ in, want string }{
		{"flowmem memory add --type pitfall text --fix f", "flowmem memory add --type pitfall --fix f -- text"},
		{"flowmem memory add text", "flowmem memory add text"},
		{"flowmem memory add -- -dash --type x", "flowmem memory add -- -dash --type x"},
		{"flowmem memory read --json", "flowmem memory read --json"},
		{"flowmem memory search pat --json", "flowmem memory search --json -- pat"},
		{"flowmem config set k v", "flowmem config set k v"},
		{"flowmem unknown a --b", "flowmem unknown a --b"},
		{"flowmem memory read -r a --relevant b -r=c --json", "flowmem memory read --relevant a --relevant b --relevant=c --json"},
		{"flowmem memory read -t pitfall", "flowmem memory read -t pitfall"},
		// A negative number is a value, not a flag.
		{"flowmem config set recall.limit -5", "flowmem config set -- recall.limit -5"},
		{"flowmem memory read -n -1 --json", "flowmem memory read -n -1 --json"},
		{"flowmem memory search -5", "flowmem memory search -- -5"},
		// The same value twice says one thing; a switch twice too.
		{"flowmem memory read -t pitfall --type pitfall --json --json", "flowmem memory read -t pitfall --type pitfall --json --json"},
	}
	for _, tt := range tests {
		args, err := permute(cmds, strings.Fields(tt.in))
		got := strings.Join(args, " ")
		if err != nil || got != tt.want {
			t.Errorf("permute(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestPanicIsExitOne: a panic anywhere in a command is exit 1 with one line
// on stderr, never the runtime's exit 2 and stack trace.
func TestPanicIsExitOne(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"memory", "list"}, {"config", "set", "memory.enabled", "true"}, {"doctor"}} {
		std, _, errb := testIO(t.TempDir())
		std.Getwd = func() (string, error) { panic("boom\nsecond line") }
		code := Main(context.Background(), append([]string{"flowmem"}, args...), std)
		if code != exitError {
			t.Errorf("flowmem %v = %d after a panic, want %d", args, code, exitError)
		}
		if got := errb.String(); got != "flowmem: internal error: boom second line (please report it)\n" {
			t.Errorf("flowmem %v stderr = %q", args, got)
		}
	}
}

// TestAddSaysWhenTextIsCut: memory add keeps a field's first MaxField bytes;
// the user is told, not left to find the rest missing later.
func TestAddSaysWhenTextIsCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	std, _, errb := testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "init", "--enable"}, std); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errb)
	}
	long := strings.Repeat("a lesson word ", 400) // 5,600 bytes
	std, _, errb = testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "memory", "add", "--type", "pitfall", long, "--fix", "short fix"}, std); code != 0 {
		t.Fatalf("add: exit %d: %s", code, errb)
	}
	if !strings.Contains(errb.String(), "TEXT is 5599 bytes; memory keeps the first 2000") || strings.Contains(errb.String(), "--fix is") {
		t.Errorf("stderr %q does not say (only) that TEXT was cut", errb)
	}
}

// TestAddSaysWhenARepeatKeepsOtherWords: a lesson memory already holds in
// other words (the same content words, or another fix) counts as a
// sighting of that entry, which keeps its own words: the person is told,
// since theirs are written nowhere. The very same lesson again, markdown
// and spacing included, gets no note.
func TestAddSaysWhenARepeatKeepsOtherWords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	add := func(args ...string) string {
		t.Helper()
		std, _, errb := testIO(dir)
		if code := Main(context.Background(), append([]string{"flowmem", "memory", "add", "--type", "pitfall"}, args...), std); code != 0 {
			t.Fatalf("add %q: exit %d: %s", args, code, errb)
		}
		return errb.String()
	}
	std, _, errb := testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "init", "--enable"}, std); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errb)
	}
	first := add("Tar archives from `go generate` **differ**  per run", "--fix", "set SOURCE_DATE_EPOCH")
	id := strings.Fields(strings.TrimPrefix(first, "added pitfall "))[0]
	note := "note: it keeps its own words, not these: flowmem memory show " + id
	for _, tt := range []struct {
		args []string
		note bool
	}{
		{[]string{"Tar archives from `go generate` **differ**  per run", "--fix", "set SOURCE_DATE_EPOCH"}, false},
		{[]string{"Tar archives from `go generate` **differ**  per run"}, false},
		{[]string{"Tar archives from `go generate` **differ**  per run", "--fix", "pin the mtime"}, true},
		{[]string{"per run, go generate tar archives differ", "--fix", "set SOURCE_DATE_EPOCH"}, true},
	} {
		got := add(tt.args...)
		if !strings.Contains(got, "already in .flow/memory/pitfalls.md as "+id) || strings.Contains(got, note) != tt.note {
			t.Errorf("add %q: stderr %q; want a sighting of %s, note %v", tt.args, got, id, tt.note)
		}
	}
}
