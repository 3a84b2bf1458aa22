package review

import (
	"strings"
	"testing"
)

// A pull request's review comments copied from the forge's web page: no
// markdown, one comment per "Comment on lines" marker, the file above it,
// the hunk and the bot's name and time before the comment.
func TestThreadComments(t *testing.T) {
	page := "Adds a cache in front of the store.\n\n" +
		"Reviewed changes\nBot reviewed 3 out of 3 changed files in this pull request and generated 2 comments.\n\n" +
		"src/cache/lru.go\nComment on lines +40 to +44\n" +
		"func (c *LRU) Get(k string) (V, bool) {\n\tc.items[k].hits++\n@review-bot\nreview-bot bot\n3 minutes ago\nhigh\n\n" +
		"Get writes the hit counter under the read lock, so two readers race on `hits`. Use the write lock in Get, or count hits with an atomic.\n\n" +
		"@author\tReply...\n" +
		"src/cache/store.go\nComment on line +12\n\tdefer f.Close()\n" +
		"Bot commented 1 minute ago\n\n" +
		"Close errors of the written file are dropped, so a full disk loses data silently. Check the error of `Close` after writing.\n\n" +
		"Bot uses AI. Check for mistakes.\n" +
		"docs/notes.md\nComment on lines +1 to +2\n# Notes\n"
	fs := threadComments(page)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if fs[0].Location != "src/cache/lru.go:40" || fs[0].Severity != SevMajor || fs[0].Problem == "" || fs[0].Fix == "" {
		t.Errorf("first comment: %+v", fs[0])
	}
	if fs[1].Location != "src/cache/store.go:12" || fs[1].Severity != "" || !strings.Contains(fs[1].Fix, "Check the error of `Close`") || fs[1].Problem == "" {
		t.Errorf("second comment: %+v", fs[1])
	}
	a := Analyze(page)
	if a.Verdict != NeedsWork || len(a.Kept()) != 2 {
		t.Errorf("verdict %q, kept %d, want NEEDS_WORK (inferred from the high one) with both kept", a.Verdict, len(a.Kept()))
	}
	if fs := threadComments("## Findings\n\n1. `Get` races on `hits`.\n"); fs != nil {
		t.Errorf("markdown review read as a comment page: %+v", fs)
	}
}

// A review whose findings sit in a fenced markdown document (a reviewer
// that could not write its report file prints it instead) is read from
// the fence; a fence beside findings read outside it is quoted text.
func TestMarkdownFence(t *testing.T) {
	review := "I could not write the report file; the Markdown document follows.\n\n" +
		"```markdown\n# Review\n\n## Findings\n\n1. High: `Get` races on `hits`; use the write lock in `Get`.\n```\n"
	fs := Extract(review)
	if len(fs) != 1 || fs[0].Severity != SevMajor || !strings.Contains(fs[0].Fix, "write lock") {
		t.Fatalf("fenced review: %+v", fs)
	}
	outside := "## Findings\n\n1. High: `Close` is never called on `rows`; use `defer rows.Close()`.\n\n" +
		"```md\n## Findings\n\n1. High: `x` is wrong; use `y`.\n```\n"
	if fs := Extract(outside); len(fs) != 1 || !strings.Contains(fs[0].Problem, "Close") {
		t.Errorf("fence beside a finding: %+v", fs)
	}
}

// Two markers in a row (the second's file line not copied, or a marker
// over a hunk with no comment) leave the first an empty block: it was
// sliced [m+1:m] and the capture panicked, losing the review's lessons.
func TestThreadCommentsAdjacentMarkers(t *testing.T) {
	page := "a.go\nComment on line +1\nComment on line +2\n3 minutes ago\n\nUse a mutex around the map writes.\n"
	fs := threadComments(page)
	if len(fs) != 1 || !strings.Contains(fs[0].Problem+fs[0].Fix, "mutex") {
		t.Fatalf("adjacent markers: %+v", fs)
	}
}

// A markdown fence is read once: fences nested inside it are quoted text,
// not another document to re-parse (hundreds deep re-parsed the review
// hundreds of times).
func TestMarkdownFenceOneLevel(t *testing.T) {
	review := "The report follows.\n\n````markdown\n# Review\n\n```md\n## Findings\n\n1. High: `Get` races on `hits`; use the write lock in `Get`.\n```\n````\n"
	if fs := Extract(review); len(fs) != 0 {
		t.Errorf("a fence within the fenced document was read as the review: %+v", fs)
	}
}

// A review that quotes a markdown file (an agent's rules, in a ```md
// fence) and holds its findings in a list of required changes outside it
// is read from that list: the fence is quoted text, not the review.
func TestMarkdownFenceQuotedFile(t *testing.T) {
	review := "# Review\n\n## Agents\n\nThe critic's limits are written down:\n\n`agents/critic.md:12`\n" +
		"```md\n- **Never runs on its own.**\n- **Only when the user asks.**\n```\n\n" +
		"Nothing in the scripts enforces them.\n\n" +
		"## Recommendations\n\n1. Enforce the critic's limits in the run script, not only in its markdown file.\n" +
		"2. Move the shared retry limits into one policy file that every skill reads.\n"
	fs := Extract(review)
	if len(fs) != 2 || !strings.Contains(fs[0].Problem+fs[0].Fix, "run script") {
		t.Fatalf("review quoting a markdown file: %+v", fs)
	}
}

// A line number is ASCII digits as the forge prints them: a digit of
// another script before it (a Devanagari ३ in a file name) is not the
// start of one, and the ASCII number after it is still found.
func TestFirstNumberASCII(t *testing.T) {
	for in, want := range map[string]string{
		" on lines +8 to +12": "8",
		"src/पृष्ठ३.ts 41":    "41",
		"no number":           "",
	} {
		if got := firstNumber(in); got != want {
			t.Errorf("firstNumber(%q) = %q, want %q", in, got, want)
		}
	}
}
