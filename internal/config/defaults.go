package config

// Key is one known setting with its default and a line of help.
type Key struct {
	Name    string
	Default any
	Help    string
}

// Known lists every setting flowmem reads, with its default. A missing
// config file, or a key absent from it, means these values.
var Known = []Key{
	{"memory.enabled", false, "one switch for reading and writing memory"},
	{"capture.review_patterns", []any{
		`\bchat-send\b`,
		`\b(impl|plan|completion)-review\b`,
		`\b(codex|copilot|cursor|gemini|rp)\b.*\breview\b`,
		`^\s*(?:\S*/)?[\w.-]*review[\w.-]*(?:\s|$)`,
	}, "regular expressions: a Bash command matching one is a review run (its output must still carry a verdict)"},
	{"capture.agent_types", []any{"*review*", "*quality-auditor*"}, "subagent types whose results are reviews: case-insensitive globs (reviewer, code-reviewer, flow-next:impl-review, quality-auditor …)"},
	{"capture.min_severity", "major", "lowest finding severity kept: critical, major, minor or nit"},
	{"recall.limit", int64(10), "entries returned by memory read --relevant"},
	{"recall.max_chars", int64(4000), "character budget of memory read --relevant and prime"},
}

func known(name string) (Key, bool) {
	for _, k := range Known {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}
