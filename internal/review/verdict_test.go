package review

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Verdict
	}{
		{"a ticked option under a verdict title is the call", "## Decision\n[ ] **Ship** as it is\n[x] **Needs work**: see the two blockers\n", NeedsWork},
		{"an unticked option is no call", "## Outcome\n\n- [x] NEEDS WORK\n- [ ] APPROVE\n", NeedsWork},
		{"an approval that waits on a change asks for it", "Recommendation: merge once the retry test passes", NeedsWork},
		{"tag", "Looks off.\n<verdict>NEEDS_WORK</verdict>", NeedsWork},
		{"a title whose tail is more than a call is none", "# Notes — approve the budget before Friday\n", None},
		{"a heading that ends in a request", "# Pass 2 review — Changes requested\n\nThe retry loop still spins.\n", NeedsWork},
		{"a heading that ends in an approval", "## Second look: LGTM\n\nBoth fixes hold.\n", Ship},
		{"a shell comment in fenced code is no heading", "**REQUEST CHANGES**\n\n```sh\n# step 2 - ship\nmake check\n# lint: pass\n```\n", NeedsWork},
		{"a tilde fence hides its comments too", "**Changes requested**\n\n~~~\n# smoke run: LGTM\n~~~\n", NeedsWork},
		{"a heading after a closed fence still counts", "```\n# setup: done\n```\n\n# Round 3 review — Changes requested\n", NeedsWork},
		{"a keyed-only approval does not overturn a request", "**Status:** Changes requested\n\n- the cache key omits the tenant\n\n**Status:** Ready for the next pass\n", NeedsWork},
		{"a keyed-only request overturns an approval", "Status: approved\n\nround 2\n\nStatus: blocked\n", NeedsWork},
		{"a short approval line that asks for changes", "## Summary\n\nAPPROVED, REQUIRED EDITS BELOW\n\n- rename the flag\n", NeedsWork},
		{"a long line that opens with approve is prose", "Approve the token refresh only when the skew test passes and the cache key names the tenant.\n", None},
		{"an approval with required work is a request", "Recommendation: approve with required doc updates", NeedsWork},
		{"nothing required is no request", "Recommendation: approve, nothing required", Ship},
		{"a negated requirement before more words is no request", "Verdict: APPROVE, no further changes required for this merge", Ship},
		{"nothing required before more words is no request", "Recommendation: approve; nothing required before the release", Ship},
		{"verdict graded like a finding", "**Verdict:** Critical\n\n1. The lock is never released.\n", NeedsWork},
		{"a failing score is left unread", "Overall: 3/10", None},
		{"a distinctive call overturns an earlier one", "Status: Request changes\n\nround 2\n\nStatus: Approved\n", Ship},
		{"a keyed-only word alone decides", "Status: ready to merge\n", Ship},
		{"json boolean gate passes", `{"score": 80, "passesQualityGate": true, "issues": []}`, Ship},
		{"json boolean approved false", `{"approved": false, "issues": [{"file": "a.go"}]}`, NeedsWork},
		{"json boolean of another kind", `{"hasTests": false}`, None},
		{"numbered step's outcome is no call", "**Status**: Rejected\n\n## Next\n1. Fix the types\n2. **Result**: the suite goes green and the gate approves\n", NeedsWork},
		{"sign-off key", "### Critical (Blocks Sign-off)\nNone.\n\n**SIGN-OFF**: APPROVED\n", Ship},
		{"last tag wins", "<verdict>SHIP</verdict>\nround 2\n<verdict>NEEDS_WORK</verdict>", NeedsWork},
		{"last tag wins ship", "<verdict>NEEDS_WORK</verdict>\nfixed\n<verdict>SHIP</verdict>", Ship},
		{"tag lowercase", "<verdict>major_rethink</verdict>", MajorRethink},
		{"protocol echo is not a verdict", "end with <verdict>SHIP|NEEDS_WORK|MAJOR_RETHINK</verdict>\nVERDICT: SHIP", Ship},
		{"tag beats line", "VERDICT: SHIP\n<verdict>NEEDS_WORK</verdict>", NeedsWork},
		{"tag inline after text", "Classification counts: 1 introduced.\n<verdict>NEEDS_WORK</verdict>", NeedsWork},
		{"plain colon", "all good\n\nVERDICT: SHIP", Ship},
		{"equals", "VERDICT=NEEDS_WORK", NeedsWork},
		{"bold label colon inside", "**Verdict:** NEEDS_WORK", NeedsWork},
		{"bold label colon outside with reason", "**Verdict**: NEEDS_WORK - two blockers remain", NeedsWork},
		{"all bold", "**Verdict: NEEDS_WORK**", NeedsWork},
		{"list item code span", "- **Verdict:** `NEEDS_WORK`", NeedsWork},
		{"overall with period", "Overall verdict: NEEDS_WORK.", NeedsWork},
		{"final verdict", "Final verdict: MAJOR_RETHINK", MajorRethink},
		{"a test tally is no verdict", "Tests: 3 failed, 40 passed", None},
		{"verdict graded minor is no request", "**Verdict:** minor", None},
		{"sol prefix", "SOL_VERDICT: NEEDS_WORK", NeedsWork},
		{"heading inline", "# x2 — codex — verdict=NEEDS_WORK\n\nbody", NeedsWork},
		{"verdict heading then bold word", "## Verdict\n\n**NEEDS_WORK**\n\nBecause.", NeedsWork},
		{"verdict heading then word with reason", "### Verdict\n\nSHIP — nothing blocking", Ship},
		{"bold title line then word", "**Verdict**\n\nMAJOR_RETHINK", MajorRethink},
		{"spaced words", "Verdict: needs work", NeedsWork},
		{"quoted block", "> **Verdict:** SHIP", Ship},
		{"last line wins", "VERDICT: NEEDS_WORK\n...\nVERDICT: SHIP", Ship},
		{"sub-item correct then real", "- **Verdict**: CORRECT\n\n**Verdict:** NEEDS_WORK", NeedsWork},

		{"a top-level recommendation is a call", "## Issues\n\n- T-3: Cache never expires\n\nRecommendation: approve\n", Ship},
		{"a verdict every area carries is no call", "**Status**: Approved with notes\n\n## Caching\n- **Verdict**: Sound.\n\n## Logging\n- **Verdict**: High risk in the rotation path.\n", Ship},
		{"one recommendation item is the call", "## Summary\n\n- **Recommendation**: Approve.\n- Risk: low\n", Ship},
		{"approval with requested changes is a request", "**Decision**: ✅ Approve, with changes requested below", NeedsWork},
		{"approval title then conditional word", "## Recommendation\n\n**APPROVE ONCE THE FIXES REQUIRED BELOW LAND**\n", NeedsWork},
		{"verdict column header is no call", "| Item | Verdict | Notes |\n|---|---|---|\n| a | fine | x |\n", None},
		{"overall as a decision key", "Overall: Approve with nits", Ship},
		{"overall prose is no call", "Overall: the change reads well.", None},
		{"conditional approval", "## Verdict: Conditional Approval\n\nFix the two blockers first.", NeedsWork},
		{"conditional approve as the verdict", "Decision: conditionally approve — the two fixes below first.", NeedsWork},
		{"conditional approve after a key", "Verdict: conditional approve (two blockers)", NeedsWork},
		{"approve with required changes after a key", "Recommendation: approve, with required changes below", NeedsWork},
		{"approve with no required changes", "Recommendation: approve, no required changes", Ship},
		{"approve with suggestions stays an approval", "**Verdict: Approve with suggestions**", Ship},
		{"conditionally approved after a decision key", "**Merge decision**: conditionally approved, pending the migration fix", NeedsWork},
		{"approval with no changes needed", "Verdict: approve — no changes needed", Ship},
		{"middling score is no call", "Overall: 8/10", None},
		{"a word after overall is no grade", "Overall: A solid change with two gaps", None},
		{"a score out of something else is no grade", "Score: 3/7 checks", None},
		{"a written verdict beats a score", "Quality score: 9/10\n\nVerdict: NEEDS_WORK", NeedsWork},
		{"a nested score is a finding's", "## Findings\n\n- Parser\n  - Score: 4/10\n", None},
		{"request changes key", "**Verdict:** REQUEST CHANGES — two blockers", NeedsWork},
		{"changes requested alone", "## Summary\n\nok\n\n**CHANGES REQUESTED**", NeedsWork},
		{"not ready beats ready", "Verdict: Not ready to merge", NeedsWork},
		{"needs fixes", "VERDICT: NEEDS FIXES", NeedsWork},
		{"blocked after key", "**Status:** BLOCKED", NeedsWork},
		{"recommendation key", "Final recommendation: Request changes.", NeedsWork},
		{"emoji heading alone", "## ❌ Request Changes\n\n- a thing", NeedsWork},
		{"start over", "Verdict: start over with a queue", MajorRethink},
		{"rethink alone", "**Rethink**", MajorRethink},
		{"approve", "Verdict: ✅ APPROVE", Ship},
		{"lgtm alone", "Looked at all of it.\n\nLGTM", Ship},
		{"ready after key", "Decision: ready", Ship},
		{"json field", `{"verdict": "needs_work", "n": 2}`, NeedsWork},
		{"verdict key beats later decision key", "Verdict: NEEDS_WORK\n\n**Recommendation:** approve once fixed", NeedsWork},
		{"decision beats bare phrase", "Status: changes requested\n\nLGTM otherwise", NeedsWork},

		{"fenced json review", "```json\n{\n  \"VERDICT\": \"NEEDS_CHANGES\",\n  \"ACTION_ITEMS\": []\n}\n```\n", NeedsWork},
		{"codex overall_correctness", `{"findings": [], "overall_correctness": "patch is incorrect"}`, NeedsWork},
		{"status with a qualifier", "**Status:** Pre-release fixes required", NeedsWork},

		{"recommendation heading then word", "### Recommendation\n\n**Request Changes** — fix the race first.", NeedsWork},
		{"assessment title then approve", "**Overall assessment:**\n\n✅ Approve", Ship},

		{"empty", "", None},
		{"needs human is not a request", "VERDICT: NEEDS_HUMAN", None},
		{"ready alone is prose", "Ready.", None},
		{"blocked in prose", "The deploy is blocked on review.", None},
		{"recommendation prose", "**Recommendation:** Use a queue for retries.", None},
		{"prose words only", "I would not SHIP this yet; it NEEDS_WORK on error handling.", None},
		{"prose verdict no colon", "The verdict is NEEDS_WORK in my view.", None},
		{"sub-item correct only", "1. claim A\n   - **Verdict**: CORRECT\n2. claim B\n   - **Verdict**: INCORRECT", None},
		{"unknown tag word", "<verdict>NEEDS_HUMAN</verdict>", None},
		{"word prefix", "VERDICT: SHIPPED", None},
		{"identifier suffix", "preverdict: SHIP", None},
		{"verdict heading then prose", "## Verdict\n\nIt depends.", None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseVerdict(tt.text); got != tt.want {
				t.Errorf("ParseVerdict(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

var trueVerdictLine = regexp.MustCompile(`(?m)^true_verdict: (\S+)$`)

// The dev reviews carry a corpus annotation with the verdict a human read;
// the parser must agree with it without looking at it.
func TestParseVerdictDevReviews(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "review", "dev", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no dev reviews found")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			want := NeedsWork
			if m := trueVerdictLine.FindStringSubmatch(text); m != nil {
				want = Verdict(m[1])
			} else if filepath.Base(f) == "dev-ship-01.md" {
				want = Ship
			}
			if got := ParseVerdict(text); got != want {
				t.Errorf("ParseVerdict = %q, want %q", got, want)
			}
			// Without the annotation lines the answer must not change.
			stripped := regexp.MustCompile(`(?m)^(flowctl|true)_verdict: .*$`).ReplaceAllString(text, "")
			if got := ParseVerdict(stripped); got != want {
				t.Errorf("without annotations ParseVerdict = %q, want %q", got, want)
			}
		})
	}
}
