package review

import (
	"strings"
	"testing"
)

func TestFoldWidth(t *testing.T) {
	for in, want := range map[string]string{
		"plain ascii: (ok)":    "plain ascii: (ok)",
		"问题 1（严重）：标题":          "问题 1 (严重) : 标题",
		"【P0】缓存未加锁":            " [P0] 缓存未加锁",
		"ＡＰＩ　ｖ２":               "API v2",
		"修复建议：加锁，再写入；完成":       "修复建议: 加锁, 再写入; 完成",
		"ok\xffthen（x）\xff":    "ok\xffthen (x) \uFFFD",
		"no wide marks, 中文也没有": "no wide marks, 中文也没有",
	} {
		if got := foldWidth(in); got != want {
			t.Errorf("foldWidth(%q) = %q, want %q", in, got, want)
		}
	}
}

// A review written in Chinese with full-width punctuation: each heading
// is one finding with its severity, and the CJK fix label fills the fix.
// Before the fold it gave no finding at all.
func TestExtractJapaneseReview(t *testing.T) {
	review := "# レビュー\n\n## 指摘事項\n\n### 指摘 1【高】：更新処理が競合する\n\n`store.ts` の `save()` がロックなしで `items` を書き換える。\n\n修正案：`lock.run()` で囲む。\n"
	fs := Extract(review)
	if len(fs) != 1 || fs[0].Severity != SevMajor || !strings.Contains(fs[0].Fix, "lock.run()") {
		t.Fatalf("got %+v, want one major finding with its 修正案 fix", fs)
	}
}

func TestExtractChineseReview(t *testing.T) {
	review := "# 审查报告\n\n## 发现的问题\n\n" +
		"### 问题 1（严重）：写入缓存时没有加锁\n\n`store.go` 的 `Put()` 在多个 goroutine 中写 `entries`，没有持有 `mu`。\n\n建议：写入前调用 `s.mu.Lock()`。\n\n" +
		"### 问题 2（低）：注释有错别字\n\n`main.go` 第三行注释拼错。\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if fs[0].Severity != SevCritical || fs[1].Severity != SevNit {
		t.Errorf("severities %q, %q; want critical, nit", fs[0].Severity, fs[1].Severity)
	}
	if !strings.HasPrefix(fs[0].Problem, "写入缓存时没有加锁") {
		t.Errorf("problem %q should open with the title, no marker or colon", fs[0].Problem)
	}
	if !strings.Contains(fs[0].Fix, "s.mu.Lock()") {
		t.Errorf("fix %q should come from the 建议 label", fs[0].Fix)
	}
	a := AnalyzeWith(review, DefaultOptions())
	if a.Verdict != NeedsWork || !a.Decisions[0].Keep || a.Decisions[1].Keep {
		t.Errorf("verdict %v, keeps %v/%v; want NEEDS_WORK inferred, the critical kept and the typo dropped", a.Verdict, a.Decisions[0].Keep, a.Decisions[1].Keep)
	}
}

// A finding heading whose sub-headings name its fields ("#### Problem",
// "#### Fix", or the same in Chinese) is one finding, not a section of
// findings each sub-heading is one of.
func TestFieldSubHeadingsStayInTheirFinding(t *testing.T) {
	for _, labels := range [][3]string{{"Location", "Problem", "Fix"}, {"位置", "问题", "修复"}} {
		review := "## Confirmed findings\n\n" +
			"### CR-12: Ammo switch corrupts the cached baseline\n\n**Severity**: P1\n\n" +
			"#### " + labels[0] + "\n\n- `weapons/runtime.go`\n\n" +
			"#### " + labels[1] + "\n\nSwitching re-derives the baseline from rounded stats instead of `baselineCache`.\n\n" +
			"#### " + labels[2] + "\n\nRead `baselineCache` first and derive only on a miss.\n\n" +
			"### CR-13: Scene reset drops the cache\n\n#### " + labels[1] + "\n\n`Scene.Reset()` clears `baselineCache` too.\n\n#### " + labels[2] + "\n\nKeep the cache out of the scene state.\n"
		fs := Extract(review)
		if len(fs) != 2 {
			t.Fatalf("%s: got %d findings, want 2: %+v", labels[1], len(fs), fs)
		}
		if !strings.HasPrefix(fs[0].Problem, "Ammo switch corrupts") || !strings.Contains(fs[0].Fix, "derive only on a miss") {
			t.Errorf("%s: first finding %+v should carry its title and fix", labels[1], fs[0])
		}
	}
}
