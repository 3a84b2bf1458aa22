package config

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Key is one known setting and its default; README's configuration table
// says what each means.
type Key struct {
	Name    string
	Default any
	// Check, when set, rejects a value of the right type that flowmem
	// could not use: a setting that breaks capture or recall must be
	// refused when it is set, not found later in a hook's stderr.
	Check func(v any) error
}

// Known lists every setting flowmem reads, with its default. A missing
// config file, or a key absent from it, means these values.
var Known = []Key{
	{"memory.enabled", false, nil},
	{"capture.review_patterns", []any{
		`\bchat-send\b`,
		`\b(impl|plan|completion)-review\b`,
		`\b(codex|copilot|cursor|gemini|rp)\b.*\breview\b`,
		`^\s*(?:\S*/)?[\w.-]*review[\w.-]*(?:\s|$)`,
	}, checkEach("a regular expression", func(s string) error {
		_, err := regexp.Compile(s)
		return err
	})},
	{"capture.agent_types", []any{"*review*", "*quality-auditor*"}, checkEach("a glob", func(s string) error {
		_, err := path.Match(s, "")
		return err
	})},
	{"capture.min_severity", "minor", func(v any) error {
		if s, _ := v.(string); !slices.Contains(Severities, strings.ToLower(s)) {
			return fmt.Errorf("must be one of %s", strings.Join(Severities, ", "))
		}
		return nil
	}},
	{"capture.approval", false, nil},
	{"capture.nudge", true, nil},
	{"memory.stale_after_days", int64(120), atLeast(1)},
	{"recall.limit", int64(10), atLeast(1)},
	{"recall.max_chars", int64(4000), atLeast(1)},
}

// Severities are the values of capture.min_severity, most severe first.
var Severities = []string{"critical", "major", "minor", "nit"}

// checkEach checks every string of a list.
func checkEach(what string, check func(string) error) func(any) error {
	return func(v any) error {
		list, _ := v.([]any)
		for _, x := range list {
			s, _ := x.(string)
			if err := check(s); err != nil {
				return fmt.Errorf("%q is not %s: %w", s, what, err)
			}
		}
		return nil
	}
}

func atLeast(min int64) func(any) error {
	return func(v any) error {
		if n, ok := toInt(v); !ok || n < min {
			return fmt.Errorf("must be at least %d", min)
		}
		return nil
	}
}

// sections are the first segments of the known keys, in order ("memory",
// "capture", "recall"): flowmem's own parts of a file that flow-next
// shares.
var sections = func() []string {
	var out []string
	for _, k := range Known {
		if sec, _, _ := strings.Cut(k.Name, "."); !slices.Contains(out, sec) {
			out = append(out, sec)
		}
	}
	return out
}()

// keysUnder lists the known keys of a section.
func keysUnder(sec string) []string {
	var out []string
	for _, k := range Known {
		if strings.HasPrefix(k.Name, sec+".") {
			out = append(out, k.Name)
		}
	}
	return out
}

// Mistyped is the flowmem setting that key, which is none, is probably a
// typo of ("recal.limit"), or "". A key outside flowmem's sections may be
// another tool's, so config set stores it; this lets it say what it
// probably meant.
func Mistyped(key string) string {
	if _, ok := known(key); ok {
		return ""
	}
	return closest(key)
}

// closest is the known key most like name, for "did you mean".
func closest(name string) string {
	names := make([]string, len(Known))
	for i, k := range Known {
		names[i] = k.Name
	}
	return Nearest(name, names, 3)
}

// Nearest is the candidate most like name, within maxEdits edits, or "":
// the "did you mean" of a mistyped setting or command.
func Nearest(name string, candidates []string, maxEdits int) string {
	best, bestD := "", maxEdits+1
	for _, c := range candidates {
		if d := distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the edit distance of a and b (both short), two neighbouring
// letters swapped counting as one edit: the commonest slip ("raed").
func distance(a, b string) int {
	var prev2 []int
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev = prev, cur
	}
	return prev[len(b)]
}

var errSection = errors.New("is a section of settings, not a setting")

func known(name string) (Key, bool) {
	for _, k := range Known {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}
