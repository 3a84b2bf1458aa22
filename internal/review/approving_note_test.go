package review

import "testing"

// A reviewer's approving note without a verdict word and one praise or
// someday bullet asks for no changes: no verdict is read, so the hook
// records nothing (cc32ea3, reverted in c1ff719, read NEEDS_WORK and stored
// the praise as a lesson).
func TestApprovingNoteWithOneBulletAsksNothing(t *testing.T) {
	for name, review := range map[string]string{
		"praise": "Reviewed the diff for fn-2.3. All good, merging is fine.\n\n" +
			"- Thanks for adding `TestParse` for the empty input case.\n",
		"someday": "Reviewed the diff for fn-2.3. Tests pass and the change does what the task asks.\n\n" +
			"- `parseArgs` could someday accept `--verbose`, not needed now.\n",
	} {
		a := Analyze(review)
		// The verdict decides whether the hook records anything (the
		// rules keep both bullets as lessons whatever the verdict).
		if a.Verdict.Actionable() {
			t.Errorf("%s: verdict %q (inferred %v), want none: the hook would record %d lesson(s)", name, a.Verdict, a.Inferred, len(a.Kept()))
		}
	}
}
